import Foundation
import Glibc
import PhotoTimerConcurrency

/// Whether a PipeWire daemon answers on its socket, where clients of this process look for it
/// (`PIPEWIRE_RUNTIME_DIR`, else `XDG_RUNTIME_DIR`; `PIPEWIRE_REMOTE` names the socket).
enum PipeWireDaemon {
  /// The socket's path.
  static var socketPath: String? {
    let environment = ProcessInfo.processInfo.environment
    let folder = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"]
    guard let folder else { return nil }
    return "\(folder)/\(environment["PIPEWIRE_REMOTE"] ?? "pipewire-0")"
  }

  /// Connects to the socket and closes it at once: `false` when there is no socket or nobody
  /// accepts on it (the daemon ended).
  static func isAnswering() -> Bool {
    guard let path = socketPath else { return false }
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { target in
      target.copyBytes(from: bytes)
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return connected == 0
  }
}
