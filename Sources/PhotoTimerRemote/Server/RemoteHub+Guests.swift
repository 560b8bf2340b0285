import Foundation
import PhotoTimer

/// A booth's sessions published for their guests: what the guest link may read.
extension RemoteHub {
  /// Publishes a booth session for its guests: the collage and the kept shots become
  /// readable with the guest link (a shot the program already handed over keeps its number).
  /// A session published again under the same number replaces the first.
  ///
  /// - Parameters:
  ///   - number: The session's number, as the booth counts them.
  ///   - collage: The collage's file.
  ///   - shots: The kept shots' files, in order.
  ///   - event: The event's name, which heads the guests' pages (`Photos` without one).
  ///   - link: The guests' link to it (``RemoteServer/guestLink(session:)``): the control
  ///     page shows it as a QR code beside the collage.
  ///   - date: When the session ended.
  public func publishSession(
    number: Int, collage: String, shots: [String], event: String? = nil, link: String? = nil,
    date: Date = Date()
  ) {
    locked { state in
      if let event, !event.isEmpty { state.guestTitle = event }
      func id(of path: String) -> Int {
        if let known = state.photos.first(where: { $0.path == path }) { return known.id }
        let id = (state.photos.last?.id ?? 0) + 1
        var object = JSONObject()
        object.add("id", id)
        object.add("name", (path as NSString).lastPathComponent)
        object.add("url", "/api/photos/\(id)")
        object.addRaw("summary", "[]")
        state.photos.append(Photo(id: id, path: path, json: object.text))
        return id
      }
      let session = GuestSession(
        number: number, collage: id(of: collage), shots: shots.map(id(of:)), date: date,
        link: link)
      state.sessions.removeAll { $0.number == number }
      state.sessions.append(session)
      var object = JSONObject()
      object.add("session", number)
      object.add("collage", "/api/photos/\(session.collage)")
      object.add("name", (collage as NSString).lastPathComponent)
      if let link {
        object.add("guest", link)
        object.add("code", "/api/sessions/\(number)/code.svg")
      }
      append(&state, name: "session", data: object.text)
    }
  }

  /// The sessions published for guests, oldest first, and what their pages are headed with.
  package var guestSessions: (sessions: [GuestSession], title: String) {
    locked { ($0.sessions, $0.guestTitle) }
  }

  /// The photo numbered `id` when it belongs to a session published for guests.
  package func guestPhoto(_ id: Int) -> Photo? {
    locked { state in
      guard state.sessions.contains(where: { $0.collage == id || $0.shots.contains(id) }) else {
        return nil
      }
      return state.photos.first { $0.id == id }
    }
  }
}
