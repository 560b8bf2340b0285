import Testing

@testable import PhotoTimerRemote

@Suite struct RemoteRouterTests {
  let token = RemoteToken(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
  var router: RemoteRouter { RemoteRouter(token: token) }
  static let host = "192.168.1.20:8470"

  func request(
    _ method: String, _ path: String, query: String? = nil, cookie: String? = nil,
    bearer: String? = nil, origin: String? = nil, length: Int64? = nil
  ) -> RemoteRequest {
    var headers = ["host": Self.host]
    if let cookie { headers["cookie"] = cookie }
    if let bearer { headers["authorization"] = "Bearer \(bearer)" }
    if let origin { headers["origin"] = origin }
    return RemoteRequest(
      method: method, path: path, query: query, headers: headers, contentLength: length)
  }

  static let paths = [
    "/", "/index.html", "/app.js", "/app.css", "/api/state", "/api/events", "/api/preview",
    "/api/photos", "/api/photos/1", "/api/start", "/api/take-now", "/api/cancel",
    "/api/restart", "/api/start-when-ready", "/nothing", "/../etc/passwd",
    "/api/photos/../../etc/passwd", "",
  ]
  static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW"]

  @Test("Without the token every path and every method is the same 403", arguments: methods)
  func everythingIsForbiddenWithoutTheToken(method: String) {
    let wrong = [
      nil, "", "0123", String(token.text.dropLast()), token.text + "0",
      token.text.uppercased().replacingOccurrences(of: "A", with: "B"),
      String(repeating: "0", count: 32), String(repeating: "f", count: 4096),
    ]
    for path in Self.paths {
      for candidate in wrong {
        let asQuery = request(method, path, query: candidate.map { "t=\($0)" })
        #expect(
          router.route(asQuery) == .refuse(.forbidden), "\(method) \(path) t=\(candidate ?? "-")")
        let asCookie = request(method, path, cookie: candidate.map { "phototimer_remote=\($0)" })
        #expect(router.route(asCookie) == .refuse(.forbidden))
        let asBearer = request(method, path, bearer: candidate)
        #expect(router.route(asBearer) == .refuse(.forbidden))
      }
    }
  }

