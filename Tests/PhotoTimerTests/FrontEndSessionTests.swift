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

  @Test("while a camera is built there is no model: nothing that acts on one is accepted")
  func nothingForAModelWhileBuilding() {
    var session = FrontEndSession(Self.window)
    _ = session.cameraOpened(model: Self.idle)
    _ = session.cameraBuilding()
    for action in Action.allCases {
      for effect in session.ask(action, model: Self.idle).effects {
        switch effect {
        case .startCount, .takeNow, .cancelRun, .restartRun:
          Issue.record("\(action) while building: \(effect)")
        default: break
        }
      }
    }
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

  @Test("a refused intent is said on the screen until the model changes or another is answered")
  func refusalSaid() {
    var session = Self.open(Self.framing)
    #expect(session.ask(.start, model: Self.counting) == .refused("a count is already running"))
    #expect(session.presentation(of: Self.counting).note == "not now: a count is already running")
    #expect(session.presentation(of: Self.running(.counting(remaining: 2))).note == nil)
    #expect(session.ask(.cancel, model: Self.counting) == .accepted([.cancelRun]))
    #expect(session.presentation(of: Self.counting).note == nil)
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
    "a booth's camera that fails is opened again and again until it opens, its problem shown meanwhile"
  )
  func cameraReopens() {
    var configuration = Self.window
    configuration.reopensCamera = .seconds(3)
    var booth = Self.open(configuration)
    let problem = "no preview: the camera /dev/video0 was disconnected: plug it back in"
    #expect(booth.cameraFailed(problem) == [.reopenCamera(after: .seconds(3))])
    #expect(booth.problem == problem + " · trying again every 3 s")
    // Built again: still unplugged, the words stay (no flicker) and it tries again.
    _ = booth.cameraBuilding()
    #expect(booth.problem == problem + " · trying again every 3 s")
    _ = booth.cameraBuilt()
    #expect(booth.cameraFailed("camera: no such device /dev/video0").count == 1)
    _ = booth.cameraBuilding()
    _ = booth.cameraBuilt()
    // NB: a refused Start says what is wrong, not that the camera is starting.
    #expect(
      booth.ask(.start, model: Self.idle)
        == .refused(
          "the camera is not ready: camera: no such device /dev/video0 · trying again every 3 s"))
    // Plugged back in: it opens, the problem is gone, a session may start.
    _ = booth.cameraOpened(model: Self.idle)
    #expect(booth.problem == nil)
    #expect(booth.ask(.start, model: Self.idle).effects.contains(.startCount(seconds: nil)))
    // Without it (the window's own camera menu), a failure waits for the user.
    var window = Self.open(Self.window)
    #expect(window.cameraFailed(problem) == [])
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

  @Test("the switch keeps its position from camera to camera, through one that has none")
  func switchAcrossCameras() {
    var window = FrontEndSession(Self.window)
    _ = window.cameraBuilding()
    _ = window.cameraBuilt(switchAvailable: true, on: false)
    #expect(window.autoStart == false)
    _ = window.cameraOpened(model: Self.idle)
    _ = window.ask(.autoStart, choice: .init(on: true), model: Self.idle)
    #expect(window.autoStart == true)
    // A camera the people step cannot watch: no switch, its position kept.
    _ = window.cameraBuilding()
    _ = window.cameraBuilt(switchAvailable: false, on: false)
    #expect(window.autoStart == nil && window.cameraStarting)
    _ = window.cameraOpened(model: Self.idle)
    #expect(window.ask(.autoStart, choice: .init(on: false), model: Self.idle).effects.isEmpty)
    // Back to one that can: on, as it was left.
    _ = window.cameraBuilding()
    _ = window.cameraBuilt(switchAvailable: true, on: false)
    #expect(window.autoStart == true)
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

/// One script of intents through the machine, for the command and for the window, against a
/// real view model: the same replies for both, every accepted effect happens to the model,
/// every refused intent leaves it as it was.
@MainActor
@Suite("FrontEndSession over a view model", .timeLimit(.minutes(2)))
struct FrontEndSessionModelTests {
  typealias Action = PhotoTimerPresentation.Action

  /// What the runners do with an effect, as `CommandSession.apply` and
  /// `WindowController.apply` do it to the model.
  static func apply(_ effects: [FrontEndSession.Effect], to model: PhotoTimerViewModel) {
    for effect in effects {
      switch effect {
      case .startCount(let seconds):
        if let seconds { model.countdownSeconds = seconds }
        model.startTimer()
      case .takeNow: model.takeNow()
      case .cancelRun: model.cancel()
      case .restartRun: model.restart()
      default: break
      }
    }
  }

  /// Runs `script` and returns each reply, checking what each did to the model.
  static func replay(
    _ configuration: FrontEndSession.Configuration, _ script: [Action]
  ) async -> [FrontEndSession.Reply] {
    let harness = ModelHarness()
    let model = harness.model
    var session = FrontEndSession(configuration)
    _ = session.cameraOpened(model: model.snapshot)
    var replies: [FrontEndSession.Reply] = []
    for action in script {
      let before = model.snapshot
      let reply = session.ask(action, model: before)
      replies.append(reply)
      apply(reply.effects, to: model)
      switch (reply, action) {
      case (.refused, _):
        #expect(model.snapshot == before, "\(action) was refused, yet the model changed")
      case (.accepted, .start):
        #expect(model.isSessionRunning && model.status == .counting(remaining: 5))
        await harness.clock.waitForSleepers(4)
      case (.accepted, .restart):
        #expect(model.note?.hasPrefix("restarted") == true, "a restart that did not happen")
        await harness.clock.waitForSleepers(4)
      case (.accepted, .cancel):
        #expect(!model.isSessionRunning && model.status == .idle)
      case (.accepted, .takeNow):
        // The count ends at once; the shutter waits for the simulated camera (1.4 s).
        harness.clock.advance(by: .milliseconds(1400))
        await model.waitForRun()
        guard case .captured(let photo) = model.status else {
          Issue.record("take it now was accepted, and no photo came: \(model.status)")
          continue
        }
        #expect(photo.shutterOffset < .seconds(5), "the count was not ended")
      default:
        break
      }
    }
    return replies
  }

  @Test("one script, two runners: the same replies, and every accepted intent happens")
  func oneScriptTwoRunners() async {
    let script: [Action] = [
      .takeNow, .cancel, .start, .start, .restart, .cancel, .restart, .start, .takeNow, .start,
      .cancel,
    ]
    let command = await Self.replay(
      .init(frames: true, holdsCamera: true, autoStart: false), script)
    let window = await Self.replay(
      .init(frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: false),
      script)
    #expect(command == window)
    #expect(
      command.map { if case .refused = $0 { "refused" } else { "accepted" } } == [
        "refused", "refused", "accepted", "refused", "accepted", "accepted", "refused",
        "accepted", "accepted", "accepted", "accepted",
      ])
  }

  @Test("a time-lapse that has taken its first photo is not offered a restart, and says why")
  func timeLapseRestart() {
    let model = PhotoTimerViewModel.Snapshot(
      state: PhotoTimerState(status: .counting(remaining: 4)), isSessionRunning: true,
      hasRun: true, photoTaken: true)
    var session = FrontEndSessionTests.open(FrontEndSessionTests.framing)
    #expect(!session.presentation(of: model).actions.contains(.restart))
    #expect(
      session.ask(.restart, model: model)
        == .refused("a time-lapse is under way: cancel it to start again"))
    #expect(session.ask(.cancel, model: model) == .accepted([.cancelRun]))
  }
}
