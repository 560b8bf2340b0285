import Foundation

/// The guests' pages, drawn on the server (no script): one session's collage and shots to
/// download, and the event's gallery, newest first, a page at a time.
///
/// Every link on them carries the token the guest came with, so a guest never needs a
/// cookie and never holds the control token. They name no file, folder or camera of this
/// computer: photos are served by number, and downloads are called by their file's name
/// only.
package enum GuestPage {
  /// The sessions on one page of the gallery.
  package static let sessionsPerPage = 12

  /// One session's page: the collage big, a download button, the shots under it.
  ///
  /// - Parameters:
  ///   - session: The session.
  ///   - title: What the page is headed with (the event's name, or `Photos`).
  ///   - token: The token the page's links carry.
  package static func session(
    _ session: RemoteHub.GuestSession, title: String, token: String
  ) -> String {
    var body = "<h1>\(escaped(title))</h1>\n<p class=\"sub\">Session \(session.number)</p>\n"
    body += "<figure class=\"collage\"><img src=\"\(photo(session.collage, token))\" "
    body += "alt=\"The collage of session \(session.number)\"></figure>\n"
    body += "<p><a class=\"button\" href=\"\(photo(session.collage, token, download: true))\" "
    body += "download>Download the collage</a></p>\n"
    if !session.shots.isEmpty {
      body += "<h2>The shots</h2>\n<ul class=\"shots\">\n"
      for (index, shot) in session.shots.enumerated() {
        body += "<li><a href=\"\(photo(shot, token, download: true))\" download>"
        body += "<img src=\"\(photo(shot, token))\" alt=\"Shot \(index + 1)\" loading=\"lazy\">"
        body += "<span>Download shot \(index + 1)</span></a></li>\n"
      }
      body += "</ul>\n"
    }
    body += "<p><a href=\"/guest?t=\(token)\">Every session of the event</a></p>\n"
    return document(title: "\(title) · session \(session.number)", body: body, token: token)
  }

  /// One page of the event's gallery: its sessions, newest first, each collage linked to its
  /// session's page, with links to the newer and older pages.
  ///
  /// - Parameters:
  ///   - sessions: Every published session, oldest first.
  ///   - page: The page, from 1.
  ///   - title: What the page is headed with.
  ///   - token: The token the page's links carry.
  /// - Returns: The page, or `nil` when there is no such page (past the last one).
  package static func gallery(
    _ sessions: [RemoteHub.GuestSession], page: Int, title: String, token: String
  ) -> String? {
    let newest = Array(sessions.reversed())
    let pages = max(1, (newest.count + sessionsPerPage - 1) / sessionsPerPage)
    guard page >= 1, page <= pages else { return nil }
    let shown = newest.dropFirst((page - 1) * sessionsPerPage).prefix(sessionsPerPage)
    var body = "<h1>\(escaped(title))</h1>\n"
    if newest.isEmpty {
      body += "<p class=\"sub\">No photos yet: they appear here after each session.</p>\n"
    } else {
      let count = newest.count
      body += "<p class=\"sub\">\(count) session\(count == 1 ? "" : "s"), newest first</p>\n"
      body += "<ul class=\"gallery\">\n"
      for session in shown {
        body += "<li><a href=\"/guest/session/\(session.number)?t=\(token)\">"
        body += "<img src=\"\(photo(session.collage, token))\" "
        body += "alt=\"Session \(session.number)\" loading=\"lazy\">"
        body += "<span>Session \(session.number)</span></a></li>\n"
      }
      body += "</ul>\n"
    }
    var pager: [String] = []
    if page > 1 { pager.append("<a href=\"/guest?t=\(token)&amp;page=\(page - 1)\">Newer</a>") }
    if pages > 1 { pager.append("<span>Page \(page) of \(pages)</span>") }
    if page < pages { pager.append("<a href=\"/guest?t=\(token)&amp;page=\(page + 1)\">Older</a>") }
    if !pager.isEmpty { body += "<nav>" + pager.joined(separator: " ") + "</nav>\n" }
    return document(title: title, body: body, token: token)
  }

  /// The page for a session that is not (or no longer) there.
  package static func missing(token: String) -> String {
    document(
      title: "Not found",
      body: "<h1>Not found</h1>\n<p class=\"sub\">This session is not on this booth.</p>\n"
        + "<p><a href=\"/guest?t=\(token)\">Every session of the event</a></p>\n",
      token: token)
  }

  /// The pages' style sheet.
  package static let style = """
    :root { color-scheme: dark; }
    body { margin: 0 auto; max-width: 960px; padding: 16px; background: #111; color: #eee;
      font: 16px/1.4 system-ui, sans-serif; }
    h1 { font-size: 1.6em; margin: 0.2em 0; }
    h2 { font-size: 1.2em; margin-top: 1.5em; }
    .sub { color: #aaa; margin-top: 0; }
    img { max-width: 100%; display: block; border-radius: 4px; }
    .collage img { max-height: 75vh; margin: 0 auto; }
    figure { margin: 0; }
    a { color: #8cf; }
    .button { display: inline-block; padding: 0.7em 1.2em; background: #2a6; color: #fff;
      border-radius: 6px; text-decoration: none; font-weight: 600; }
    ul { list-style: none; padding: 0; display: grid; gap: 12px;
      grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); }
    li a { text-decoration: none; }
    li img { width: 100%; height: 180px; object-fit: cover; }
    li span { display: block; padding: 4px 0; }
    nav { display: flex; gap: 1em; justify-content: center; margin: 1.5em 0; }
    """

  private static func photo(_ id: Int, _ token: String, download: Bool = false) -> String {
    "/guest/photos/\(id)?t=\(token)" + (download ? "&amp;download=1" : "")
  }

  private static func document(title: String, body: String, token: String) -> String {
    """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escaped(title))</title>
    <link rel="stylesheet" href="/guest.css?t=\(token)">
    </head><body>
    \(body)</body></html>

    """
  }

  /// `text` safe inside HTML text and attribute values.
  package static func escaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }
}
