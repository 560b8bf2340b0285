/// Why the remote could not start.
public enum RemoteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The address given is not one this program can listen on, and why.
  case badAddress(String, reason: String)
  /// No network address to listen on (no LAN interface is up).
  case noNetworkAddress
  /// The HTTP server did not start: the address, civetweb's words.
  case cannotListen(String, reason: String)

  /// What failed and what to do.
  public var description: String {
    switch self {
    case .badAddress(let address, let reason):
      "cannot use '\(address)' as the remote's address: \(reason)"
    case .noNetworkAddress:
      "no network address to serve the remote on (no interface but loopback is up)"
    case .cannotListen(let address, let reason):
      "the remote cannot listen on \(address): \(reason)"
    }
  }
}
