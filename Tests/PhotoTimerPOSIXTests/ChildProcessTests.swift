import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
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
      let completion = try await ChildProcess.run([
        "/bin/sh", "-c", "echo out; echo err >&2; exit 3",
      ])
      #expect(completion.exit == .status(3))
      #expect(!completion.succeeded)
      #expect(completion.output.contains("out\n"))
      #expect(completion.output.contains("err\n"))
      #expect(completion.standardOutput == "out\n")
      #expect(completion.standardError == "err\n")
    }
  }

  @Test("A program over its time limit is stopped and reaped; the error says so with its output")
  func timeLimit() async throws {
    let plan = FaultPlan()
    await FaultPlan.$current.withValue(plan) {
      await #expect {
        _ = try await ChildProcess.run(
          ["/bin/sh", "-c", "echo waiting; exec sleep 30"], timeLimit: .milliseconds(300))
      } throws: { error in
        let exceeded = error as? ChildProcess.TimeLimitExceeded
        return exceeded?.description.hasPrefix(
          "`/bin/sh -c echo waiting; exec sleep 30` ran longer than 0.3 seconds and was stopped")
          == true && exceeded?.output == "waiting\n"
      }
    }
    #expect(Array(plan.children.values) == [.some(.signal(SIGTERM))])
    #expect(plan.openDescriptors.isEmpty)
  }

  @Test("A child holds no descriptor it was not handed, close-on-exec or not")
  func inheritsNothing() async throws {
    // NB: the way Foundation's Pipe and many host programs open them: no O_CLOEXEC.
    var ends: [Int32] = [-1, -1]
    #expect(pipe(&ends) == 0)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-inherit-\(getpid())"
    ).path
    let file = open(path, O_RDWR | O_CREAT, 0o600)
    defer {
      close(file)
      unlink(path)
    }
    for descriptor in ends + [file] { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC == 0) }
    let probe = ends.map(String.init).joined(separator: " ") + " \(file)"
    let completion = try await ChildProcess.run([
      "/bin/sh", "-c",
      "for fd in \(probe); do [ -e /proc/$$/fd/$fd ] && echo held $fd; done; ls /proc/$$/fd",
    ])
    #expect(!completion.standardOutput.contains("held"), "\(completion.standardOutput)")
    // Only 0, 1 and 2 (ls opens one more of its own, for the folder it lists).
    let listed = completion.standardOutput.split(separator: "\n").compactMap { Int($0) }
    #expect(listed.filter { $0 > 2 }.count <= 1, "\(listed)")

    // A long-lived child (ffmpeg streaming) runs; the pipe's reader still sees its end once the
    // write end is closed here.
    let ffmpeg = try ChildProcess(command: [
      "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
      "testsrc2=size=64x48:rate=10", "-f", "null", "-",
    ])
    let held =
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(ffmpeg.pid)/fd"))
      ?? []
    let pipeName = try FileManager.default.destinationOfSymbolicLink(
      atPath: "/proc/self/fd/\(ends[0])")
    let targets = held.compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(ffmpeg.pid)/fd/\($0)")
    }
    #expect(!held.isEmpty)
    #expect(!targets.contains(pipeName), "ffmpeg holds \(pipeName): \(targets)")
    #expect(!targets.contains(path), "ffmpeg holds \(path): \(targets)")
    close(ends[1])
    // NB: on a thread of its own (never a blocking wait on the pool), bounded: another test's
    // spawn may hold a copy for the instant before its child's exec.
    let reader = ends[0]
    let ended = Locked(false)
    let waiter = ReaderThread(name: "end-of-file") {
      var poll = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
      let ready = Glibc.poll(&poll, 1, 10_000)
      var byte: UInt8 = 0
      ended.withLock { $0 = ready == 1 && Glibc.read(reader, &byte, 1) == 0 }
    }
    await waiter.join()
    #expect(ended.withLock { $0 }, "the pipe's reader saw no end while ffmpeg ran")
    close(ends[0])
    #expect(ffmpeg.exit == nil, "ffmpeg is still streaming")
    _ = try await ffmpeg.stop()
    ffmpeg.closePipes()
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
      ("posix_spawn_file_actions_addclosefrom_np", Errno(rawValue: ENOSYS)),
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

  @Test(
    "Processor time: a child kept from the processor has waited for it, a sleeping one has not, a reaped one has no count"
  )
  func processorTime() async throws {
    try await withPlan {
      // Both on processor 0: a busy loop at the normal priority, and one at nice 10 that
      // gets a tenth of it and waits the rest.
      let loop = ["/bin/sh", "-c", "while :; do :; done"]
      let busy = try ChildProcess(command: ["taskset", "-c", "0"] + loop)
      let starved = try ChildProcess(command: ["taskset", "-c", "0", "nice", "-n", "10"] + loop)
      let sleeper = try ChildProcess(command: ["sleep", "60"])
      // NB: a failed step must not leave a busy loop behind: the children are stopped whatever
      // happens.
      var failure: (any Error)?
      var asleep: ProcessorTime?
      var later: ProcessorTime?
      var runnable: [Bool] = []
      do {
        // Asleep in nanosleep, past its start (exec and loading may wait for a processor).
        while ProcessTable.contents(of: "/proc/\(sleeper.pid)/wchan").map({
          String(decoding: $0, as: UTF8.self)
        }) != "hrtimer_nanosleep" {
          try await Task.sleep(for: .milliseconds(10))
        }
        let first = try #require(sleeper.processorTime)
        asleep = first
        let before = try #require(starved.processorTime)
        var waited = Duration.zero
        while waited < .milliseconds(300) {
          try await Task.sleep(for: .milliseconds(20))
          waited = try #require(starved.processorTime).waited - before.waited
        }
        later = sleeper.processorTime
        runnable = [busy.isRunnable, starved.isRunnable, sleeper.isRunnable]
      } catch {
        failure = error
      }
      for child in [busy, starved, sleeper] {
        _ = try await child.stop()
        #expect(child.processorTime == nil)
        #expect(!child.isRunnable)
        child.closePipes()
      }
      if let failure { throw failure }
      #expect(later == asleep, "a sleeping process neither runs nor waits")
      #expect(runnable == [true, true, false], "busy loops are running or queued; sleep is not")
      #expect(ProcessorTime.ofCallingThread() != nil)
    }
  }

  @Test("A child that ignores SIGTERM is killed within the grace period")
  func ignoresTerm() async throws {
    try await withPlan {
      let child = try spinningChild(trap: "trap '' TERM")
      try await awaitReady(child)
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
      try await awaitReady(child)
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
      let completion = try await ChildProcess.run([
        "/bin/sh", "-c", "echo before; sleep 60 & echo grandchild $!; exit 0",
      ])
      let (exit, output) = (completion.exit, completion.output)
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

  @Test(
    "The one output reader: frames to the end, lines apart, a wake, a stall",
    .timeLimit(.minutes(1)))
  func outputReader() async throws {
    try await withPlan {
      // Output to its end, the error stream's lines cut at \n and \r.
      let (child, wake) = try ChildProcess.startWithWake([
        "/bin/sh", "-c", "printf 'one\\rtwo\\n  three' >&2; printf abc; printf def",
      ])
      let collected = Locked((output: [UInt8](), lines: [String](), rest: ""))
      let end = Locked<ChildProcess.CollectEnd?>(nil)
      let reader = ReaderThread(name: "test.collect") {
        var lines = LineBuffer()
        let ended = ChildProcess.collect([child.output, child.errors], wake: wake) {
          source, bytes in
          if source == 0 {
            collected.withLock { $0.output += bytes }
          } else {
            let complete = lines.append(bytes)
            collected.withLock { $0.lines += complete }
          }
        }
        collected.withLock { $0.rest = lines.rest }
        end.withLock { $0 = ended }
      }
      await reader.join()
      _ = try await child.wait()
      child.closePipes()
      wake.close()
      #expect(end.withLock { $0 } == .ended)
      let result = collected.withLock { $0 }
      #expect(String(decoding: result.output, as: UTF8.self) == "abcdef")
      #expect(result.lines == ["one", "two"])
      #expect(result.rest == "  three")
    }
    try await withPlan {
      // A stream that goes quiet: the time runs out; then a wake ends a wait with no limit.
      let (child, wake) = try ChildProcess.startWithWake([
        "/bin/sh", "-c", "printf x; exec sleep 30",
      ])
      let ends = Locked<[ChildProcess.CollectEnd]>([])
      let reader = ReaderThread(name: "test.stall") {
        let started = ContinuousClock.now
        let first = ChildProcess.collect(
          [child.output], wake: wake, endsWith: 0, drainOnWake: false,
          timeout: { .milliseconds(200) - started.duration(to: .now) }
        ) { _, _ in }
        ends.withLock { $0.append(first) }
        wake.signal()
        let second = ChildProcess.collect([child.output], wake: wake, drainOnWake: false) { _, _ in
        }
        ends.withLock { $0.append(second) }
      }
      await reader.join()
      #expect(ends.withLock { $0 } == [.timedOut, .woken])
      child.terminate()
      _ = try await child.wait()
      child.closePipes()
      wake.close()
    }
  }
}