  @Test("The link's token opens the page and sets the cookie; the cookie does not set it again")
  func pageAndCookie() {
    #expect(
      router.route(request("GET", "/", query: "t=\(token)"))
        == .serve(.page(setCookie: true), head: false))
    #expect(
      router.route(request("GET", "/", cookie: "a=b; phototimer_remote=\(token)"))
        == .serve(.page(setCookie: false), head: false))
    #expect(
      router.route(request("HEAD", "/app.js", bearer: token.text)) == .serve(.script, head: true))
  }

  @Test("A foreign Origin is refused, even with the token")
  func foreignOrigin() {
    for origin in [
      "http://evil.example", "http://192.168.1.20:8471", "https://\(Self.host)", "null",
    ] {
      let post = request("POST", "/api/start", bearer: token.text, origin: origin)
      #expect(router.route(post) == .refuse(.forbidden), "\(origin)")
      let get = request("GET", "/api/state", cookie: "phototimer_remote=\(token)", origin: origin)
      #expect(router.route(get) == .refuse(.forbidden))
    }
    let same = request(
      "POST", "/api/start", cookie: "phototimer_remote=\(token)", origin: "http://\(Self.host)")
    #expect(router.route(same) == .serve(.intent(.start(seconds: nil)), head: false))
  }

  @Test("A POST that carries only the cookie must say where it comes from")
  func cookieOnlyPostNeedsOrigin() {
    let post = request("POST", "/api/cancel", cookie: "phototimer_remote=\(token)")
    #expect(router.route(post) == .refuse(.forbidden))
    #expect(
      router.route(request("POST", "/api/cancel", bearer: token.text))
        == .serve(.intent(.cancel), head: false))
  }

  @Test("Intents need POST; reads need GET or HEAD")
  func methodRules() {
    #expect(
      router.route(request("GET", "/api/start", bearer: token.text))
        == .refuse(.methodNotAllowed(allow: "POST")))
    #expect(
      router.route(request("POST", "/api/photos", bearer: token.text))
        == .refuse(.methodNotAllowed(allow: "GET, HEAD")))
    #expect(router.route(request("GET", "/nothing", bearer: token.text)) == .refuse(.notFound))
  }

  @Test(
    "Start's seconds are checked",
    arguments: [
      ("seconds=3", RemoteRouter.Decision.serve(.intent(.start(seconds: 3)), head: false)),
      ("seconds=0", .serve(.intent(.start(seconds: 0)), head: false)),
      ("seconds=601", .refuse(.badRequest("seconds must be a whole number from 0 to 600"))),
      ("seconds=-1", .refuse(.badRequest("seconds must be a whole number from 0 to 600"))),
      (
        "seconds=99999999999999999999",
        .refuse(.badRequest("seconds must be a whole number from 0 to 600"))
      ),
      ("seconds=abc", .refuse(.badRequest("seconds must be a whole number from 0 to 600"))),
    ])
  func startSeconds(query: String, expected: RemoteRouter.Decision) {
    let post = request("POST", "/api/start", query: query, bearer: token.text)
    #expect(router.route(post) == expected)
  }

  @Test(
    "The switch is set, not flipped: on=1 or on=0, nothing else",
    arguments: [
      ("on=1", RemoteRouter.Decision.serve(.intent(.autoStart(on: true)), head: false)),
      ("on=true", .serve(.intent(.autoStart(on: true)), head: false)),
      ("on=0", .serve(.intent(.autoStart(on: false)), head: false)),
      ("on=false", .serve(.intent(.autoStart(on: false)), head: false)),
      ("on=maybe", .refuse(.badRequest("on must be 1 or 0"))),
      ("", .refuse(.badRequest("on must be 1 or 0"))),
    ])
  func autoStart(query: String, expected: RemoteRouter.Decision) {
    let post = request(
      "POST", "/api/start-when-ready", query: query.isEmpty ? nil : query, bearer: token.text)
    #expect(router.route(post) == expected)
  }

  @Test("Bodies over the limit are refused")
  func bodyLimit() {
    let post = request("POST", "/api/take-now", bearer: token.text, length: 1_000_000)
    #expect(router.route(post) == .refuse(.tooLarge))
  }

  @Test(
    "Photos are served by number only",
    arguments: [
      (
        "/api/photos/7",
        RemoteRouter.Decision.serve(.photo(id: 7, range: nil, download: false), head: false)
      ),
      ("/api/photos/0", .refuse(.notFound)),
      ("/api/photos/03", .refuse(.notFound)),
      ("/api/photos/-1", .refuse(.notFound)),
      ("/api/photos/1e3", .refuse(.notFound)),
      ("/api/photos/../../etc/passwd", .refuse(.notFound)),
      ("/api/photos/%2e%2e", .refuse(.notFound)),
      ("/api/photos/1234567890", .refuse(.notFound)),
      ("/api/photos/", .refuse(.notFound)),
      ("/api/photos/1/", .refuse(.notFound)),
    ])
  func photoIds(path: String, expected: RemoteRouter.Decision) {
    #expect(router.route(request("GET", path, bearer: token.text)) == expected)
  }

  @Test(
    "Ranges",
    arguments: [
      ("bytes=0-9", ByteRange.Request.partial(ByteRange(first: 0, last: 9))),
      ("bytes=90-", .partial(ByteRange(first: 90, last: 99))),
      ("bytes=-10", .partial(ByteRange(first: 90, last: 99))),
      ("bytes=-1000", .partial(ByteRange(first: 0, last: 99))),
      ("bytes=50-5000", .partial(ByteRange(first: 50, last: 99))),
      ("bytes=100-", .unsatisfiable),
      ("bytes=9-3", .whole),
      ("bytes=0-1,5-6", .whole),
      ("items=0-1", .whole),
      ("bytes=x-y", .whole),
      ("bytes=99999999999999999999-", .whole),
    ])
  func ranges(header: String, expected: ByteRange.Request) {
    #expect(ByteRange.parse(header, size: 100) == expected)
  }

  @Test("Tokens are 128 random bits, fresh each time, compared whole")
  func tokens() {
    let first = RemoteToken()
    let second = RemoteToken()
    #expect(first != second)
    #expect(first.text.count == 32)
    #expect(RemoteToken(text: first.text) == first)
    #expect(RemoteToken(text: "xyz") == nil)
    #expect(first.matches(Substring(first.text)))
    #expect(!first.matches(Substring(first.text.dropLast())))
    #expect(!first.matches(nil))
  }

  @Test("Query values and cookies are read exactly")
  func parsing() {
    let plain = RemoteRequest(
      method: "GET", path: "/", query: "a=1&t=%41b+c&t=2",
      headers: ["cookie": "x=1;  phototimer_remote=abc ; y"])
    #expect(plain.queryValue("t") == "Ab c")
    #expect(plain.queryValue("missing") == nil)
    #expect(plain.cookie("phototimer_remote") == "abc")
    #expect(RemoteRequest.percentDecoded("%zz%4") == "%zz%4")
  }
}
