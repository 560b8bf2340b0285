/// The secret in the remote's link: 128 random bits, fresh each time the server starts.
///
/// Whoever holds it can see the camera and take photos, so it travels only in the link (the
/// QR code), then in a cookie (`HttpOnly`, `SameSite=Strict`) or an `Authorization: Bearer`
/// header. It is compared in constant time: how long a wrong guess takes says nothing of how
/// much of it was right.
///
/// ```swift
/// let token = RemoteToken()
/// token.matches(request.token)   // true only for the very same 32 hex digits
/// ```
public struct RemoteToken: Hashable, Sendable, CustomStringConvertible {
  /// The token as 32 lowercase hexadecimal digits.
  public let text: String

  /// A fresh token from the system's secure random source (`getrandom`).
  public init() {
    var generator = SystemRandomNumberGenerator()
    self.init(high: generator.next(), low: generator.next())
  }

  /// A token from its two 64-bit halves (tests and fuzzing).
  package init(high: UInt64, low: UInt64) {
    text = Self.hex(high) + Self.hex(low)
  }

  /// A token as written, when it is 32 hex digits.
  package init?(text: String) {
    let digits = text.lowercased()
    guard digits.utf8.count == 32, digits.utf8.allSatisfy(Self.isHexDigit) else { return nil }
    self.text = digits
  }

  /// The token itself (it is the whole secret: print it only in the link).
  public var description: String { text }

  /// Whether `candidate` is this token, compared in time that depends on the token's length
  /// only, never on where a wrong candidate first differs.
  ///
  /// - Parameter candidate: What the request carried, if anything.
  /// - Returns: `true` for exactly the token.
  public func matches(_ candidate: Substring?) -> Bool {
    let expected = Array(text.utf8)
    let given = Array((candidate ?? "").utf8)
    var difference = UInt8(truncatingIfNeeded: expected.count ^ given.count)
    if expected.count != given.count { difference |= 1 }
    for index in expected.indices {
      // NB: a shorter candidate is compared against itself-padded zeros: every byte of the
      // token is looked at whatever was given.
      let byte = index < given.count ? given[index] : 0
      difference |= expected[index] ^ byte
    }
    return difference == 0
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (48...57).contains(byte) || (97...102).contains(byte)
  }
}
