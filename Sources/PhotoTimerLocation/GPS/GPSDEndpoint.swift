/// Where gpsd listens: a host and a TCP port (default 127.0.0.1:2947).
public struct GPSDEndpoint: Hashable, Sendable, CustomStringConvertible {
  /// The host name or address.
  public var host: String
  /// The TCP port.
  public var port: UInt16

  /// gpsd's default: 127.0.0.1:2947.
  public static let standard = GPSDEndpoint(host: "127.0.0.1", port: 2947)

  /// Creates an endpoint.
  ///
  /// - Parameters:
  ///   - host: The host name or address.
  ///   - port: The TCP port.
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Parses `HOST:PORT`, `HOST` (port 2947) or `[IPv6]:PORT`.
  ///
  /// - Parameter text: The endpoint as a person writes it.
  /// - Returns: The endpoint, or `nil` if the port is not a number from 1 to 65535.
  public init?(_ text: String) {
    var host = Substring(text)
    var port: UInt16 = 2947
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      let rest = host[host.index(after: close)...]
      host = host[host.index(after: host.startIndex)..<close]
      if rest.hasPrefix(":") {
        guard let value = UInt16(rest.dropFirst()), value > 0 else { return nil }
        port = value
      } else if !rest.isEmpty {
        return nil
      }
    } else if let colon = host.lastIndex(of: ":"), host.filter({ $0 == ":" }).count == 1 {
      guard let value = UInt16(host[host.index(after: colon)...]), value > 0 else { return nil }
      port = value
      host = host[..<colon]
    }
    guard !host.isEmpty else { return nil }
    self.init(host: String(host), port: port)
  }

  /// `host:port`.
  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
