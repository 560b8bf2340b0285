import Foundation
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

/// Headless chromium driven over W3C WebDriver (Debian's `chromium` and `chromium-driver`),
/// for the remote page's tests: `chromedriver` started on a free loopback port, one session,
/// plain HTTP calls.
package final class WebDriver: Sendable {
  /// Why the browser could not be driven.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  private let driver: ChildProcess
  private let port: Int
  private let session: String

  /// Starts `chromedriver` and a headless chromium with a window of `width` × `height`.
  package init(width: Int = 360, height: Int = 780) async throws {
    let port = try Self.freePort()
    driver = try ChildProcess(command: ["chromedriver", "--port=\(port)", "--log-level=OFF"])
    self.port = port
    // NB: a bound, not a target: beside every other suite under AddressSanitizer, chromedriver
    // took over 20 s to answer its first request.
    let deadline = ContinuousClock.now + .seconds(90)
    var ready = false
    while !ready, ContinuousClock.now < deadline {
      ready = (try? await Self.call(port, "GET", "/status", nil)) != nil
      if !ready { try await Task.sleep(for: .milliseconds(100)) }
    }
    guard ready else {
      driver.terminate()
      throw Failure(description: "chromedriver did not answer on port \(port)")
    }
    let capabilities: [String: Any] = [
      "capabilities": [
        "alwaysMatch": [
          "browserName": "chrome",
          "goog:chromeOptions": [
            "binary": "/usr/bin/chromium",
            "args": [
              "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=\(width),\(height)",
            ],
          ],
        ]
      ]
    ]
    do {
      let value = try await Self.call(port, "POST", "/session", capabilities)
      guard let id = (value as? [String: Any])?["sessionId"] as? String else {
        throw Failure(description: "no session: \(value)")
      }
      session = id
    } catch {
      driver.terminate()
      throw error
    }
  }

  /// Opens `url`.
  package func open(_ url: String) async throws {
    _ = try await call("POST", "/url", ["url": url])
  }

  /// Runs `script` in the page and returns its value (JSON: numbers, strings, arrays, objects).
  package func run(_ script: String, _ arguments: [Any] = []) async throws -> Any {
    try await call("POST", "/execute/sync", ["script": script, "args": arguments])
  }

  /// Runs `script`, which calls `arguments[arguments.length - 1]` with its result.
  package func runAsync(_ script: String) async throws -> Any {
    try await call("POST", "/execute/async", ["script": script, "args": []])
  }

  /// Waits until `script` returns `true`, polling the page every 50 ms, for at most `limit`.
  package func wait(for script: String, limit: Duration = .seconds(20)) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if (try await run(script)) as? Bool == true { return true }
      try await Task.sleep(for: .milliseconds(50))
    }
    return false
  }

  /// Clicks the element `selector` finds, as a user would.
  package func click(_ selector: String) async throws {
    let found = try await call("POST", "/element", ["using": "css selector", "value": selector])
    guard let element = (found as? [String: Any])?.values.first as? String else {
      throw Failure(description: "no element \(selector)")
    }
    _ = try await call("POST", "/element/\(element)/click", [String: Any]())
  }

  /// A screenshot of the viewport, as PNG.
  package func screenshot() async throws -> Data {
    guard let text = try await call("GET", "/screenshot", nil) as? String,
      let data = Data(base64Encoded: text)
    else { throw Failure(description: "no screenshot") }
    return data
  }

  /// Ends the session and the driver (and the browser with it).
  package func quit() async {
    _ = try? await call("DELETE", "", nil)
    driver.terminate()
    _ = try? await driver.wait()
    driver.closePipes()
  }

  private func call(_ method: String, _ path: String, _ body: Any?) async throws -> Any {
    try await Self.call(port, method, "/session/\(session)\(path)", body)
  }

  // NB: not URLSession: on Linux it fails every chromedriver answer ("Failed writing
  // header"); one request per connection, read up to its Content-Length.
  private static func call(
    _ port: Int, _ method: String, _ path: String, _ body: Any?
  )
    async throws -> Any
  {
    let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    head += "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
    let request = Array(head.utf8) + [UInt8](payload)
    let (status, answer) = try await OffPool.blocking { _ in try exchange(port: port, request) }
    let object = try JSONSerialization.jsonObject(with: Data(answer), options: [.fragmentsAllowed])
    let value = (object as? [String: Any])?["value"] ?? NSNull()
    guard status == 200 else { throw Failure(description: "WebDriver \(method) \(path): \(value)") }
    return value
  }

  /// Sends `request` and reads the answer: its status and body.
  private static func exchange(port: Int, _ request: [UInt8]) throws -> (Int, [UInt8]) {
    let wake = try WakePipe()
    defer { wake.close() }
    let socket = try FileDescriptor.connectTCP(
      host: "127.0.0.1", port: port, timeout: .seconds(5), wake: wake)
    defer { socket.closeQuietly() }
    try socket.send(request)
    var received: [UInt8] = []
    let separator: [UInt8] = [13, 10, 13, 10]
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
      if let end = received.indices.first(where: { received[$0...].starts(with: separator) }) {
        let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
        if let length, received.count - end - 4 >= length {
          let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
          return (status, Array(received[(end + 4)..<(end + 4 + length)]))
        }
      }
      let ready = try Poll.wait([(socket, .readable)], timeout: .seconds(1))
      if ready.allSatisfy({ $0.isEmpty }) { continue }
      let chunk = try socket.receive(upTo: 1 << 20)
      if chunk.isEmpty { break }
      received += chunk
    }
    throw Failure(description: "chromedriver's answer was cut short")
  }

  /// A loopback port nothing listens on now.
  private static func freePort() throws -> Int {
    let probe = try LoopbackListener(listening: false)
    defer { probe.close() }
    return probe.port
  }
}
