import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup
import PhotoTimerTesting
import Testing

@testable import PhotoTimerCLI

/// One gate: for every moment of the presentation table, every action and every front end
/// (the terminal's keys, the phone's intents; the window's test holds its buttons and keys to
/// the same table), an action is done exactly when the presentation lists it, and refused in
/// the presentation's words otherwise.
@Suite("One gate: what can be done now is decided once")
struct IntentGateTests {
  /// What can be done at each moment, and why each other action cannot.
  static let expected: [String: [PhotoTimerPresentation.Action: String?]] = [
    "camera starting": [
      .start: "the camera is still starting", .takeNow: "no count is running",
      .cancel: "no count is running", .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "camera starting, the count starts itself": [
      .start: "the camera is still starting", .takeNow: nil, .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "camera did not open": [
      .start: "the camera is not ready: camera failed: no image file at /nowhere.jpg",
      .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "ready to frame": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "counting, steps running": [
      .start: "a count is already running", .takeNow: nil, .cancel: nil, .restart: nil,
      .quit: "a run is going: cancel it first",
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "counting, each step ended its own way": [
      .start: "a count is already running", .takeNow: nil, .cancel: nil, .restart: nil,
      .quit: "a run is going: cancel it first",
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "waiting for the camera": [
      .start: "a photo is being taken", .takeNow: "the count is over: the photo is being taken",
      .cancel: nil, .restart: nil, .quit: "a run is going: cancel it first",
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "waiting for the camera's hand-over": [
      .start: "a photo is being taken", .takeNow: "the count is over: the photo is being taken",
      .cancel: nil, .restart: nil, .quit: "a run is going: cancel it first",
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "taking the photo": [
      .start: "a photo is being taken", .takeNow: "the count is over: the photo is being taken",
      .cancel: nil, .restart: nil, .quit: "a run is going: cancel it first",
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "captured": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "failed": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "cancelled": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "cancelled, the command ending": Dictionary(
      uniqueKeysWithValues: PhotoTimerPresentation.Action.allCases.map {
        ($0, "the program is closing")
      }),
    "framing after two photos": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil, .autoStart: nil,
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "framing, the count waiting for the people": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil, .autoStart: nil,
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "framing after a cancel": [
      .start: nil, .takeNow: "no count is running", .cancel: "no count is running",
      .restart: "no count is running", .quit: nil,
      .autoStart:
        "no count starts by itself here: it needs a camera on screen and the people step",
      .keep: "no shot to keep now", .retake: "no shot to take again now",
    ],
    "time-lapse between shots": [
      .start: "a time-lapse is waiting for its next shot: cancel it first",
      .takeNow: "a time-lapse is waiting for its next shot: cancel it first", .cancel: nil,
      .restart: "a time-lapse is waiting for its next shot: cancel it first",
      .quit: "a time-lapse is waiting for its next shot: cancel it first",
      .autoStart:
        "a time-lapse is waiting for its next shot: cancel it first",
      .keep: "a time-lapse is waiting for its next shot: cancel it first",
      .retake: "a time-lapse is waiting for its next shot: cancel it first",
    ],
  ]

  @Test(
    "Each moment allows exactly its actions and says why not for the others",
    arguments: PresentationExample.all)
  func presentation(_ example: PresentationExample) throws {
    let expected = try #require(Self.expected[example.name], "no row for \(example.name)")
    let shown = example.presentation
    for action in PhotoTimerPresentation.Action.allCases {
      // NB: no example prints: Print and Resume are refused with the same words in each.
      let printing: String?? =
        [.print, .resume].contains(action) ? "no printer here: start with --print" : nil
      let reason = try #require(expected[action] ?? printing, "\(example.name): no \(action)")
      #expect(shown.refusal(of: action) == reason, "\(example.name): \(action)")
      #expect(shown.actions.contains(action) == (reason == nil), "\(example.name): \(action)")
    }
  }

  @Test(
    "Print and Resume pass the gate by the print desk, counting or not; refused with its words on every screen and the phone"
  )
  func printing() throws {
    var desk = PrintDesk(PrintDesk.Rules())
    for example in PresentationExample.all where !example.context.isOver {
      var context = example.context
      context.printing = desk.controls
      var shown = PhotoTimerPresentation(state: example.state, context: context)
      #expect(shown.refusal(of: .print) == "nothing to print yet", "\(example.name)")
      #expect(shown.refusal(of: .resume) == "the printer is not stopped", "\(example.name)")
      #expect(
        RemoteLink.answer(.print, shown: shown) { _, _ in } == .refused("nothing to print yet"))
      _ = desk.offer("/photos/collage.jpg")
      desk.printerChanged(.status(PrinterStatus(state: .stopped, reasons: ["media-empty-error"])))
      context.printing = desk.controls
      shown = PhotoTimerPresentation(state: example.state, context: context)
      #expect(Array(shown.actions.suffix(2)) == [.print, .resume], "\(example.name)")
      var asked: [PhotoTimerPresentation.Action] = []
      #expect(
        RemoteLink.answer(.print, shown: shown) { action, _ in asked.append(action) } == .accepted)
      #expect(asked == [.print])
      desk = PrintDesk(PrintDesk.Rules())
    }
    // The front-end machine: accepted as its effect, refused in the desk's words.
    var session = FrontEndSession(.init(frames: true, holdsCamera: false))
    let model = PhotoTimerViewModel.Snapshot()
    #expect(session.ask(.print, model: model) == .refused("no printer here: start with --print"))
    session.printing = desk.controls
    #expect(session.ask(.print, model: model) == .refused("nothing to print yet"))
    #expect(session.presentation(of: model).note == "not now: nothing to print yet")
    _ = desk.offer("/photos/IMG_1.jpg")
    session.printing = desk.controls
    #expect(session.ask(.print, model: model) == .accepted([.print]))
  }

  @Test(
    "A phone's intent is done when allowed, else refused (409) with the reason",
    arguments: PresentationExample.all)
  func phone(_ example: PresentationExample) throws {
    let shown = example.presentation
    for action in RemoteIntent.actions {
      let intent = try #require(RemoteIntent(action))
      var done: [PhotoTimerPresentation.Action] = []
      let reply = RemoteLink.answer(intent, shown: shown) { action, _ in done.append(action) }
      if let refusal = shown.refusal(of: action) {
        #expect(reply == .refused(refusal), "\(example.name): \(action)")
        #expect(done.isEmpty, "\(example.name): \(action)")
      } else {
        #expect(reply == .accepted, "\(example.name): \(action)")
        #expect(done == [action], "\(example.name): \(action)")
      }
    }
  }

  @Test("A start's chosen length and the switch's state reach the front end")
  func choices() {
    let shown = PhotoTimerPresentation(
      state: PhotoTimerState(), context: .init(autoStart: true))
    var chosen: [IntentChoice] = []
    _ = RemoteLink.answer(.start(seconds: 10), shown: shown) { _, choice in chosen.append(choice) }
    _ = RemoteLink.answer(.autoStart(on: false), shown: shown) { _, choice in
      chosen.append(choice)
    }
    #expect(chosen == [IntentChoice(seconds: 10), IntentChoice(on: false)])
    #expect(shown.label(of: .autoStart) == "start by hand")
    let off = PhotoTimerPresentation(state: PhotoTimerState(), context: .init(autoStart: false))
    #expect(off.label(of: .autoStart) == "start when ready")
  }

  /// What each terminal key does at each kind of moment (with and without framing).
  @Test("A terminal key does the first of its actions that is allowed, or nothing")
  func keys() throws {
    func done(
      _ key: Key, _ name: String, framing: Bool = true
    ) throws
      -> PhotoTimerPresentation.Action?
    {
      let example = try #require(PresentationExample.all.first { $0.name == name })
      return example.presentation.first(of: key.actions(framing: framing))
    }
    #expect(try done(.go, "ready to frame") == .start)
    #expect(try done(.go, "counting, steps running") == .takeNow)
    #expect(try done(.go, "waiting for the camera") == nil)
    #expect(try done(.go, "camera starting") == nil)
    #expect(try done(.go, "camera starting, the count starts itself", framing: false) == .takeNow)
    #expect(try done(.restart, "counting, steps running") == .restart)
    #expect(try done(.restart, "ready to frame") == nil)
    #expect(try done(.cancel, "counting, steps running") == .cancel)
    #expect(try done(.cancel, "ready to frame") == nil)
    #expect(try done(.cancel, "ready to frame", framing: false) == .quit)
    #expect(try done(.quit, "taking the photo") == .cancel)
    #expect(try done(.quit, "ready to frame") == .quit)
    #expect(try done(.quit, "cancelled, the command ending") == nil)
    #expect(try done(.autoStart, "framing after two photos") == .autoStart)
    #expect(try done(.autoStart, "ready to frame") == nil)
    // Every key's choice is always one the presentation allows.
    for example in PresentationExample.all {
      for key in [Key.go, .restart, .cancel, .quit, .autoStart] {
        for framing in [true, false] {
          if let action = example.presentation.first(of: key.actions(framing: framing)) {
            #expect(example.presentation.actions.contains(action))
          }
        }
      }
    }
  }
}
