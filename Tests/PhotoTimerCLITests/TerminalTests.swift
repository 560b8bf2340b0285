import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer` in a real pseudo-terminal, driven like a person at the keyboard.
///
/// What it writes is read on a thread of its own and handed over as a stream, so a test that
/// waits for a word never blocks a thread of the cooperative pool.
final class PseudoTerminalRun: Sendable {
  let terminal: PseudoTerminal
  let arguments: [String]
  private let output = Locked([UInt8]())
  private let started = Locked<(ChildProcess, WakePipe, ReaderThread)?>(nil)
  private let chunks: AsyncStream<Void>
  private let more: AsyncStream<Void>.Continuation

  init(_ arguments: [String]) throws {
    terminal = try PseudoTerminal(columns: 100, rows: 30)
    self.arguments = arguments
    (chunks, more) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  /// The child, once started.
  var child: ChildProcess {
    get throws { try #require(started.withLock { $0?.0 }) }
  }

  /// The slave's terminal settings, as bytes, to compare before and after.
  func settings() -> [UInt8] { terminal.settings() }

  func start() throws {
    let command =
      ["env", "HOME=\(CommandRun.home.path)", "TERM=xterm-256color", CommandRun.binary.path]
      + arguments
    let (child, wake) = try ChildProcess.startWithWake(
      command, streams: .terminal(terminal.terminal))
    let (output, more, controller) = (output, more, terminal.controller)
    let reader = ReaderThread(name: "pty reader") {
      ChildProcess.collect([controller], wake: wake) { _, chunk in
        output.withLock { $0 += chunk }
        more.yield()
      }
      more.finish()
    }
    started.withLock { $0 = (child, wake, reader) }
  }

  /// Waits until `text` has appeared in the output (at most `limit`).
  func read(until text: String, limit: Duration = .seconds(20)) async -> Bool {
    await read(until: { $0.contains(text) }, limit: limit)
  }

  /// Waits until the output so far satisfies `done` (at most `limit`).
  func read(until done: (String) -> Bool, limit: Duration = .seconds(20)) async -> Bool {
    let deadline = Task {
      try? await Task.sleep(for: limit)
      more.yield()
    }
    defer { deadline.cancel() }
    let start = ContinuousClock.now
    for await _ in chunks {
      if done(self.text) { return true }
      if ContinuousClock.now - start >= limit { break }
    }
    return done(self.text)
  }

  func press(_ key: String) {
    _ = try? terminal.controller.writeAll(Array(key.utf8))
  }

  /// Waits for the process to end, reading what is left; returns its exit status, or
  /// 128 + the signal when a signal ended it.
  func wait() async throws -> Int32 {
    let (child, wake, reader) = try #require(started.withLock { $0 })
    let exit = try await child.wait()
    // NB: what it wrote before it ended is in the terminal's buffer: read it, without waiting
    // for an end the terminal side (held here) never sends.
    wake.signal()
    await reader.join()
    child.closePipes()
    wake.close()
    switch exit {
    case .status(let code): return code
    case .signal(let number): return 128 + number
    }
  }

  var text: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }

  deinit {
    // NB: a test that ended early leaves no program behind (it does not read a HUP while
    // the reader still holds the terminal): SIGTERM, SIGKILL after a grace, and the reader
    // woken.
    if let (child, wake, _) = started.withLock({ $0 }), child.exit == nil {
      child.terminate(grace: .seconds(2))
      wake.signal()
    }
    terminal.close()
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

@Suite("phototimer in a pseudo-terminal", .serialized, .timeLimit(.minutes(3)))
struct TerminalTests {
  @Test("Pressing c during the count: exit 130, the terminal as before, no file, no child")
  func cancelKey() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pty-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try PseudoTerminalRun(["--seconds", "30", "--no-location", "-o", folder.path])
    let before = run.settings()
    try run.start()
    #expect(await run.read(until: "space take it now"))
    // The live view switched the terminal to key-at-a-time.
    #expect(run.settings() != before)
    let pid = try run.child.pid
    #expect(ProcessTable.children(of: pid).isEmpty)
    run.press("c")
    let status = try await run.wait()
    #expect(status == 130, "\(run.text.suffix(400))")
    #expect(run.settings() == before)
    #expect(run.text.hasSuffix("\u{1B}[?25h"))  // the cursor is shown again
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    #expect(!ProcessTable.exists(pid))
  }

  @Test("Space takes it now: the photo is taken before the count would have ended")
  func takeNow() async throws {
    let run = try PseudoTerminalRun(["--simulate", "--seconds", "30", "--no-location"])
    let before = run.settings()
    try run.start()
    #expect(await run.read(until: "space take it now"))
    run.press(" ")
    #expect(try await run.wait() == 0, "\(run.text.suffix(400))")
    #expect(run.text.contains("timeline"))
    #expect(run.settings() == before)
  }

  @Test("r restarts the count from the top; c then cancels")
  func restart() async throws {
    let run = try PseudoTerminalRun(["--simulate", "--seconds", "30", "--no-location"])
    try run.start()
    #expect(await run.read(until: "space take it now"))
    run.press("r")
    #expect(await run.read(until: "restarted"))
    #expect(await run.read(until: "space take it now"))
    run.press("q")
    #expect(try await run.wait() == 130, "\(run.text.suffix(400))")
  }

  @Test("SIGTERM while the photo is being made: exit 143, no partial file, terminal restored")
  func terminateDuringCapture() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pty-term-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // 3000 × 2000 in a debug build: the photo takes seconds to make, so the signal lands
    // while it is being made. NB: the camera's first frame at that size took more than the
    // default 10 s under ASan and make stress's CPU hog: the wait is the test's to choose.
    let run = try PseudoTerminalRun([
      "--seconds", "0", "--no-location", "--size", "3000x2000", "--camera-wait", "120", "-o",
      folder.path,
    ])
    let before = run.settings()
    try run.start()
    #expect(await run.read(until: "Taking the photo", limit: .seconds(120)))
    _ = try run.child.send(SIGTERM)
    let status = try await run.wait()
    #expect(status == 143, "\(run.text.suffix(400))")
    #expect(run.settings() == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
