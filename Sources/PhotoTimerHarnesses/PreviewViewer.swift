import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// A viewer of the remote's preview without a browser: the WebSocket handshake, then `ready N`
/// after each frame, as the page does (or, `stuck`, one `ready 0` and never a read again).
/// The benchmark runs ten of them in a process of their own, so their CPU is not the server's;
/// the server's tests run a stuck one.
package struct PreviewViewer {
  let port: Int
  let token: String

  /// A viewer of the server on loopback `port`, with `token`.
  package init(port: Int, token: String) {
    self.port = port
    self.token = token
  }

  /// Reads frames until `deadline`; returns how many arrived (0 for a stuck viewer, or when
  /// the server closed it).
  package func watch(until deadline: ContinuousClock.Instant, stuck: Bool) -> Int {
    guard let wake = try? WakePipe() else { return 0 }
    defer { wake.close() }
    guard
      let socket = try? FileDescriptor.connectTCP(
        host: "127.0.0.1", port: port, timeout: .seconds(5), wake: wake)
    else { return 0 }
    defer { socket.closeQuietly() }
    let handshake =
      "GET /api/preview HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: cGhvdG90aW1lci1iZW5jaA==\r\n"
      + "Sec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
    guard (try? socket.send(Array(handshake.utf8))) != nil else { return 0 }
    var buffer: [UInt8] = []
    guard let end = read(socket, &buffer, until: deadline, header: true) else { return 0 }
    buffer.removeFirst(end)
    send(socket, "ready 0")
    if stuck {
      // NB: never reads: the socket's buffers fill, and the server must not care.
      Thread.sleep(forTimeInterval: ContinuousClock.now.duration(to: deadline).secondsValue)
      return 0
    }
    var frames = 0
    while ContinuousClock.now < deadline {
      guard let (opcode, payload) = frame(socket, &buffer, until: deadline) else { break }
      if opcode == 8 { break }
      guard opcode == 2, payload.count > 4 else { continue }
      let length =
        Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8
        | Int(payload[3])
      let header = String(decoding: payload[4..<min(payload.count, 4 + length)], as: UTF8.self)
      let sequence = header.firstMatch(of: /"seq":(\d+)/).map { String($0.output.1) } ?? "0"
      frames += 1
      send(socket, "ready \(sequence)")
    }
    return frames
  }

  private func send(_ socket: FileDescriptor, _ text: String) {
    let payload = Array(text.utf8)
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    var message: [UInt8] = [0x81, 0x80 | UInt8(payload.count)] + mask
    message += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    _ = try? socket.send(message)
  }

  /// Reads until the handshake's blank line (`header`); returns where it ends.
  private func read(
    _ socket: FileDescriptor, _ buffer: inout [UInt8], until deadline: ContinuousClock.Instant,
    header: Bool
  ) -> Int? {
    let separator: [UInt8] = [13, 10, 13, 10]
    while ContinuousClock.now < deadline {
      if let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) {
        return end + 4
      }
      guard fill(socket, &buffer) else { return nil }
    }
    return nil
  }

  /// One WebSocket frame from the server (unmasked): its opcode and payload.
  private func frame(
    _ socket: FileDescriptor, _ buffer: inout [UInt8], until deadline: ContinuousClock.Instant
  ) -> (UInt8, [UInt8])? {
    while ContinuousClock.now < deadline {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var start = 2
        if length == 126, buffer.count >= 4 {
          length = Int(buffer[2]) << 8 | Int(buffer[3])
          start = 4
        } else if length == 127, buffer.count >= 10 {
          length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
          start = 10
        }
        if length < 126 || start > 2, buffer.count >= start + length {
          let payload = Array(buffer[start..<(start + length)])
          let opcode = buffer[0] & 0x0f
          buffer.removeFirst(start + length)
          return (opcode, payload)
        }
      }
      guard fill(socket, &buffer) else { return nil }
    }
    return nil
  }

  private func fill(_ socket: FileDescriptor, _ buffer: inout [UInt8]) -> Bool {
    guard let ready = try? Poll.wait([(socket, .readable)], timeout: .milliseconds(500)) else {
      return false
    }
    if ready.allSatisfy({ $0.isEmpty }) { return true }
    guard let chunk = try? socket.receive(upTo: 1 << 20), !chunk.isEmpty else { return false }
    buffer += chunk
    return true
  }

  /// `phototimer-bench --viewers N STUCK PORT TOKEN SECONDS`: N viewers and STUCK stuck ones on
  /// threads; prints the frames each received.
  package static func runViewers(_ arguments: [String]) {
    guard arguments.count >= 5, let count = Int(arguments[0]), let stuck = Int(arguments[1]),
      let port = Int(arguments[2]), let seconds = Int(arguments[4])
    else { return }
    let viewer = PreviewViewer(port: port, token: arguments[3])
    let deadline = ContinuousClock.now + .seconds(seconds)
    let results = Locked<[Int]>([])
    let finished = DispatchGroup()
    for index in 0..<(count + stuck) {
      finished.enter()
      Thread {
        let frames = viewer.watch(until: deadline, stuck: index >= count)
        results.withLock { $0.append(frames) }
        finished.leave()
      }.start()
    }
    finished.wait()
    print(results.withLock { $0 }.map(String.init).joined(separator: " "))
  }
}
