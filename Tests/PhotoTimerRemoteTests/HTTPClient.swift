import Foundation
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

/// A raw HTTP/1.1 client for the tests: exact bytes out, everything the server sent back.
struct HTTPClient {
  let port: Int

  /// The server's answer: the status, the headers by lowercase name, the body.
  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// Sends `request` as it is and reads until the server closes (at most `limit`), or until
  /// what was read contains `marker`.
  ///
  /// NB: the limit is longer than the server's own answer limit in the tests (60 s): under
  /// AddressSanitizer with both cores busy (a CI run beside `make stress`) an intent's answer
  /// took over 20 s, and a client that gave up first saw no answer at all.
  func exchange(
    _ request: [UInt8], limit: Duration = .seconds(90), until marker: String? = nil
  ) async throws -> Answer {
    let port = port
    let bytes = try await OffPool.blocking { _ -> [UInt8] in
      let wake = try WakePipe()
      defer { wake.close() }
      let socket = try FileDescriptor.connectTCP(
        host: "127.0.0.1", port: port, timeout: .seconds(5), wake: wake)
      defer { try? socket.close() }
      try socket.send(request)
      var received: [UInt8] = []
      let deadline = ContinuousClock.now + limit
      while ContinuousClock.now < deadline {
        let ready = try Poll.wait([(socket, .readable)], timeout: .seconds(1))
        if ready.allSatisfy({ $0.isEmpty }) { continue }
        let chunk = try socket.receive(upTo: 65536)
        if chunk.isEmpty { break }
        received += chunk
        if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
      }
      return received
    }
    return Self.parse(bytes)
  }

  /// A request with `headers`, as text.
  func send(
    _ method: String, _ target: String, headers: [String] = [], body: String = "",
    until marker: String? = nil
  ) async throws -> Answer {
    var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"] + headers
    if !body.isEmpty || method == "POST" { lines.append("Content-Length: \(body.utf8.count)") }
    let text = lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    return try await exchange(Array(text.utf8), until: marker)
  }

  static func parse(_ bytes: [UInt8]) -> Answer {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
      return Answer(status: 0, headers: [:], body: bytes)
    }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[line[..<colon].lowercased()] = value
    }
    return Answer(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
  }
}

extension HTTPClient {
  /// Sends `bytes` one every half second; `true` when the server closes the connection first.
  static func trickle(port: Int, bytes: [UInt8]) throws -> Bool {
    let wake = try WakePipe()
    defer { wake.close() }
    let socket = try FileDescriptor.connectTCP(
      host: "127.0.0.1", port: port, timeout: .seconds(5), wake: wake)
    defer { try? socket.close() }
    for byte in bytes {
      let ready = try Poll.wait([(socket, .readable)], timeout: .milliseconds(500))
      if !ready.allSatisfy({ $0.isEmpty }) {
        let answer = (try? socket.receive(upTo: 4096)) ?? []
        if answer.isEmpty { return true }
        // An error status then a close counts as dropped too.
        return true
      }
      do { try socket.send([byte]) } catch { return true }
    }
    return false
  }
}
