import CCivetWeb
import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// What civetweb's threads run for each request: the router's decision, then the answer.
///
/// Every answer carries the same safety headers: a `Content-Security-Policy` that allows only
/// the page's own script, style, pictures and connections; no sniffing, no referrer (the
/// link holds the token), no caching, no framing.
final class RemoteHandlers: Sendable {
  let hub: RemoteHub
  let router: RemoteRouter
  /// How long an intent waits to be taken on.
  let answerLimit: Duration
  /// Capture-to-paint latencies the pages reported (the last 1,000).
  let latencies = Locked<[Duration]>([])

  init(hub: RemoteHub, router: RemoteRouter, answerLimit: Duration) {
    self.hub = hub
    self.router = router
    self.answerLimit = answerLimit
  }

  static let securityHeaders = [
    "Content-Security-Policy: default-src 'none'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
      + "frame-ancestors 'none'",
    "X-Content-Type-Options: nosniff",
    "Referrer-Policy: no-referrer",
    "Cache-Control: no-store",
    "X-Frame-Options: DENY",
  ]

  /// Registers the request and WebSocket handlers on a started server.
  ///
  /// NB: every handler's body runs through `LargeStack`: civetweb's workers have 100 KiB of
  /// stack, which Swift overflowed (SIGSEGV in the plain pass, the first time a key path's
  /// metadata was built there).
  static func register(_ context: OpaquePointer, handlers: UnsafeMutableRawPointer) {
    mg_set_request_handler(
      context, "**",
      { connection, data in
        guard let connection, let data else { return 0 }
        let handlers = Unmanaged<RemoteHandlers>.fromOpaque(data).takeUnretainedValue()
        // NB: 0 when no thread could start: civetweb then answers 404 itself.
        var status: Int32 = 0
        try? LargeStack.run { status = handlers.serve(connection) }
        return status
      }, handlers)
    PreviewSocket.register(context, handlers: handlers)
  }

  /// The request civetweb parsed, as the router reads it.
  static func request(of connection: OpaquePointer) -> RemoteRequest? {
    guard let info = mg_get_request_info(connection) else { return nil }
    let request = info.pointee
    guard let method = request.request_method,
      let path = request.local_uri_raw ?? request.local_uri ?? request.request_uri
    else { return nil }
    var headers: [String: String] = [:]
    for name in RemoteRequest.readHeaders {
      if let value = mg_get_header(connection, name) { headers[name] = String(cString: value) }
    }
    return RemoteRequest(
      method: String(cString: method), path: String(cString: path),
      query: request.query_string.map { String(cString: $0) }, headers: headers,
      contentLength: request.content_length >= 0 ? request.content_length : nil)
  }

  private func serve(_ connection: OpaquePointer) -> Int32 {
    guard let request = Self.request(of: connection) else {
      return Self.respond(connection, status: 400, text: "bad request")
    }
    switch router.route(request) {
    case .refuse(let refusal):
      var extra: [String] = []
      if case .methodNotAllowed(let allow) = refusal { extra.append("Allow: \(allow)") }
      return Self.respond(connection, status: refusal.status, text: refusal.message, headers: extra)
    case .serve(let route, let head):
      return serve(route, head: head, request: request, on: connection)
    }
  }

  private func serve(
    _ route: RemoteRouter.Route, head: Bool, request: RemoteRequest, on connection: OpaquePointer
  ) -> Int32 {
    switch route {
    case .page(let setCookie):
      var extra: [String] = []
      if setCookie {
        extra.append(
          "Set-Cookie: \(RemoteRouter.cookieName)=\(router.token); Path=/; HttpOnly; "
            + "SameSite=Strict")
      }
      return Self.respond(
        connection, status: 200, type: "text/html; charset=utf-8",
        body: Array(RemotePage.html.utf8), headers: extra, head: head)
    case .script:
      return Self.respond(
        connection, status: 200, type: "text/javascript; charset=utf-8",
        body: Array(RemotePage.script.utf8), head: head)
    case .style:
      return Self.respond(
        connection, status: 200, type: "text/css; charset=utf-8",
        body: Array(RemotePage.style.utf8), head: head)
    case .state:
      return Self.respond(connection, status: 200, json: stateJSON, head: head)
    case .photos:
      let list = "[" + hub.photos.map(\.json).joined(separator: ",") + "]"
      return Self.respond(connection, status: 200, json: list, head: head)
    case .photo(let id, let range, let download):
      return servePhoto(hub.photo(id), range: range, download: download, head: head, on: connection)
    case .guestPhoto(let id, let range, let download):
      return servePhoto(
        hub.guestPhoto(id), range: range, download: download, head: head, on: connection)
    case .guestCode(let number):
      guard let link = hub.guestSessions.sessions.last(where: { $0.number == number })?.link,
        let code = QRCode(encoding: link)
      else { return Self.respond(connection, status: 404, text: "not found") }
      return Self.respond(
        connection, status: 200, type: "image/svg+xml", body: Array(code.svg().utf8), head: head)
    case .guestStyle:
      return Self.respond(
        connection, status: 200, type: "text/css; charset=utf-8",
        body: Array(GuestPage.style.utf8), head: head)
    case .guest(let page, let token):
      let (sessions, title) = hub.guestSessions
      let html: String?
      switch page {
      case .gallery(let number):
        html = GuestPage.gallery(sessions, page: number, title: title, token: token)
      case .session(let number):
        html = sessions.last { $0.number == number }.map {
          GuestPage.session($0, title: title, token: token)
        }
      }
      return Self.respond(
        connection, status: html == nil ? 404 : 200, type: "text/html; charset=utf-8",
        body: Array((html ?? GuestPage.missing(token: token)).utf8), head: head)
    case .events:
      return EventStream(hub: hub).serve(on: connection, head: head)
    case .preview:
      return Self.respond(
        connection, status: 426, text: "the preview is a WebSocket: connect with Upgrade",
        headers: ["Upgrade: websocket"])
    case .intent(let intent):
      Self.drainBody(connection)
      switch hub.ask(intent, timeout: answerLimit) {
      case .accepted:
        return Self.respond(connection, status: 202, json: "{\"ok\":true,\"intent\":\"\(intent)\"}")
      case .refused(let reason):
        var object = JSONObject()
        object.addRaw("ok", "false")
        object.add("intent", intent.description)
        object.add("reason", reason)
        return Self.respond(connection, status: 409, json: object.text)
      }
    }
  }

