import PhotoTimer
import PhotoTimerImaging

/// What happened in a booth session, for the outputs: the JSON events `session`, `kept`,
/// `retaken` and `collage`, and the plain lines.
package enum BoothEvent: Sendable, Equatable {
  /// Session `session` began, of `shots` shots.
  case started(session: Int, shots: Int)
  /// Shot `shot` was kept (its file).
  case kept(session: Int, shot: Int, file: String?)
  /// Shot `shot` will be taken again (the file that will not be in the collage).
  case retaken(session: Int, shot: Int, file: String?)
  /// The collage was saved, made of the kept `shots`; `guest` is the guests' link to the
  /// session, once the remote published it.
  case collage(session: Int, file: String, shots: [String], guest: String?)
  /// The collage could not be made, and why.
  case collageFailed(session: Int, reason: String)
  /// Session `session` ended with `kept` shots; `complete` when it made its collage.
  case ended(session: Int, kept: Int, complete: Bool)
  /// The camera's automatic controls are held for session `session` at these values.
  case held(session: Int, controls: [HeldControl])
  /// The held controls were given back to the camera as they were.
  case released(session: Int)
  /// The camera's controls cannot be held (said once, in the evening's first session): why,
  /// in words.
  case controlsUnavailable(session: Int, reason: String)
  /// Holding or giving back the controls failed: why.
  case controlsFailed(session: Int, reason: String)

  /// The event as a JSON line at `time`.
  package func jsonLine(time: Duration) -> String {
    var object = JSONObject()
    func common(_ name: String, _ session: Int) {
      object.add("event", name)
      object.add("t", time.secondsValue)
      object.add("session", session)
    }
    switch self {
    case .started(let session, let shots):
      common("session", session)
      object.add("state", "started")
      object.add("shots", shots)
    case .kept(let session, let shot, let file), .retaken(let session, let shot, let file):
      common(self.isKept ? "kept" : "retaken", session)
      object.add("shot", shot)
      if let file { object.add("file", file) }
    case .collage(let session, let file, _, let guest):
      common("collage", session)
      object.add("file", file)
      if let guest { object.add("guest", guest) }
    case .collageFailed(let session, let reason):
      common("collage", session)
      object.add("error", reason)
    case .ended(let session, let kept, let complete):
      common("session", session)
      object.add("state", complete ? "complete" : "ended")
      object.add("kept", kept)
    case .held(let session, let controls):
      common("controls", session)
      object.add("state", "held")
      for control in controls { object.add(control.name, control.value) }
    case .released(let session):
      common("controls", session)
      object.add("state", "released")
    case .controlsUnavailable(let session, let reason):
      common("controls", session)
      object.add("state", "none")
      object.add("reason", reason)
    case .controlsFailed(let session, let reason):
      common("controls", session)
      object.add("state", "failed")
      object.add("error", reason)
    }
    return object.text
  }

  /// The event as a plain line.
  package var line: String {
    switch self {
    case .started(let session, let shots): "booth session \(session): \(shots) shots"
    case .kept(_, let shot, let file): "shot \(shot) kept" + (file.map { ": \($0)" } ?? "")
    case .retaken(_, let shot, _): "shot \(shot) taken again"
    case .collage(_, let file, _, let guest):
      "collage: \(file)" + (guest.map { "\n  guests: \($0)" } ?? "")
    case .collageFailed(_, let reason): "no collage: \(reason)"
    case .ended(let session, let kept, let complete):
      complete
        ? "booth session \(session) complete"
        : "booth session \(session) ended with \(kept) shot\(kept == 1 ? "" : "s") kept"
    case .held(_, let controls):
      "camera held for the session: "
        + controls.map(\.description).joined(separator: ", ")
    case .released: "camera's automatic controls given back"
    case .controlsUnavailable(_, let reason): "note: \(reason)"
    case .controlsFailed(_, let reason): "note: \(reason)"
    }
  }

  /// What every screen shows of the event beside its line, if anything: a camera whose
  /// controls cannot be held, or were not.
  package var notice: String? {
    switch self {
    case .controlsUnavailable(_, let reason), .controlsFailed(_, let reason): reason
    default: nil
    }
  }

  private var isKept: Bool {
    if case .kept = self { return true }
    return false
  }
}
