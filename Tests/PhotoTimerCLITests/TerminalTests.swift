import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `phototimer` in a real pseudo-terminal, driven like a person at the keyboard.
final class PseudoTerminalRun {
  let process = Process()
  let master: Int32
  let slave: Int32
  private(set) var output = Data()

  init(_ arguments: [String]) throws {
    // NB: /dev/ptmx by hand: Glibc's module leaves out posix_openpt and friends.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0,  // TIOCSPTLCK
      ioctl(master, UInt(0x8004_5430), &number) == 0  // TIOCGPTN
    else { throw Failure("no pseudo-terminal: \(String(cString: strerror(errno)))") }
    slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw Failure("cannot open the pseudo-terminal's slave") }
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    process.executableURL = CommandRun.binary
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = CommandRun.home.path
    environment["TERM"] = "xterm-256color"
    process.environment = environment
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
  }

  /// The slave's terminal settings, as bytes, to compare before and after.
  func settings() -> [UInt8] {
    var value = termios()
    _ = tcgetattr(slave, &value)
    return withUnsafeBytes(of: &value) { Array($0) }
  }

  func start() throws { try process.run() }

  /// Reads until `text` has appeared in the output (or 20 s passed).
  @discardableResult
  func read(until text: String) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      if String(decoding: output, as: UTF8.self).contains(text) { return true }
      guard poll(&descriptor, 1, 100) > 0 else {
        if !process.isRunning { break }
        continue
      }
      let count = Glibc.read(master, &buffer, buffer.count)
      if count <= 0 { return false }
      output.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: output, as: UTF8.self).contains(text)
  }

  func press(_ key: String) {
    _ = key.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, key.utf8.count) }
  }

  /// Waits for the process to end, reading what is left; returns its exit status, or
  /// 128 + the signal when a signal ended it.
  func wait() -> Int32 {
    while process.isRunning { read(until: "\u{0}never") }
    process.waitUntilExit()
    read(until: "\u{0}never")
    return process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
  }

  var text: String { String(decoding: output, as: UTF8.self) }

  deinit {
    close(master)
    close(slave)
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

@Suite("phototimer in a pseudo-terminal", .serialized, .timeLimit(.minutes(1)))
struct TerminalTests {
  @Test("Pressing c during the count: exit 130, the terminal as before, no file, no child")
  func cancelKey() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pty-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try PseudoTerminalRun(["--seconds", "30", "--no-location", "-o", folder.path])
    let before = run.settings()
    try run.start()
    #expect(run.read(until: "space take it now"))
    // The live view switched the terminal to key-at-a-time.
    #expect(run.settings() != before)
    #expect(ProcessTable.children(of: run.process.processIdentifier).isEmpty)
    run.press("c")
    let status = run.wait()
    #expect(status == 130, "\(run.text.suffix(400))")
    #expect(run.settings() == before)
    #expect(run.text.hasSuffix("\u{1B}[?25h"))  // the cursor is shown again
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    #expect(!ProcessTable.exists(run.process.processIdentifier))
  }

  @Test("Space takes it now: the photo is taken before the count would have ended")
  func takeNow() throws {
    let run = try PseudoTerminalRun(["--simulate", "--seconds", "30", "--no-location"])
    let before = run.settings()
    try run.start()
    #expect(run.read(until: "space take it now"))
    run.press(" ")
    #expect(run.wait() == 0, "\(run.text.suffix(400))")
    #expect(run.text.contains("timeline"))
    #expect(run.settings() == before)
  }

  @Test("r restarts the count from the top; c then cancels")
  func restart() throws {
    let run = try PseudoTerminalRun(["--simulate", "--seconds", "30", "--no-location"])
    try run.start()
    #expect(run.read(until: "space take it now"))
    run.press("r")
    #expect(run.read(until: "restarted"))
    #expect(run.read(until: "space take it now"))
    run.press("q")
    #expect(run.wait() == 130, "\(run.text.suffix(400))")
  }

  @Test("SIGTERM while the photo is being made: exit 143, no partial file, terminal restored")
  func terminateDuringCapture() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pty-term-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // 3000 × 2000 in a debug build: the photo takes seconds to make, so the signal lands
    // while it is being made.
    let run = try PseudoTerminalRun([
      "--seconds", "0", "--no-location", "--size", "3000x2000", "-o", folder.path,
    ])
    let before = run.settings()
    try run.start()
    #expect(run.read(until: "Taking the photo"))
    run.process.terminate()
    let status = run.wait()
    #expect(status == 143, "\(run.text.suffix(400))")
    #expect(run.settings() == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