  /// The page's first look: the camera, the presentation, the photos, the viewers.
  var stateJSON: String {
    var object = JSONObject()
    object.add("camera", hub.camera)
    object.addRaw("mirrored", hub.mirrored ? "true" : "false")
    object.add("seconds", hub.seconds)
    object.addRaw("presentation", hub.presentationJSON)
    object.addRaw("photos", "[" + hub.photos.map(\.json).joined(separator: ",") + "]")
    object.add("maximumViewers", RemoteHub.maximumViewers)
    return object.text
  }

  private func servePhoto(
    _ photo: RemoteHub.Photo?, range: String?, download: Bool, head: Bool,
    on connection: OpaquePointer
  ) -> Int32 {
    guard let photo, let data = FileManager.default.contents(atPath: photo.path)
    else { return Self.respond(connection, status: 404, text: "not found") }
    let bytes = [UInt8](data)
    let name = (photo.path as NSString).lastPathComponent.filter {
      $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0))
    }
    var extra = [
      "Accept-Ranges: bytes",
      "Content-Disposition: \(download ? "attachment" : "inline"); filename=\"\(name)\"",
    ]
    switch ByteRange.parse(range, size: bytes.count) {
    case .whole:
      return Self.respond(
        connection, status: 200, type: "image/jpeg", body: bytes, headers: extra, head: head)
    case .partial(let part):
      extra.append("Content-Range: bytes \(part.first)-\(part.last)/\(bytes.count)")
      return Self.respond(
        connection, status: 206, type: "image/jpeg", body: Array(bytes[part.first...part.last]),
        headers: extra, head: head)
    case .unsatisfiable:
      return Self.respond(
        connection, status: 416, text: "range not satisfiable",
        headers: ["Content-Range: bytes */\(bytes.count)"])
    }
  }

  /// Reads and drops a request's body (at most the router's limit was allowed through).
  static func drainBody(_ connection: OpaquePointer) {
    var buffer = [UInt8](repeating: 0, count: 1024)
    var total = 0
    while total <= RemoteRouter.maximumBody {
      let read = buffer.withUnsafeMutableBytes { mg_read(connection, $0.baseAddress, $0.count) }
      if read <= 0 { break }
      total += Int(read)
    }
  }

  @discardableResult
  static func respond(
    _ connection: OpaquePointer, status: Int, json: String, head: Bool = false
  ) -> Int32 {
    respond(
      connection, status: status, type: "application/json", body: Array(json.utf8), head: head)
  }

  @discardableResult
  static func respond(
    _ connection: OpaquePointer, status: Int, text: String, headers: [String] = []
  ) -> Int32 {
    respond(
      connection, status: status, type: "text/plain; charset=utf-8",
      body: Array((text + "\n").utf8),
      headers: headers)
  }

  /// Writes a whole response: the status line, the safety headers, `headers`, the body.
  @discardableResult
  static func respond(
    _ connection: OpaquePointer, status: Int, type: String, body: [UInt8],
    headers: [String] = [], head: Bool = false
  ) -> Int32 {
    let reason = mg_get_response_code_text(connection, Int32(status)).map { String(cString: $0) }
    var lines = ["HTTP/1.1 \(status) \(reason ?? "")"]
    lines += securityHeaders + headers
    lines += ["Content-Type: \(type)", "Content-Length: \(body.count)", "Connection: close"]
    let header = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    _ = write(connection, header)
    if !head { _ = write(connection, body) }
    return Int32(status)
  }

  /// Writes all of `bytes`; `false` when the client has gone (or stopped reading for the
  /// request time-out).
  static func write(_ connection: OpaquePointer, _ bytes: [UInt8]) -> Bool {
    if bytes.isEmpty { return true }
    return bytes.withUnsafeBytes { mg_write(connection, $0.baseAddress, $0.count) } == bytes.count
  }
}
