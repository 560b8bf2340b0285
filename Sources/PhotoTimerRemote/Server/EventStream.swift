import CCivetWeb
import PhotoTimer

/// One client's Server-Sent Events: the presentation now, then every event as it comes.
///
/// Each event has an `id:`; the presentation changes are `event: presentation`, a new photo
/// `event: photo`, the program's end `event: bye`, and the `--json` event lines are plain
/// `data:` messages. A comment goes out every 15 s of quiet, so a dead connection is found.
/// A client that fell more than the hub's kept events behind gets the presentation now.
struct EventStream {
  let hub: RemoteHub

  func serve(on connection: OpaquePointer, head: Bool) -> Int32 {
    guard let start = hub.enterStream() else {
      return RemoteHandlers.respond(
        connection, status: 503, text: "too many event streams (\(RemoteHub.maximumStreams))")
    }
    defer { hub.leaveStream() }
    var lines = ["HTTP/1.1 200 OK"] + RemoteHandlers.securityHeaders
    lines += ["Content-Type: text/event-stream", "Connection: close", "X-Accel-Buffering: no"]
    guard
      RemoteHandlers.write(connection, Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    else { return 200 }
    if head { return 200 }
    // NB: from where the stream was counted, not from after its headers were written: an
    // event published in between would be lost.
    var last = start.newest
    let first =
      "retry: 1000\n\n" + Self.text(id: last, name: "presentation", data: start.presentation)
    guard RemoteHandlers.write(connection, Array(first.utf8)) else { return 200 }
    while true {
      let events = hub.waitForEvents(after: last, timeout: .seconds(15))
      if events.isEmpty {
        if hub.isClosed { return 200 }
        guard RemoteHandlers.write(connection, Array(": keep-alive\n\n".utf8)) else { return 200 }
        continue
      }
      var text = ""
      for event in events {
        text += Self.text(id: event.id, name: event.name, data: event.data)
        last = event.id
      }
      guard RemoteHandlers.write(connection, Array(text.utf8)) else { return 200 }
      if events.contains(where: { $0.name == "bye" }) { return 200 }
    }
  }

  static func text(id: Int, name: String?, data: String) -> String {
    "id: \(id)\n" + (name.map { "event: \($0)\n" } ?? "") + "data: \(data)\n\n"
  }
}
