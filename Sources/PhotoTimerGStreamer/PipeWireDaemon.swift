import Foundation
import PhotoTimerPOSIX

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
    return (try? FileDescriptor.unixSocketAnswers(at: path)) ?? false
  }
}
