/// One HTTP request as the remote's router sees it: the method, the path, the query and the
/// few headers it reads. The server fills it from civetweb's parsed request; the fuzzer from
/// arbitrary bytes.
package struct RemoteRequest: Sendable, Equatable {
  /// `GET`, `POST`…, as sent.
  package var method: String
  /// The path, percent-decoded, without the query: `/api/photos/3`.
  package var path: String
  /// The query after `?`, as sent (not decoded), or `nil`.
  package var query: String?
  /// The headers read by the router, by lowercase name.
  package var headers: [String: String]
  /// The request body's declared length, or `nil` when none was declared.
  package var contentLength: Int64?

  /// Creates a request.
  package init(
    method: String, path: String, query: String? = nil, headers: [String: String] = [:],
    contentLength: Int64? = nil
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.contentLength = contentLength
  }

  /// The headers the router reads; the server copies only these.
  package static let readHeaders = ["authorization", "cookie", "host", "origin", "range"]

  /// The value of `name` in the query (`t`, `seconds`, `download`), percent-decoded.
  package func queryValue(_ name: String) -> Substring? {
    guard let query else { return nil }
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.first == Substring(name) else { continue }
      return parts.count > 1 ? Substring(Self.percentDecoded(parts[1])) : ""
    }
    return nil
  }

  /// The value of the cookie `name`, if the request carries it.
  package func cookie(_ name: String) -> Substring? {
    guard let header = headers["cookie"] else { return nil }
    for pair in header.split(separator: ";") {
      let trimmed = pair.drop { $0 == " " || $0 == "\t" }
      let parts = trimmed.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2, parts[0] == Substring(name) {
        var value = parts[1]
        while value.last == " " || value.last == "\t" { value.removeLast() }
        return value
      }
    }
    return nil
  }

  /// The token of an `Authorization: Bearer …` header.
  package var bearer: Substring? {
    guard let header = headers["authorization"] else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].drop { $0 == " " }
  }

  /// `text` with `%XX` escapes and `+` decoded; malformed escapes are kept as they are.
  package static func percentDecoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let high = hexValue(utf8[utf8.startIndex]),
        let low = hexValue(utf8[utf8.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 48...57: byte - 48
    case 65...70: byte - 55
    case 97...102: byte - 87
    default: nil
    }
  }
}
