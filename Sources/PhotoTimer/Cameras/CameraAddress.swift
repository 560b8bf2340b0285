/// A camera's address as it may be shown or written: never with its user or password.
///
/// IP cameras are addressed as `rtsp://user:password@host/stream`, and some take the password
/// in the query (`?user=admin&password=…`). Photos are made to be shared, and the phone page
/// offers them for download, so every place that shows or records a camera's address (EXIF,
/// output, the live view, the window, the remote, errors) shows ``redacted(_:)`` instead:
/// `rtsp://host/stream`.
///
/// ```swift
/// CameraAddress.redacted("rtsp://bob:secret@10.0.0.5:554/cam?password=x&channel=1")
/// // "rtsp://10.0.0.5:554/cam?channel=1"
/// ```
public enum CameraAddress {
  /// Query parameters whose value is a secret: removed whole, name and value.
  static let secretParameters: Set<String> = [
    "password", "passwd", "pass", "pwd", "psw", "user", "username", "usr", "login", "token",
    "auth", "key", "apikey", "api_key", "secret", "access_token", "sig", "signature",
  ]

  /// `text` with the user information removed from every URL in it, and every secret query
  /// parameter (`password=`, `user=`, `token=`…) removed.
  ///
  /// Works on a bare address and on a longer text that quotes one (ffmpeg's
  /// `Input #0, rtsp, from 'rtsp://bob:secret@host/cam':`). Text without a URL is returned
  /// unchanged.
  ///
  /// - Parameter text: An address, or a text that may contain addresses.
  /// - Returns: The same text with no user, password or secret parameter in it.
  public static func redacted(_ text: String) -> String {
    guard text.contains("://") else { return text }
    var result = ""
    var rest = Substring(text)
    while let separator = rest.range(of: "://") {
      // The scheme: the letters, digits, + - . just before "://".
      var schemeStart = separator.lowerBound
      while schemeStart > rest.startIndex {
        let previous = rest.index(before: schemeStart)
        let character = rest[previous]
        guard character.isASCII,
          character.isLetter || character.isNumber || "+-.".contains(character)
        else { break }
        schemeStart = previous
      }
      result += rest[..<separator.upperBound]
      let afterScheme = rest[separator.upperBound...]
      let end =
        afterScheme.firstIndex { $0.isWhitespace || "'\"<>".contains($0) } ?? afterScheme.endIndex
      result += redactedRemainder(afterScheme[..<end])
      rest = afterScheme[end...]
    }
    return result + rest
  }

  /// The part of a URL after `scheme://`, without user information or secret parameters.
  private static func redactedRemainder(_ remainder: Substring) -> String {
    let pathStart = remainder.firstIndex { "/?#".contains($0) } ?? remainder.endIndex
    var authority = remainder[..<pathStart]
    // NB: the last @ of the authority: a password may itself hold an @.
    if let at = authority.lastIndex(of: "@") {
      authority = authority[authority.index(after: at)...]
    }
    var tail = String(remainder[pathStart...])
    if let question = tail.firstIndex(of: "?") {
      let fragmentStart = tail[question...].firstIndex(of: "#") ?? tail.endIndex
      let query = tail[tail.index(after: question)..<fragmentStart]
      let kept = query.split(separator: "&", omittingEmptySubsequences: true).filter { pair in
        let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        return !secretParameters.contains(name.lowercased())
      }
      tail =
        String(tail[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        + tail[fragmentStart...]
    }
    return String(authority) + tail
  }

  /// The host of an address such as `rtsp://user:pw@cam.local:554/stream` (`cam.local`), or
  /// `nil` when it is not a URL with a host.
  ///
  /// - Parameter address: The address.
  /// - Returns: The host name or address, without port, user or password.
  public static func host(of address: String) -> String? {
    guard let separator = address.range(of: "://") else { return nil }
    let remainder = address[separator.upperBound...]
    var authority = remainder[
      ..<(remainder.firstIndex { "/?#".contains($0) } ?? remainder.endIndex)]
    if let at = authority.lastIndex(of: "@") {
      authority = authority[authority.index(after: at)...]
    }
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      let host = authority[authority.index(after: authority.startIndex)..<close]
      return host.isEmpty ? nil : String(host)
    }
    let host =
      authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      .first.map(String.init) ?? ""
    return host.isEmpty ? nil : host
  }
}
