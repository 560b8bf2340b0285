/// Decides what a request gets: the one place where the remote's rules are written.
///
/// Every route needs the token (from the link's `t=`, the cookie, or `Authorization:
/// Bearer`); without it every path and every method gets the same 403, so a stranger learns
/// nothing, not even which routes exist. A request that changes something must be a POST,
/// and when a browser sends it (an `Origin` header) it must come from the page itself; a
/// request that has only the cookie must say where it comes from. Photos are served by the
/// number the server gave them, never by a path. The router is pure: the fuzzer runs it on
/// arbitrary requests.
///
/// A guest's link (the QR code after a booth's collage) carries a second token, which opens
/// only the guest pages under `/guest`: a session's collage and shots, and the event's
/// gallery. It only reads: any other method with it is 403, and every control route refuses
/// it as it refuses no token. Without a guest token (guest links turned off) the guest pages
/// are 403 to everyone but the control token's holder.
package struct RemoteRouter: Sendable {
  /// What the server does for an allowed request.
  package enum Route: Hashable, Sendable {
    /// The page; `setCookie` when the token came in the link.
    case page(setCookie: Bool)
    /// The page's script.
    case script
    /// The page's style sheet.
    case style
    /// The presentation and the photos now, as one JSON object.
    case state
    /// The events (Server-Sent Events).
    case events
    /// The preview (a WebSocket).
    case preview
    /// An intent, to hand to the program.
    case intent(RemoteIntent)
    /// The photos taken since the server started, as JSON.
    case photos
    /// One photo's bytes, by its number; `download` asks the browser to save it.
    case photo(id: Int, range: String?, download: Bool)
    /// The guests' QR code of a published session, as SVG (for the control page).
    case guestCode(session: Int)
    /// A guest page: the event's gallery or one session, with the token its links carry.
    case guest(GuestPage, token: String)
    /// A published session's photo, for a guest.
    case guestPhoto(id: Int, range: String?, download: Bool)
    /// The guest pages' style sheet.
    case guestStyle
  }

  /// The guest pages.
  package enum GuestPage: Hashable, Sendable {
    /// The event's sessions, newest first, `page` (from 1) of them.
    case gallery(page: Int)
    /// One session: its collage and its shots.
    case session(Int)
  }

  /// Why a request is turned away.
  package enum Refusal: Hashable, Sendable {
    /// No valid token, or a foreign origin (403).
    case forbidden
    /// Allowed, but no such route or photo (404).
    case notFound
    /// The route exists, not with this method (405); `allow` lists the methods.
    case methodNotAllowed(allow: String)
    /// A body over the limit (413).
    case tooLarge
    /// A value that cannot be read (400), and why.
    case badRequest(String)

    /// The HTTP status code.
    package var status: Int {
      switch self {
      case .forbidden: 403
      case .notFound: 404
      case .methodNotAllowed: 405
      case .tooLarge: 413
      case .badRequest: 400
      }
    }

    /// The short body sent with it.
    package var message: String {
      switch self {
      case .forbidden: "forbidden"
      case .notFound: "not found"
      case .methodNotAllowed(let allow): "method not allowed (allowed: \(allow))"
      case .tooLarge: "request body too large"
      case .badRequest(let why): "bad request: \(why)"
      }
    }
  }

  /// The router's answer.
  package enum Decision: Hashable, Sendable {
    /// Serve the route; `head` for a HEAD request (headers only).
    case serve(Route, head: Bool)
    /// Turn it away.
    case refuse(Refusal)
  }

  /// The cookie that carries the token after the first visit.
  package static let cookieName = "phototimer_remote"
  /// The largest request body accepted (an intent needs none).
  package static let maximumBody: Int64 = 1024

  /// The token every request must carry.
  package let token: RemoteToken
  /// The token of the guests' links, or `nil` when they are turned off.
  package let guestToken: RemoteToken?
  /// `https` when the server speaks TLS.
  package let scheme: String

  /// Creates the router for `token`, and `guestToken` for the guests' links.
  package init(token: RemoteToken, guestToken: RemoteToken? = nil, scheme: String = "http") {
    self.token = token
    self.guestToken = guestToken
    self.scheme = scheme
  }

  /// What `request` gets.
  package func route(_ request: RemoteRequest) -> Decision {
    if request.path == "/guest" || request.path.hasPrefix("/guest/") || request.path == "/guest.css"
    {
      return guestRoute(request)
    }
    let fromLink = token.matches(request.queryValue("t"))
    let fromHeader = token.matches(request.bearer)
    let fromCookie = token.matches(request.cookie(Self.cookieName))
    guard fromLink || fromHeader || fromCookie else { return .refuse(.forbidden) }
    if let origin = request.headers["origin"] {
      guard let host = request.headers["host"], origin == "\(scheme)://\(host)" else {
        return .refuse(.forbidden)
      }
    }
    let method = request.method
    let head = method == "HEAD"
    let read = method == "GET" || head
    func get(_ route: Route) -> Decision {
      read ? .serve(route, head: head) : .refuse(.methodNotAllowed(allow: "GET, HEAD"))
    }
    let path = request.path
    switch path {
    case "/", "/index.html": return get(.page(setCookie: fromLink))
    case "/app.js": return get(.script)
    case "/app.css": return get(.style)
    case "/api/state": return get(.state)
    case "/api/events": return get(.events)
    case "/api/preview": return get(.preview)
    case "/api/photos": return get(.photos)
    default: break
    }
    if path.hasPrefix("/api/photos/") {
      guard let number = Self.number(path.dropFirst("/api/photos/".count)) else {
        return .refuse(.notFound)
      }
      return get(
        .photo(id: number, range: request.headers["range"], download: Self.download(request)))
    }
    if path.hasPrefix("/api/sessions/"), path.hasSuffix("/code.svg") {
      let number = path.dropFirst("/api/sessions/".count).dropLast("/code.svg".count)
      guard let session = Self.number(number) else { return .refuse(.notFound) }
      return get(.guestCode(session: session))
    }
    guard let intent = Self.intents[path] else { return .refuse(.notFound) }
    guard method == "POST" else { return .refuse(.methodNotAllowed(allow: "POST")) }
    // NB: a browser always sends Origin on a POST; one that carries only the cookie and no
    // Origin is not the page, so it is refused (no cross-site form can ride on the cookie).
    if fromCookie, !fromLink, !fromHeader, request.headers["origin"] == nil {
      return .refuse(.forbidden)
    }
    if let length = request.contentLength, length > Self.maximumBody { return .refuse(.tooLarge) }
    if case .autoStart = intent {
      // NB: the switch's state, not a flip: a double tap or a retry leaves it as asked.
      switch request.queryValue("on") {
      case "1", "true": return .serve(.intent(.autoStart(on: true)), head: false)
      case "0", "false": return .serve(.intent(.autoStart(on: false)), head: false)
      default: return .refuse(.badRequest("on must be 1 or 0"))
      }
    }
    guard case .start = intent else { return .serve(.intent(intent), head: false) }
    guard let text = request.queryValue("seconds") else {
      return .serve(.intent(.start(seconds: nil)), head: false)
    }
    guard text.count <= 4, let seconds = Int(text), RemoteIntent.secondsRange.contains(seconds)
    else {
      let range = RemoteIntent.secondsRange
      return .refuse(
        .badRequest(
          "seconds must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
    }
    return .serve(.intent(.start(seconds: seconds)), head: false)
  }

  /// A guest route: the guest token or the control token, reads only.
  private func guestRoute(_ request: RemoteRequest) -> Decision {
    let given = request.queryValue("t")
    let asGuest = guestToken?.matches(given) ?? false
    let asOwner = token.matches(given) || token.matches(request.bearer)
    guard asGuest || asOwner else { return .refuse(.forbidden) }
    let head = request.method == "HEAD"
    // NB: a guest's link only reads: anything else with it is refused as a stranger is.
    guard request.method == "GET" || head else {
      return asGuest ? .refuse(.forbidden) : .refuse(.methodNotAllowed(allow: "GET, HEAD"))
    }
    let linkToken = asGuest ? String(given ?? "") : token.text
    let path = request.path
    if path == "/guest.css" { return .serve(.guestStyle, head: head) }
    if path == "/guest" || path == "/guest/" {
      guard let text = request.queryValue("page") else {
        return .serve(.guest(.gallery(page: 1), token: linkToken), head: head)
      }
      guard let page = Self.number(text) else {
        return .refuse(.badRequest("page must be 1 or more"))
      }
      return .serve(.guest(.gallery(page: page), token: linkToken), head: head)
    }
    if path.hasPrefix("/guest/session/") {
      guard let number = Self.number(path.dropFirst("/guest/session/".count)) else {
        return .refuse(.notFound)
      }
      return .serve(.guest(.session(number), token: linkToken), head: head)
    }
    if path.hasPrefix("/guest/photos/") {
      guard let number = Self.number(path.dropFirst("/guest/photos/".count)) else {
        return .refuse(.notFound)
      }
      return .serve(
        .guestPhoto(id: number, range: request.headers["range"], download: Self.download(request)),
        head: head)
    }
    return .refuse(.notFound)
  }

  /// A positive number in one spelling: digits, no leading zero, at most nine of them.
  ///
  /// NB: one spelling per photo: `/api/photos/03` is not photo 3 (the remote fuzzer found
  /// it).
  private static func number(_ text: Substring) -> Int? {
    guard text.count <= 9, !text.isEmpty, text.first != "0",
      text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text), number > 0
    else { return nil }
    return number
  }

  /// Whether the request asks the browser to save the photo (`download=1`).
  private static func download(_ request: RemoteRequest) -> Bool {
    request.queryValue("download").map { $0 == "1" || $0 == "true" } ?? false
  }

  private static let intents: [String: RemoteIntent] = Dictionary(
    uniqueKeysWithValues: RemoteIntent.actions.compactMap { action in
      RemoteIntent(action).map { ("/api/\(action.rawValue)", $0) }
    })
}
