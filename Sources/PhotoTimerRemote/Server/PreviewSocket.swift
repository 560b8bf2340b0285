import CCivetWeb
import Foundation
import PhotoTimer
import PhotoTimerPOSIX

/// The preview over a WebSocket, paced by each viewer.
///
/// The page says `ready N` once frame N has arrived (and `ready 0` at first); the server then
/// sends the newest frame after N as soon as there is one. So each viewer has at most one
/// frame in flight: a slow phone gets fewer frames, never older ones, and nothing queues in
/// the network for it (an MJPEG stream would fill the socket's buffer with old frames, and
/// be seconds behind). The page decodes only the newest frame it has, while the next one
/// travels, and says `painted N` once frame N is on screen: the server keeps those latencies. A frame is one binary message: a 4-byte big-endian length, a JSON
/// header (`{"seq":12,"width":640,"height":360}`), then the JPEG. A viewer over the limit gets
/// `{"busy":true}` and is closed.
enum PreviewSocket {
  /// One viewer's connection.
  final class Viewer {
    let admitted: Bool
    var sent = 0
    /// When the last few frames sent were captured, by number (for `painted N`).
    var captured: [(sequence: Int, instant: ContinuousClock.Instant)] = []

    init(admitted: Bool) {
      self.admitted = admitted
    }
  }

  static func register(_ context: OpaquePointer, handlers: UnsafeMutableRawPointer) {
    mg_set_websocket_handler(
      context, "/api/preview",
      { connection, data in
        // Connect: the same rules as every request; 1 closes at once.
        guard let connection, let data else { return 1 }
        let handlers = Unmanaged<RemoteHandlers>.fromOpaque(data).takeUnretainedValue()
        var refused: Int32 = 1
        try? LargeStack.run {
          guard let request = RemoteHandlers.request(of: connection),
            case .serve(.preview, _) = handlers.router.route(request)
          else { return }
          refused = 0
        }
        return refused
      },
      { connection, data in
        guard let connection, let data else { return }
        let handlers = Unmanaged<RemoteHandlers>.fromOpaque(data).takeUnretainedValue()
        let started = (try? LargeStack.run { handlers.admit(connection) }) != nil
        // NB: no thread for it: closed at once (the data handler sees no viewer).
        if !started { _ = mg_websocket_write(connection, 8, nil, 0) }
      },
      { connection, bits, bytes, length, data in
        guard let connection, let data, let user = mg_get_user_connection_data(connection) else {
          return 0
        }
        let handlers = Unmanaged<RemoteHandlers>.fromOpaque(data).takeUnretainedValue()
        // NB: 0 closes the connection, also when no thread could start.
        var keep: Int32 = 0
        try? LargeStack.run {
          keep = handlers.receive(
            bits: bits, bytes: bytes, length: length, user: user, on: connection)
        }
        return keep
      },
      { connection, data in
        guard let connection, let data, let user = mg_get_user_connection_data(connection) else {
          return
        }
        let handlers = Unmanaged<RemoteHandlers>.fromOpaque(data).takeUnretainedValue()
        // NB: where no thread can start, the viewer stays counted: better than running Swift
        // on civetweb's stack.
        try? LargeStack.run {
          let viewer = Unmanaged<Viewer>.fromOpaque(user).takeRetainedValue()
          if viewer.admitted { handlers.hub.leaveViewer() }
        }
      }, handlers)
  }
}

extension RemoteHandlers {
  /// A viewer connected: counted in (or told the server is busy and closed).
  fileprivate func admit(_ connection: OpaquePointer) {
    let viewer = PreviewSocket.Viewer(admitted: hub.enterViewer())
    mg_set_user_connection_data(connection, Unmanaged.passRetained(viewer).toOpaque())
    if !viewer.admitted {
      let busy = "{\"busy\":true,\"maximumViewers\":\(RemoteHub.maximumViewers)}"
      _ = busy.withCString { mg_websocket_write(connection, 1, $0, strlen($0)) }
      // NB: then a close frame: the page knows at once, and the slot is not held.
      _ = mg_websocket_write(connection, 8, nil, 0)
    }
  }

  /// A viewer's message: 1 keeps the connection, 0 closes it.
  fileprivate func receive(
    bits: Int32, bytes: UnsafeMutablePointer<CChar>?, length: Int, user: UnsafeMutableRawPointer,
    on connection: OpaquePointer
  ) -> Int32 {
    let viewer = Unmanaged<PreviewSocket.Viewer>.fromOpaque(user).takeUnretainedValue()
    let opcode = bits & 0x0f
    guard viewer.admitted, opcode != 8 else { return 0 }
    guard opcode == 1, let bytes else { return 1 }
    let text = String(
      decoding: UnsafeRawBufferPointer(start: bytes, count: min(length, 32)), as: UTF8.self)
    return answer(text, viewer: viewer, on: connection) ? 1 : 0
  }

  /// A viewer's `painted N` (records the latency of frame N) or `ready N` (sends the next
  /// newest frame, or nothing after 2 s without one: the page asks again). `false` ends the
  /// connection.
  fileprivate func answer(
    _ message: String, viewer: PreviewSocket.Viewer, on connection: OpaquePointer
  ) -> Bool {
    let words = message.split(separator: " ")
    if words.first == "painted", words.count > 1, let painted = Int(words[1]),
      let index = viewer.captured.firstIndex(where: { $0.sequence == painted })
    {
      let latency = viewer.captured[index].instant.duration(to: .now)
      viewer.captured.removeFirst(index + 1)
      latencies.withLock { list in
        list.append(latency)
        if list.count > 1000 { list.removeFirst(list.count - 1000) }
      }
      return true
    }
    guard words.first == "ready" else { return true }
    guard let preview = hub.waitForPreview(after: viewer.sent, timeout: .seconds(2)) else {
      return !hub.isClosed
    }
    var header = JSONObject()
    header.add("seq", preview.sequence)
    header.add("width", preview.width)
    header.add("height", preview.height)
    header.add("age", preview.captured.duration(to: .now).secondsValue * 1000)
    let json = Array(header.text.utf8)
    let size = UInt32(json.count)
    var message: [UInt8] = [
      UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff),
    ]
    message.reserveCapacity(4 + json.count + preview.jpeg.count)
    message += json
    message += preview.jpeg
    let written = message.withUnsafeBytes { buffer in
      mg_websocket_write(
        connection, 2, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
    }
    guard written > 0 else { return false }
    viewer.sent = preview.sequence
    viewer.captured.append((preview.sequence, preview.captured))
    if viewer.captured.count > 8 { viewer.captured.removeFirst() }
    return true
  }
}
