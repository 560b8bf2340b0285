/// Where the remote listens: the machine's LAN addresses, or one address, on a port.
///
/// `--remote` alone listens on every IPv4 address of an interface that is up and not
/// loopback (Wi-Fi, Ethernet: where a phone on the same network can reach it), on port
/// 8470. `--remote=PORT` picks the port; `--remote=ADDR:PORT` (or `[V6]:PORT`) one address,
/// and `127.0.0.1:PORT` keeps it on this machine. Port 0 lets the system choose.
public struct RemoteAddress: Hashable, Sendable, CustomStringConvertible {
  /// The default port.
  public static let defaultPort = 8470

  /// The host part: `nil` for the LAN addresses.
  public var host: String?
  /// The port; 0 lets the system choose.
  public var port: Int

  /// Creates an address.
  public init(host: String? = nil, port: Int = Self.defaultPort) {
    self.host = host
    self.port = port
  }

  /// Reads `--remote`'s value: empty, `PORT`, `ADDR`, `ADDR:PORT`, `[V6]` or `[V6]:PORT`.
  ///
  /// - Throws: ``RemoteError/badAddress(_:reason:)`` for anything else.
  public init(parsing text: String) throws(RemoteError) {
    if text.isEmpty {
      self.init()
      return
    }
    var host: Substring?
    var portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else {
        throw .badAddress(text, reason: "an IPv6 address is written in brackets, as [::1]:8470")
      }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else {
          throw .badAddress(text, reason: "expected ':PORT' after the address")
        }
        portText = rest.dropFirst()
      }
    } else if text.allSatisfy(\.isNumber) {
      portText = Substring(text)
    } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
    } else {
      host = Substring(text)
    }
    var port = Self.defaultPort
    if let portText {
      guard let number = Int(portText), (0...65535).contains(number) else {
        throw .badAddress(text, reason: "the port must be a number from 0 to 65535")
      }
      port = number
    }
    var resolved = host.map(String.init)
    if resolved == "localhost" { resolved = "127.0.0.1" }
    if let address = resolved {
      guard Self.isNumeric(address) else {
        throw .badAddress(
          text, reason: "give a numeric address of this machine, such as 127.0.0.1 or 192.168.1.20")
      }
    }
    self.init(host: resolved, port: port)
  }

  /// `ADDR:PORT`, or `LAN:PORT` for the LAN addresses.
  public var description: String {
    let port = String(port)
    guard let host else { return "the LAN addresses, port \(port)" }
    return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// Whether `address` is a numeric IPv4 (`192.168.1.20`) or IPv6 (`::1`, `fe80::1`,
  /// `::ffff:10.0.0.5`) address, as `inet_pton` reads them: no name, no zone, no prefix length.
  package static func isNumeric(_ address: String) -> Bool {
    isIPv4(Substring(address)) || isIPv6(Substring(address))
  }

  private static func isIPv4(_ text: Substring) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
          && (part.count == 1 || part.first != "0") && (Int(part) ?? 256) <= 255
      }
  }

  private static func isIPv6(_ text: Substring) -> Bool {
    let doubles = text.ranges(of: "::")
    guard doubles.count <= 1 else { return false }
    let halves =
      doubles.first.map { [text[..<$0.lowerBound], text[$0.upperBound...]] } ?? [text]
    var groups = 0
    for (index, half) in halves.enumerated() where !half.isEmpty {
      let parts = half.split(separator: ":", omittingEmptySubsequences: false)
      for (position, part) in parts.enumerated() {
        let last = index == halves.count - 1 && position == parts.count - 1
        if last && part.contains(".") {
          guard isIPv4(part) else { return false }
          groups += 2
        } else {
          guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit) else { return false }
          groups += 1
        }
      }
    }
    return halves.count == 2 ? groups <= 7 : groups == 8
  }
}
