import Foundation
import Testing

@testable import PhotoTimerPOSIX

@Suite("Child processes")
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
      #expect(took >= .milliseconds(300))
      // NB: a loose bound: the test suite loads both cores; the kill itself is on time.
      #expect(took < .seconds(10))
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
    try await withPlan {
      let task = Task {
        try await ChildProcess.run(["/bin/sh", "-c", "exec sleep 30"])
      }
      try await Task.sleep(for: .milliseconds(50))
      let started = ContinuousClock.now
      task.cancel()
      await #expect(throws: CancellationError.self) { _ = try await task.value }
      #expect(started.duration(to: .now) < .seconds(3))
    }
  }

  @Test("A program whose own child keeps the pipes open does not keep run waiting")
  func grandchildHoldsPipes() async throws {
    try await withPlan {
      let started = ContinuousClock.now
      let (exit, output) = try await ChildProcess.run([
        "/bin/sh", "-c", "echo before; (exec sleep 20 &) ; exit 0",
      ])
      #expect(exit == .status(0))
      #expect(output.contains("before"))
      // NB: far below the 20 s the grandchild holds the pipes, even with both cores busy.
      #expect(started.duration(to: .now) < .seconds(10))
    }
  }
}
