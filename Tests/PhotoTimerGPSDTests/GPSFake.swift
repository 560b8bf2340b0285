import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

extension GPSFake {
  /// gpsfake replaying the fixture `log` (its name without `.nmea`), ready once gpsd lists it;
  /// started off the cooperative pool.
  static func start(
    log: String, cycle: Double = 0.1, port: UInt16? = nil
  ) async throws
    -> GPSFake
  {
    guard
      let url = Bundle.module.url(forResource: log, withExtension: "nmea", subdirectory: "Fixtures")
    else { throw GPSFakeError("no fixture \(log).nmea") }
    return try await start(replaying: url.path, cycle: cycle, port: port)
  }
}

/// A loopback port that nothing listens on now.
func freePort() throws -> UInt16 { try GPSFake.freePort() }

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
    guard let bytes = ProcessTable.contents(of: table) else { continue }
    let text = String(decoding: bytes, as: UTF8.self)
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
