import PhotoTimer
import Testing

/// The one front-end machine the terminal and the window run: every intent in every state
/// answered with its effects or its reason, and the switch for a count that starts itself.
@Suite("FrontEndSession: what a person can do next")
struct FrontEndSessionTests {
  typealias Action = PhotoTimerPresentation.Action
  typealias Effect = FrontEndSession.Effect
  typealias Reply = FrontEndSession.Reply

  static let command = FrontEndSession.Configuration(frames: false, holdsCamera: true)
  static let framing = FrontEndSession.Configuration(
    frames: true, holdsCamera: true, autoStart: false)
  static let window = FrontEndSession.Configuration(
    frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: false)

  static let idle = PhotoTimerViewModel.Snapshot()
  static func running(_ status: PhotoTimerStatus) -> PhotoTimerViewModel.Snapshot {
    .init(state: PhotoTimerState(status: status), isSessionRunning: true, hasRun: true)
  }
  static let counting = running(.counting(remaining: 3))
  static let waiting = running(.waiting(for: [.camera]))
  static let capturing = running(.capturing)

  /// A machine whose camera has opened, framing.
  static func open(_ configuration: FrontEndSession.Configuration) -> FrontEndSession {
    var session = FrontEndSession(configuration)
    _ = session.cameraOpened(model: idle)
    return session
  }

  /// Every intent in every state of a framing front end: the reply, in full.
  @Test(
    "every state × every intent: accepted with its effects, or refused with the gate's reason",
    arguments: [
      // (state, model, action, reply)
      ("opening", idle, Action.start, Reply.refused("the camera is still starting")),
      ("opening", idle, .takeNow, .refused("no count is running")),
      ("opening", idle, .cancel, .refused("no count is running")),
      ("opening", idle, .restart, .refused("no count is running")),
      ("opening", idle, .quit, .accepted([.end])),
      ("opening", idle, .autoStart, .accepted([])),
      ("framing", idle, .start, .accepted([.startCount(seconds: nil)])),
      ("framing", idle, .takeNow, .refused("no count is running")),
      ("framing", idle, .cancel, .refused("no count is running")),
      ("framing", idle, .restart, .refused("no count is running")),
      ("framing", idle, .quit, .accepted([.end])),
      ("framing", idle, .autoStart, .accepted([.watchForPeople(afterCount: false)])),
      ("framing", counting, .start, .refused("a count is already running")),
      ("framing", counting, .takeNow, .accepted([.takeNow])),
      ("framing", counting, .cancel, .accepted([.cancelRun])),
      ("framing", counting, .restart, .accepted([.restartRun])),
      ("framing", counting, .quit, .refused("a run is going: cancel it first")),
      // NB: turned on during a count it waits for the count's end to watch.
      ("framing", counting, .autoStart, .accepted([])),
      ("framing", waiting, .start, .refused("a photo is being taken")),
      ("framing", waiting, .takeNow, .refused("the count is over: the photo is being taken")),
      ("framing", waiting, .cancel, .accepted([.cancelRun])),
      ("framing", capturing, .takeNow, .refused("the count is over: the photo is being taken")),
      ("framing", capturing, .restart, .accepted([.restartRun])),
      (
        "framing", running(.captured(.stub)), .start,
        .refused("a time-lapse is waiting for its next shot: cancel it first")
      ),
      ("framing", running(.captured(.stub)), .cancel, .accepted([.cancelRun])),
      ("over", idle, .start, .refused("the program is closing")),
      ("over", idle, .quit, .refused("the program is closing")),
    ])
  func table(state: String, model: PhotoTimerViewModel.Snapshot, action: Action, reply: Reply) {
    var session = FrontEndSession(Self.framing)
    switch state {
    case "framing": _ = session.cameraOpened(model: Self.idle)
    case "over": session.close()
    default: break
    }
    #expect(session.ask(action, model: model) == reply)
  }

  @Test("a refusal is the presentation's own: what every screen greys out, in the same words")
  func refusalsAreTheGate() {
    for configuration in [Self.command, Self.framing, Self.window] {
      for model in [Self.idle, Self.counting, Self.waiting, Self.capturing] {
        for action in Action.allCases {
          var session = Self.open(configuration)
          let shown = session.presentation(of: model)
          switch session.ask(action, model: model) {
          case .accepted: #expect(shown.actions.contains(action), "\(action) in \(model)")
          case .refused(let reason): #expect(shown.refusal(of: action) == reason)
          }
        }
      }
    }
  }

  @Test("the command without framing: take it now while the camera opens is kept for the count")
  func takeNowWhileOpening() {
    var session = FrontEndSession(Self.command)
    #expect(session.presentation(of: Self.idle).actions == [.takeNow, .quit])
    #expect(session.ask(.takeNow, model: Self.idle) == .accepted([]))
    #expect(session.phase == .opening(takeNowAtStart: true))
    #expect(session.cameraOpened(model: Self.idle) == [.startCount(seconds: nil), .takeNow])
    // The session ended: so does the command, and its screen says it is over.
    #expect(session.runEnded(.captured, model: Self.idle) == [.end])
    #expect(session.isOver && !session.endAsked)
  }

