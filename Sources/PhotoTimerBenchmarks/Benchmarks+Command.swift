import Foundation
import PhotoTimer

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmarks {
  /// The command's own figures: `--version` wall time, start to the first frame of the live
  /// view, and the gap between each tick's deadline and its frame on screen.
  static func command() {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("phototimer")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      print("command figures: \(binary.path) not built (make bench builds it)")
      return
    }
    var versions: [Duration] = []
    for _ in 0..<21 {
      // NB: posix_spawn and waitpid, not Foundation's Process, whose waitUntilExit polls and
      // adds about 40 ms to every run.
      guard let time = spawnAndWait(binary.path, ["--version"]) else { return }
      versions.append(time)
    }
    row(
      "phototimer --version, wall time",
      ours: "\(fixed(Sample(versions).median.milliseconds, 1)) ms",
      baseline: "", ratio: "", target: "≤ 20 ms")

    var firstFrames: [Duration] = []
    var gaps: [Duration] = []
    for _ in 0..<5 {
      let log = FileManager.default.temporaryDirectory.appendingPathComponent(
        "phototimer-frames-\(getpid()).log"
      ).path
      guard
        let run = try? PseudoTerminal(
          binary: binary, arguments: ["--simulate", "-s", "5"],
          environment: ["PHOTOTIMER_FRAME_LOG": log])
      else {
        print("command figures: no pseudo-terminal here")
        return
      }
      if let first = run.timeToFirstOutput() { firstFrames.append(first) }
      run.finish()
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ").compactMap { Double($0) }
        guard fields.count == 3 else { continue }
        gaps.append(.nanoseconds(Int64((fields[2] - fields[1]) * 1e9)))
      }
      try? FileManager.default.removeItem(atPath: log)
    }
    row(
      "start → first frame of the live view",
      ours: "\(fixed(Sample(firstFrames).median.milliseconds, 1)) ms",
      baseline: "", ratio: "", target: "≤ 50 ms")
    let sample = Sample(gaps)
    row(
      "tick deadline → frame on screen, p99 (\(gaps.count))",
      ours: "\(fixed(sample.percentile(99).milliseconds, 2)) ms",
      baseline: "median \(fixed(sample.median.milliseconds, 2)) ms", ratio: "", target: "≤ 5 ms")
  }
}

/// Runs `path` with `arguments`, its output to /dev/null, and returns the wall time from
/// spawning to reaping it.
func spawnAndWait(
  _ path: String, _ arguments: [String], output: String = "/dev/null"
) -> Duration? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let start = ContinuousClock.now
  guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  return start.duration(to: .now)
}

/// The command in a pseudo-terminal, as a person would run it.
final class PseudoTerminal {
  let process = Process()
  let master: Int32
  let slave: Int32
  let started: ContinuousClock.Instant
  /// Output read and not yet looked at by ``read(until:limit:)``.
  private var pending: [UInt8] = []

  init(binary: URL, arguments: [String], environment extra: [String: String]) throws {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0,
      ioctl(master, UInt(0x8004_5430), &number) == 0
    else { throw CocoaError(.fileNoSuchFile) }
    slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    process.executableURL = binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    started = ContinuousClock.now
    try process.run()
  }

  /// The time from starting the process to its first byte of output.
  func timeToFirstOutput() -> Duration? {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, 5000) > 0 else { return nil }
    return started.duration(to: .now)
  }

  /// Types `key` into the terminal.
  func press(_ key: String) {
    let bytes = Array(key.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Reads the output until `done` says the text read since the last call is enough, or
  /// `limit` passes; only the newest 64 KiB are kept (a soak reads for hours).
  func read(until done: (String) -> Bool, limit: Duration) -> Bool {
    let deadline = ContinuousClock.now + limit
    var buffer = [UInt8](repeating: 0, count: 65536)
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    while ContinuousClock.now < deadline {
      guard poll(&descriptor, 1, 100) > 0 else {
        if done(String(decoding: pending, as: UTF8.self)) { break }
        continue
      }
      let count = Glibc.read(master, &buffer, buffer.count)
      if count <= 0 { return false }
      pending += buffer[0..<count]
      if pending.count > 65536 { pending.removeFirst(pending.count - 65536) }
      if done(String(decoding: pending, as: UTF8.self)) { break }
    }
    let satisfied = done(String(decoding: pending, as: UTF8.self))
    if satisfied { pending = [] }
    return satisfied
  }

  /// Lets the run end, draining its output, then closes the terminal.
  func finish() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    while process.isRunning {
      if poll(&descriptor, 1, 50) > 0 { _ = Glibc.read(master, &buffer, buffer.count) }
    }
    process.waitUntilExit()
    close(master)
    close(slave)
  }
}
