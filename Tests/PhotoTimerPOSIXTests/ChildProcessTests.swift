import Foundation
import Testing

@testable import PhotoTimerPOSIX

// NB: no wall-clock bound in these tests: under the full suite the cooperative pool can be
// busy for tens of seconds, and every await waits for it. Each test asserts what is true at
// any speed; the suite's time limit catches a hang.
@Suite("Child processes", .timeLimit(.minutes(2)))
struct ChildProcessTests {
  @Test("A program runs to its end: its output and its real exit status")
  func runs() async throws {
    try await withPlan {
      let (exit, output) = try await ChildProcess.run([
        "/bin/sh", "-c", "echo out; echo err >&2; exit 3",
      ])
      #expect(exit == .status(3))
      #expect(output.contains("out\n"))
      #expect(output.contains("err\n"))
    }
  }

  @Test("A missing program is posix_spawn failing with ENOENT, with nothing left open")
  func missingProgram() async throws {
    await withPlan {
      #expect(throws: SystemCallError(call: "posix_spawn", errno: .noSuchFile)) {
        _ = try ChildProcess(command: ["phototimer-no-such-program"])
      }
    }
  }

  @Test(
    "Each spawn step that fails gives its own error and leaks no descriptor",
    arguments: [
      ("pipe", Errno.tooManyOpenFiles), ("posix_spawn", Errno.outOfMemory),
      ("posix_spawn_file_actions_adddup2", Errno.invalidArgument),
      ("posix_spawnattr_setsigmask", Errno.invalidArgument),
      ("posix_spawn_file_actions_init", Errno.outOfMemory),
    ])
  func spawnFailures(call: String, errno: Errno) async throws {
    await withPlan({ $0.fail(call, with: errno) }) {
      #expect(throws: SystemCallError(call: call, errno: errno)) {
        _ = try ChildProcess(command: ["/bin/true"])
      }
    }
  }

  @Test("The second pipe failing closes the first")
  func secondPipeFails() async throws {
    try await withPlan({ $0.fail("pipe", with: .interrupted) }) {
      // NB: EINTR is retried, so it does not fail; the ledger still proves both pipes closed.
      let child = try ChildProcess(command: ["/bin/true"])
      _ = try await child.wait()
      child.closePipes()
    }
  }

  @Test(
    "waitid or waitpid failing gives its typed error, and the child is reaped all the same",
    arguments: [("waitid", Errno.invalidArgument), ("waitpid", Errno.ioError)])
  func waitFailures(call: String, errno: Errno) async throws {
    try await withPlan({ $0.fail(call, with: errno) }) {
      let child = try ChildProcess(command: ["/bin/true"])
      await #expect(throws: SystemCallError(call: call, errno: errno)) {
        _ = try await child.wait()
      }
      #expect(!processExists(child.pid))
      #expect(!child.send(SIGTERM), "no signal after the child was reaped")
      child.closePipes()
    }
  }

  @Test("A child that ignores SIGTERM is killed within the grace period")
  func ignoresTerm() async throws {
    try await withPlan {
      let child = try spinningChild(trap: "trap '' TERM")
      try awaitReady(child)
      let started = ContinuousClock.now
      let exit = try await child.stop(grace: .milliseconds(300))
      let took = started.duration(to: .now)
      #expect(exit == .signal(SIGKILL))
      // SIGTERM was ignored: only the SIGKILL after the grace period ended it.
      #expect(took >= .milliseconds(300))
      #expect(!processExists(child.pid))
      child.closePipes()
    }
  }

  @Test("A child that exits on its own while being stopped is reaped once, with its real status")
  func exitsWhileStopped() async throws {
    try await withPlan {
      let child = try spinningChild(trap: "trap 'exit 7' TERM")
      try awaitReady(child)
      async let first = child.stop(grace: .seconds(5))
      async let second = child.stop(grace: .seconds(5))
      let (a, b) = try await (first, second)
      #expect(a == .status(7))
      #expect(b == .status(7))
      #expect(try await child.wait() == .status(7))
      #expect(child.exit == .status(7))
      #expect(!child.send(SIGKILL))
      child.closePipes()
    }
  }

  @Test("Stopping a child while it exits by itself, 200 times: always its real exit, no zombie")
  func stopRacesExit() async throws {
    try await withPlan {
      for _ in 0..<200 {
        let child = try ChildProcess(command: ["/bin/true"])
        let exit = try await child.stop(grace: .seconds(5))
        #expect(exit == .status(0) || exit == .signal(SIGTERM))
        #expect(!processExists(child.pid))
        child.closePipes()
      }
    }
  }

  @Test("Cancelling a run stops the program within the grace period and reaps it")
  func cancelRun() async throws {
    let plan = FaultPlan()
    await FaultPlan.$current.withValue(plan) {
      let task = Task { try await ChildProcess.run(["/bin/sleep", "30"]) }
      task.cancel()
      await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
    // run returned only after the program was stopped by our SIGTERM and reaped, not after
    // it slept its 30 s.
    #expect(Array(plan.children.values) == [.some(.signal(SIGTERM))])
    #expect(plan.openDescriptors.isEmpty)
  }

  @Test("A program whose own child keeps the pipes open does not keep run waiting")
  func grandchildHoldsPipes() async throws {
    try await withPlan {
      let (exit, output) = try await ChildProcess.run([
        "/bin/sh", "-c", "echo before; sleep 60 & echo grandchild $!; exit 0",
      ])
      #expect(exit == .status(0))
      #expect(output.contains("before"))
      // The grandchild still holds the pipes: run returned without waiting for it.
      let grandchild = output.split(separator: "\n").first { $0.hasPrefix("grandchild ") }
        .flatMap { pid_t($0.dropFirst("grandchild ".count)) }
      let pid = try #require(grandchild)
      #expect(processExists(pid))
      kill(pid, SIGKILL)
    }
  }
}
