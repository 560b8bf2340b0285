import Foundation
import Testing

@testable import PhotoTimerRemote

/// The guests' links: their own token, reads only, and nothing of the control side.
@Suite struct GuestRouteTests {
  let token = RemoteToken(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
  let guest = RemoteToken(high: 0x1111_2222_3333_4444, low: 0x5555_6666_7777_8888)
  var router: RemoteRouter { RemoteRouter(token: token, guestToken: guest) }

  func request(
    _ method: String, _ path: String, query: String? = nil, headers: [String: String] = [:]
  ) -> RemoteRequest {
    RemoteRequest(
      method: method, path: path, query: query,
      headers: ["host": "192.168.1.20:8470"].merging(headers) { $1 })
  }

  static let controlPaths =
    RemoteRouterTests.paths + ["/api/take-now", "/api/keep", "/api/retake"]

  @Test("The guest's token opens nothing of the control side, with any method or any way")
  func guestTokenIsAStrangerToTheControlSide() {
    for path in Self.controlPaths {
      for method in RemoteRouterTests.methods {
        let byLink = router.route(request(method, path, query: "t=\(guest)"))
        #expect(byLink == .refuse(.forbidden), "\(method) \(path)")
        let byCookie = router.route(
          request(method, path, headers: ["cookie": "\(RemoteRouter.cookieName)=\(guest)"]))
        #expect(byCookie == .refuse(.forbidden), "\(method) \(path) (cookie)")
        let byHeader = router.route(
          request(method, path, headers: ["authorization": "Bearer \(guest)"]))
        #expect(byHeader == .refuse(.forbidden), "\(method) \(path) (bearer)")
      }
    }
  }

  @Test(
    "The guest's token reads the guest pages and photos, and nothing else: 403 for any other method"
  )
  func guestTokenOnlyReads() {
    let t = "t=\(guest)"
    #expect(
      router.route(request("GET", "/guest", query: t))
        == .serve(.guest(.gallery(page: 1), token: guest.text), head: false))
    #expect(
      router.route(request("HEAD", "/guest/", query: t + "&page=3"))
        == .serve(.guest(.gallery(page: 3), token: guest.text), head: true))
    #expect(
      router.route(request("GET", "/guest/session/12", query: t))
        == .serve(.guest(.session(12), token: guest.text), head: false))
    #expect(
      router.route(request("GET", "/guest/photos/7", query: t + "&download=1"))
        == .serve(.guestPhoto(id: 7, range: nil, download: true), head: false))
    #expect(
      router.route(request("GET", "/guest.css", query: t)) == .serve(.guestStyle, head: false))
    for method in RemoteRouterTests.methods where method != "GET" && method != "HEAD" {
      for path in ["/guest", "/guest/session/1", "/guest/photos/1", "/guest.css", "/guest/x"] {
        #expect(router.route(request(method, path, query: t)) == .refuse(.forbidden), "\(method)")
      }
    }
    #expect(router.route(request("GET", "/guest/session/01", query: t)) == .refuse(.notFound))
    #expect(router.route(request("GET", "/guest/photos/0", query: t)) == .refuse(.notFound))
    #expect(router.route(request("GET", "/guest/../api/state", query: t)) == .refuse(.notFound))
    #expect(
      router.route(request("GET", "/guest", query: t + "&page=0"))
        == .refuse(.badRequest("page must be 1 or more")))
  }

  @Test("Without the token, with a wrong one, or with guest links off, the guest pages are 403")
  func guestPagesNeedTheirToken() {
    let wrong = RemoteToken(high: 1, low: 2)
    let off = RemoteRouter(token: token)
    for path in ["/guest", "/guest/session/1", "/guest/photos/1", "/guest.css"] {
      #expect(router.route(request("GET", path)) == .refuse(.forbidden))
      #expect(router.route(request("GET", path, query: "t=\(wrong)")) == .refuse(.forbidden))
      #expect(off.route(request("GET", path, query: "t=\(guest)")) == .refuse(.forbidden))
      // NB: the cookie is the control page's: the guest pages ask for the link's token.
      #expect(
        router.route(
          request("GET", path, headers: ["cookie": "\(RemoteRouter.cookieName)=\(guest)"]))
          == .refuse(.forbidden))
    }
  }

  @Test("A session's guests' code is the control page's: the control token reads it, a guest's not")
  func guestCode() {
    #expect(
      router.route(request("GET", "/api/sessions/3/code.svg", query: "t=\(token)"))
        == .serve(.guestCode(session: 3), head: false))
    #expect(
      router.route(request("GET", "/api/sessions/3/code.svg", query: "t=\(guest)"))
        == .refuse(.forbidden))
    #expect(
      router.route(request("GET", "/api/sessions/03/code.svg", query: "t=\(token)"))
        == .refuse(.notFound))
    #expect(
      router.route(request("GET", "/api/sessions//code.svg", query: "t=\(token)"))
        == .refuse(.notFound))
  }

  @Test(
    "The control token reads the guest pages too (the booth's own screen), its links carrying it")
  func ownerReadsTheGuestPages() {
    #expect(
      router.route(request("GET", "/guest", query: "t=\(token)"))
        == .serve(.guest(.gallery(page: 1), token: token.text), head: false))
    #expect(
      RemoteRouter(token: token).route(request("GET", "/guest/session/2", query: "t=\(token)"))
        == .serve(.guest(.session(2), token: token.text), head: false))
    #expect(
      router.route(request("POST", "/guest", query: "t=\(token)"))
        == .refuse(.methodNotAllowed(allow: "GET, HEAD")))
  }
}
