import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The gpsd the other tests talk to: it must be ready when they start and gone when they end,
/// however many have run before it.
@Suite("gpsfake as the tests start it")
struct GPSFakeTests {
  @Test("Ready means gpsd lists the log's device; stopped means no gpsd, no port, no files")
  func readyAndGone() async throws {
    let gpsd = try await GPSFake.start(log: "paris")
    #expect(GPSFake.listsDevice(gpsd.port))
    let files = (try? FileManager.default.contentsOfDirectory(atPath: gpsd.folder)) ?? []
    #expect(files.contains { $0.hasPrefix("gpsfake-") && $0.hasSuffix(".sock") }, "\(files)")
    await gpsd.shutDown()
    #expect(!GPSFake.canConnect(gpsd.port))
    #expect(!FileManager.default.fileExists(atPath: gpsd.folder))
    let left = ProcessTable.all().filter {
      $0.name == "gpsd" && ProcessTable.commandLine(of: $0.pid).contains(String(gpsd.port))
    }
    #expect(left.isEmpty, "\(left)")
  }

  /// What `make stress` ran into (3 runs of 20): gpsfake names gpsd's control socket
  /// `$TMPDIR/gpsfake-<its pid>.sock`, a killed gpsd leaves the file, and a later gpsfake with
  /// the same pid takes the stale file for its gpsd's, fails to connect and never adds its
  /// device. Here every pid the next gpsfake can get has such a file in the shared temporary
  /// folder (Linux hands out pids in order from the last one); the gpsfake has its own.
  @Test("Stale control sockets from killed gpsds do not leave the next gpsd without a device")
  func staleControlSockets() async throws {
    let shared = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    let last =
      (try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
    let limit =
      (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
      .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 32_768
    // NB: pids wrap at pid_max and start again above the kernel's own (300).
    let pids = (1...1_000).map { step in
      let pid = last + Int32(step)
      return pid < limit ? pid : pid - limit + 300
    }
    var planted: [String] = []
    defer { for path in planted { unlink(path) } }
    for pid in pids {
      let path = "\(shared)/gpsfake-\(pid).sock"
      // Someone else's (stale or not) stays as it is.
      guard !FileManager.default.fileExists(atPath: path) else { continue }
      if plantSocket(at: path) { planted.append(path) }
    }
    #expect(planted.count > 900)
    let gpsd = try await GPSFake.start(log: "paris")
    defer { gpsd.stop() }
    #expect(GPSFake.listsDevice(gpsd.port))
  }

  /// A Unix socket file that nothing listens on: what a gpsd killed with SIGKILL leaves.
  private func plantSocket(at path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
      }
    }
  }
}
