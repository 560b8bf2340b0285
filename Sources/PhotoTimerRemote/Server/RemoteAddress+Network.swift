import PhotoTimerPOSIX

@_exported import struct PhotoTimer.RemoteAddress
@_exported import enum PhotoTimer.RemoteError

extension RemoteAddress {
  /// The numeric addresses to listen on: this one, or the LAN's.
  ///
  /// - Throws: `RemoteError.noNetworkAddress` when no interface but loopback is up.
  package func hosts() throws(RemoteError) -> [String] {
    if let host { return [host] }
    let found = Self.lanAddresses()
    guard !found.isEmpty else { throw .noNetworkAddress }
    return found
  }

  /// The IPv4 addresses of the interfaces that are up and not loopback, private ranges first.
  package static func lanAddresses() -> [String] {
    // NB: a machine whose interfaces cannot be listed has, for the phone, no address.
    let found = ((try? NetworkInterfaces.ipv4()) ?? [])
      .filter { $0.isUp && !$0.isLoopback }.map(\.address)
    let isPrivate = { (address: String) in
      address.hasPrefix("192.168.") || address.hasPrefix("10.")
        || (16...31).contains(Int(address.split(separator: ".").dropFirst().first ?? "") ?? 0)
          && address.hasPrefix("172.")
    }
    return found.filter(isPrivate) + found.filter { !isPrivate($0) }
  }
}