  @Test("a signal mid-count cancels the run first; the command ends once the cancel lands")
  func signalMidCount() {
    var session = Self.open(Self.framing)
    #expect(session.signal(model: Self.counting) == [.cancelRun])
    #expect(session.phase == .stopping && session.endAsked)
    #expect(session.presentation(of: Self.counting).actions.isEmpty, "the screen is over")
    #expect(session.runEnded(.cancelled, model: Self.idle) == [.end])
    #expect(session.phase == .over(asked: true))
  }

  @Test(
    "a camera that fails ends the command, and is shown by the window, which can start no count")
  func cameraFails() {
    var command = FrontEndSession(Self.framing)
    #expect(command.cameraFailed("no such device") == [.end])
    #expect(command.isOver)
    var window = FrontEndSession(Self.window)
    #expect(window.cameraFailed("camera: no such device") == [])
    #expect(!window.isOver)
    #expect(
      window.ask(.start, model: Self.idle)
        == .refused("the camera is not ready: camera: no such device"))
    // A new camera: building, then opening, then open, and the problem is gone.
    _ = window.cameraBuilding()
    #expect(window.problem == nil && window.cameraStarting)
    _ = window.cameraBuilt()
    #expect(window.ask(.start, model: Self.idle) == .refused("the camera is still starting"))
    _ = window.cameraOpened(model: Self.idle)
    #expect(window.ask(.start, model: Self.idle) == .accepted([.startCount(seconds: nil)]))
  }

  @Test("a phone's start brings its count length; a run that fails while framing goes on")
  func phoneStart() {
    var session = Self.open(Self.window)
    #expect(
      session.ask(.start, choice: .init(seconds: 10), model: Self.idle)
        == .accepted([.startCount(seconds: 10)]))
    #expect(session.runEnded(.failed(cameraGone: true), model: Self.idle) == [])
    #expect(!session.isOver)
  }

  @Test("no switch where the people cannot be watched: turning it is refused, in words")
  func noSwitch() {
    var session = Self.open(Self.command)
    #expect(session.autoStart == nil)
    guard case .refused(let reason) = session.ask(.autoStart, model: Self.idle) else {
      Issue.record("the switch was accepted without one")
      return
    }
    #expect(reason.contains("no count starts by itself here"))
    #expect(session.heard(.ready, model: Self.idle) == [])
  }

  @Test("on: it watches once the camera opens, says what it waits for, and starts the count")
  func switchOn() {
    var session = FrontEndSession(
      .init(frames: true, holdsCamera: true, autoStart: true))
    #expect(session.cameraOpened(model: Self.idle) == [.watchForPeople(afterCount: false)])
    #expect(session.heard(.waiting("hold still"), model: Self.idle) == [])
    #expect(session.waiting == "hold still")
    #expect(session.presentation(of: Self.idle).status.text.hasPrefix("Hold still"))
    #expect(
      session.heard(.ready, model: Self.idle) == [.stopWatching, .startCount(seconds: nil)])
    #expect(session.waiting == nil)
    // A wait overtaken by the count says nothing.
    #expect(session.heard(.waiting("hold still"), model: Self.counting) == [])
    // After the count the next group is waited for: the picture must empty first.
    #expect(session.runEnded(.captured, model: Self.idle) == [.watchForPeople(afterCount: true)])
    _ = session.heard(.unavailable("the face model is not installed"), model: Self.idle)
    #expect(session.waiting == "no count by itself: the face model is not installed")
  }

  @Test("turned on it watches at once; off it stops and says nothing more; twice is once")
  func switchTurned() {
    var session = Self.open(Self.framing)
    #expect(session.heard(.ready, model: Self.idle) == [], "a wait that was ended says nothing")
    #expect(
      session.ask(.autoStart, choice: .init(on: true), model: Self.idle)
        == .accepted([.watchForPeople(afterCount: false)]))
    #expect(session.ask(.autoStart, choice: .init(on: true), model: Self.idle) == .accepted([]))
    _ = session.heard(.waiting("waiting for everyone: 2 of 3"), model: Self.idle)
    #expect(session.ask(.autoStart, model: Self.idle) == .accepted([.stopWatching]))
    #expect(session.waiting == nil && session.autoStart == false)
    #expect(session.runEnded(.captured, model: Self.idle) == [])
  }

  @Test(
    "the group is ready but the gate says no: the count does not start, and the screen says why")
  func readyRefused() {
    var session = FrontEndSession(
      .init(frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: true))
    _ = session.cameraOpened(model: Self.idle)
    _ = session.cameraFailed("no preview: the stream stopped")
    #expect(session.heard(.ready, model: Self.idle) == [])
    #expect(
      session.waiting
        == "no count by itself: the camera is not ready: no preview: the stream stopped")
  }
}

extension CapturedPhoto {
  static let stub = CapturedPhoto(
    settings: CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 100), location: nil,
    filter: .natural, shutterOffset: .seconds(3))
}
