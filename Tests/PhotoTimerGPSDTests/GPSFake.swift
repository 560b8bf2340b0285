import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Real gpsd, fed an NMEA log by `gpsfake` on a free loopback port, for one test.
final class GPSFake {
  let port: UInt16
  private let process = Process()

  /// Starts `gpsfake` replaying `log` (a fixture name without extension) and waits until
  /// gpsd accepts connections.
  /// - Parameters:
  ///   - log: The fixture's name, without `.nmea`.
  ///   - cycle: Seconds between epochs.
  ///   - once: Replay the log once, then end (gpsd then closes its clients' connections);
  ///     otherwise the log repeats.
  ///   - port: The port to serve on, e.g. one a previous gpsd served on; by default a free one.
  init(log: String, cycle: Double = 0.1, once: Bool = false, port: UInt16? = nil) throws {
    guard
      let url = Bundle.module.url(forResource: log, withExtension: "nmea", subdirectory: "Fixtures")
    else { throw Failure("no fixture \(log).nmea") }
    let port = try port ?? freePort()
    self.port = port
    // NB: through a tiny Python shim that resets SIGINT before exec: a test runner may start
    // its children with SIGINT ignored, and gpsfake then cannot be asked to clean up.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments =
      [
        "-c",
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
          + "os.execv('/usr/bin/gpsfake', ['gpsfake'] + sys.argv[1:])",
        "-q", "-c", String(cycle), "-P", String(port),
      ] + (once ? ["-1"] : []) + [url.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // NB: waiting for another process to listen is an integration test's only real wait;
    // it is bounded and polls the condition, it does not guess a duration.
    let deadline = ContinuousClock.now + .seconds(15)
    while !canConnect(port) {
      guard ContinuousClock.now < deadline, process.isRunning else {
        stop()
        throw Failure("gpsfake did not start gpsd on port \(port)")
      }
      usleep(20_000)
    }
  }

  /// Stops gpsfake and its gpsd.
  ///
  /// NB: gpsfake ignores SIGTERM, and when started with SIGINT ignored (as a test runner's
  /// children may be) it ignores SIGINT too. So: SIGINT, a bounded wait, then SIGKILL for
  /// gpsfake and for the gpsd serving this port.
  func stop() {
    if process.isRunning {
      process.interrupt()
      let deadline = ContinuousClock.now + .seconds(2)
      while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    let pkill = Process()
    pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
    pkill.arguments = ["-KILL", "-f", "gpsd .*-S \(port) "]
    pkill.standardOutput = FileHandle.nullDevice
    pkill.standardError = FileHandle.nullDevice
    try? pkill.run()
    pkill.waitUntilExit()
    while canConnect(port) { usleep(10_000) }
  }

  deinit { stop() }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}

/// A loopback port that nothing listens on now.
func freePort() throws -> UInt16 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { throw GPSFake.Failure("socket failed") }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
      bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
    }
  }
  guard bound else { throw GPSFake.Failure("bind failed") }
  return UInt16(bigEndian: address.sin_port)
}

/// Whether something accepts TCP connections on the loopback port.
func canConnect(_ port: UInt16) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = port.bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}

/// This process's open TCP sockets whose remote end is `port` on loopback, as socket inodes.
///
/// NB: only sockets to gpsd's port: other suites run in parallel in this process and open
/// pipes and sockets of their own (child processes, exiftool), which must not count here.
func openSockets(toPort port: UInt16) -> Set<String> {
  let ours = Set(
    openSocketsAndPipes().compactMap { entry -> String? in
      guard let range = entry.range(of: "socket:[") else { return nil }
      return String(entry[range.upperBound...].dropLast())
    })
  var found: Set<String> = []
  for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
    guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count > 9 else { continue }
      let remotePort = fields[2].split(separator: ":").last.flatMap { UInt16($0, radix: 16) }
      let inode = String(fields[9])
      if remotePort == port, ours.contains(inode) { found.insert(inode) }
    }
  }
  return found
}

/// This process's open sockets and pipes, as `fd → target` (for example `7 → socket:[123]`).
func openSocketsAndPipes() -> Set<String> {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return Set(
    names.compactMap { name in
      guard
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/\(name)"),
        target.hasPrefix("socket:") || target.hasPrefix("pipe:")
      else { return nil }
      return "\(name) → \(target)"
    })
}
