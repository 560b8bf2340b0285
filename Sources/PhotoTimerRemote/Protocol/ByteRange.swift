/// One byte range of a `Range: bytes=…` header, resolved against a file's size.
///
/// Only a single range is served (a download resumed, a video-style seek); a list of ranges,
/// another unit or a malformed header is ignored and the whole file is sent, as RFC 9110
/// allows. A range that starts past the end is unsatisfiable (416).
package struct ByteRange: Hashable, Sendable {
  /// The first byte sent.
  package var first: Int
  /// The last byte sent (inclusive).
  package var last: Int

  /// The number of bytes in the range.
  package var count: Int { last - first + 1 }

  /// What a `Range` header asks of a file of `size` bytes.
  package enum Request: Hashable, Sendable {
    /// No usable range: send the whole file (200).
    case whole
    /// Send these bytes (206).
    case partial(ByteRange)
    /// Nothing of the file can be sent (416).
    case unsatisfiable
  }

  /// Reads `header` against a file of `size` bytes.
  ///
  /// - Parameters:
  ///   - header: The `Range` header's value, or `nil`.
  ///   - size: The file's size in bytes.
  /// - Returns: What to send.
  package static func parse(_ header: String?, size: Int) -> Request {
    guard let header, header.hasPrefix("bytes=") else { return .whole }
    let spec = header.dropFirst(6).trimmingSpaces
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
    let start = spec[..<dash].trimmingSpaces
    let end = spec[spec.index(after: dash)...].trimmingSpaces
    guard start.count <= 18, end.count <= 18 else { return .whole }
    if start.isEmpty {
      // A suffix: the last N bytes.
      guard let suffix = Int(end), suffix > 0 else { return end == "0" ? .unsatisfiable : .whole }
      guard size > 0 else { return .unsatisfiable }
      return .partial(ByteRange(first: max(0, size - suffix), last: size - 1))
    }
    guard let first = Int(start), first >= 0 else { return .whole }
    var last = size - 1
    if !end.isEmpty {
      guard let given = Int(end), given >= first else { return .whole }
      last = min(given, size - 1)
    }
    guard first < size else { return .unsatisfiable }
    return .partial(ByteRange(first: first, last: last))
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }
}
