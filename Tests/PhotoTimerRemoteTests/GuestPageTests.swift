import Foundation
import PhotoTimerConcurrency
import Testing

@testable import PhotoTimerRemote

/// The guests' pages as they are drawn, and served: a session's collage and shots with the
/// same bytes as the files, the event's gallery newest first, nothing else reachable.
@Suite struct GuestPageTests {
  static func session(_ number: Int) -> RemoteHub.GuestSession {
    RemoteHub.GuestSession(
      number: number, collage: number * 10, shots: [number * 10 + 1, number * 10 + 2],
      date: Date(timeIntervalSince1970: 0))
  }

  @Test("A session's page: the collage, its download, each shot's, every link with the token")
  func sessionPage() {
    let html = GuestPage.session(Self.session(3), title: "Anna & Ben <3", token: "abc123")
    #expect(html.contains("<h1>Anna &amp; Ben &lt;3</h1>"))
    #expect(html.contains("<img src=\"/guest/photos/30?t=abc123\""))
    #expect(html.contains("href=\"/guest/photos/30?t=abc123&amp;download=1\" download>"))
    #expect(html.contains("/guest/photos/31?t=abc123&amp;download=1"))
    #expect(html.contains("/guest/photos/32?t=abc123&amp;download=1"))
    #expect(html.contains("href=\"/guest?t=abc123\""))
    #expect(html.contains("<link rel=\"stylesheet\" href=\"/guest.css?t=abc123\">"))
    #expect(!html.contains("<script"))
  }

  @Test("The gallery: newest first, twelve a page, newer and older links; past the end is nil")
  func galleryPages() throws {
    let sessions = (1...25).map(Self.session)
    let first = try #require(GuestPage.gallery(sessions, page: 1, title: "Party", token: "t0"))
    let numbers = first.matches(of: /<span>Session (\d+)<\/span>/).map { Int($0.1)! }
    #expect(numbers == Array((14...25).reversed()))
    #expect(first.contains("25 sessions, newest first"))
    #expect(first.contains("Page 1 of 3"))
    #expect(first.contains("href=\"/guest?t=t0&amp;page=2\">Older"))
    #expect(!first.contains("Newer"))
    let last = try #require(GuestPage.gallery(sessions, page: 3, title: "Party", token: "t0"))
    #expect(last.matches(of: /<span>Session (\d+)<\/span>/).map { Int($0.1)! } == [1])
    #expect(last.contains("page=2\">Newer") && !last.contains("Older"))
    #expect(GuestPage.gallery(sessions, page: 4, title: "Party", token: "t0") == nil)
    let empty = try #require(GuestPage.gallery([], page: 1, title: "Party", token: "t0"))
    #expect(empty.contains("No photos yet"))
  }

  @Test("Served: the guest link's page and photos are the files' bytes; nothing else is theirs")
  func served() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "guest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
      let url = folder.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
    let collage = try file("IMG_1_collage.jpg", Array(repeating: 7, count: 5000))
    let shot = try file("IMG_1.jpg", Array(repeating: 9, count: 3000))
    let other = try file("IMG_2.jpg", Array(repeating: 5, count: 100))
    let hub = RemoteHub(camera: "scene", mirrored: false)
    let server = try RemoteServer(
      hub: hub, address: RemoteAddress(host: "127.0.0.1", port: 0), guestToken: RemoteToken())
    try await Self.stopping(server) {
      try await check(server, hub: hub, folder: folder, collage: collage, shot: shot, other: other)
    }
  }

  /// Runs `body`, then stops `server` (off the pool) whatever happened.
  static func stopping(_ server: RemoteServer, _ body: () async throws -> Void) async throws {
    var failure: (any Error)?
    do { try await body() } catch { failure = error }
    _ = try? await OffPool.blocking { _ in server.stop() }
    if let failure { throw failure }
  }

  private func check(
    _ server: RemoteServer, hub: RemoteHub, folder: URL, collage: String, shot: String,
    other: String
  ) async throws {
    let client = HTTPClient(port: server.port)
    // A photo taken outside any session is the control side's only.
    let otherID = hub.addPhoto(path: other, summary: [])
    hub.addPhoto(path: shot, summary: [])
    let link = try #require(server.guestLink(session: 4))
    hub.publishSession(number: 4, collage: collage, shots: [shot], event: "Party", link: link)
    let guest = try #require(server.guestToken).text
    #expect(link == "http://127.0.0.1:\(server.port)/guest/session/4?t=\(guest)")
    let target = String(link.dropFirst("http://127.0.0.1:\(server.port)".count))

    let page = try await client.send("GET", target)
    #expect(page.status == 200)
    #expect(page.headers["content-type"] == "text/html; charset=utf-8")
    #expect(page.text.contains("<h1>Party</h1>") && page.text.contains("Session 4"))
    #expect(!page.text.contains(folder.path), "a guest's page names no folder")
    let sources = page.text.matches(of: /src="([^"]+)"/).map { String($0.1) }
    #expect(sources.count == 2)
    let collageBytes = try await client.send("GET", sources[0])
    #expect(collageBytes.status == 200 && collageBytes.body == Array(repeating: 7, count: 5000))
    let shotBytes = try await client.send(
      "GET", sources[1].replacingOccurrences(of: "&amp;", with: "&"))
    #expect(shotBytes.body == Array(repeating: 9, count: 3000))
    let download = try await client.send(
      "GET", sources[0] + "&download=1")
    #expect(download.headers["content-disposition"] == "attachment; filename=\"IMG_1_collage.jpg\"")

    #expect(try await client.send("GET", "/guest/photos/\(otherID)?t=\(guest)").status == 404)
    #expect(try await client.send("GET", "/guest/session/5?t=\(guest)").status == 404)
    #expect(try await client.send("GET", "/api/photos/\(otherID)?t=\(guest)").status == 403)
    #expect(try await client.send("POST", "/api/start?t=\(guest)").status == 403)
    #expect(
      try await client.send("POST", "/api/cancel", headers: ["Authorization: Bearer \(guest)"])
        .status == 403)
    #expect(try await client.send("POST", target).status == 403)
    let gallery = try await client.send("GET", "/guest?t=\(guest)")
    #expect(gallery.status == 200 && gallery.text.contains("/guest/session/4?t=\(guest)"))
    let code = try await client.send("GET", "/api/sessions/4/code.svg?t=\(server.token)")
    #expect(code.status == 200 && code.headers["content-type"] == "image/svg+xml")
    #expect(code.text.hasPrefix("<svg") && code.text.hasSuffix("</svg>"))
    let none = try await client.send("GET", "/api/sessions/5/code.svg?t=\(server.token)")
    #expect(none.status == 404)
    let style = try await client.send("GET", "/guest.css?t=\(guest)")
    #expect(style.status == 200 && style.headers["content-type"] == "text/css; charset=utf-8")
  }

  @Test("Guest links off: no link, and the guest pages are 403")
  func off() async throws {
    let hub = RemoteHub(camera: "scene", mirrored: false)
    let server = try RemoteServer(hub: hub, address: RemoteAddress(host: "127.0.0.1", port: 0))
    try await Self.stopping(server) {
      #expect(server.guestLink(session: 1) == nil && server.galleryLink == nil)
      let client = HTTPClient(port: server.port)
      let answer = try await client.send("GET", "/guest?t=\(RemoteToken())")
      #expect(answer.status == 403)
    }
  }
}
