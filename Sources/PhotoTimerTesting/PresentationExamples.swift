import Foundation
import PhotoTimer

/// One moment of the self-timer that every front end must show in the same words: a state
/// and its context, named for the test that uses it.
public struct PresentationExample: Sendable, CustomStringConvertible {
  /// What the moment is, for the test's name.
  public var name: String
  /// The run's state.
  public var state: PhotoTimerState
  /// What surrounds it.
  public var context: PhotoTimerPresentation.Context

  /// The presentation every front end draws.
  public var presentation: PhotoTimerPresentation {
    PhotoTimerPresentation(state: state, context: context)
  }

  /// The name.
  public var description: String { name }

  /// The table of moments front-end tests draw: counting, waiting for the camera (and for its
  /// hand-over), each step outcome, captured, failed, cancelled, framing, a time-lapse between
  /// shots, the camera starting.
  public static let all: [PresentationExample] = {
    let settings = CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400)
    let paris = LocationTag(name: "Paris 16 Passy, Paris, France")
    let look = FilterSuggestion(filter: .natural, confidence: 0.9, reason: "balanced light")
    let camera = StepReport(
      step: .camera, outcome: .succeeded(.camera(settings)), elapsed: .seconds(1.4))
    let located = StepReport(
      step: .location, outcome: .succeeded(.location(paris)), elapsed: .seconds(0.1))
    let noFix = StepReport(
      step: .location, outcome: .dropped(reason: "no fix before the shutter"), elapsed: .seconds(3))
    let offLocation = StepReport(
      step: .location, outcome: .skipped(reason: "location off (--no-location)"), elapsed: .zero)
    let filtered = StepReport(
      step: .filter, outcome: .succeeded(.filter(look)), elapsed: .seconds(1.4))
    let two = PeopleSummary(count: 2, eyesClosed: 0)
    let seen = StepReport(step: .people, outcome: .succeeded(.people(two)), elapsed: .seconds(3))
    let offPeople = StepReport(
      step: .people, outcome: .skipped(reason: "people off (--no-people)"), elapsed: .zero)
    let cameraFailed = StepReport(
      step: .camera, outcome: .failed(reason: "no image file at /nowhere.jpg"), elapsed: .zero)
    let photo = CapturedPhoto(
      settings: settings, location: paris, filter: .natural,
      file: URL(fileURLWithPath: "/tmp/photos/IMG_1.jpg"),
      reports: [camera, located, filtered, seen], shutterOffset: .seconds(3), people: two)
    let reports = { (list: [StepReport]) in
      Dictionary(uniqueKeysWithValues: list.map { ($0.step, $0) })
    }
    let started = PhotoTimerPresentation.Context(hasRun: true)
    return [
      PresentationExample(
        name: "camera starting", state: PhotoTimerState(), context: .init(cameraStarting: true)),
      PresentationExample(
        name: "camera starting, the count starts itself", state: PhotoTimerState(),
        context: .init(cameraStarting: true, startsWhenReady: true)),
      PresentationExample(
        name: "camera did not open", state: PhotoTimerState(),
        context: .init(problem: "camera failed: no image file at /nowhere.jpg")),
      PresentationExample(name: "ready to frame", state: PhotoTimerState(), context: .init()),
      PresentationExample(
        name: "counting, steps running",
        state: PhotoTimerState(
          status: .counting(remaining: 3),
          activity: [.location: "no fix yet: no satellites", .people: "2 people · 1 blinking"]),
        context: started),
      PresentationExample(
        name: "counting, each step ended its own way",
        state: PhotoTimerState(
          status: .counting(remaining: 1),
          reports: reports([camera, offLocation, filtered, offPeople])),
        context: started),
      PresentationExample(
        name: "waiting for the camera",
        state: PhotoTimerState(status: .waiting(for: [.camera]), reports: reports([located])),
        context: started),
      PresentationExample(
        name: "waiting for the camera's hand-over",
        state: PhotoTimerState(
          status: .waiting(for: [.camera]), reports: reports([camera]),
          activity: [.camera: "waiting for the camera to end its live view…"]),
        context: started),
      PresentationExample(
        name: "taking the photo",
        state: PhotoTimerState(
          status: .capturing, reports: reports([camera, noFix, filtered, seen])),
        context: started),
      PresentationExample(
        name: "captured",
        state: PhotoTimerState(
          status: .captured(photo), reports: reports([camera, located, filtered, seen])),
        context: started),
      PresentationExample(
        name: "failed",
        state: PhotoTimerState(
          status: .failed(
            PhotoTimerFailure(
              cause: .stepFailed(.camera), message: "camera failed: no image file at /nowhere.jpg")),
          reports: reports([cameraFailed])),
        context: started),
      PresentationExample(name: "cancelled", state: PhotoTimerState(), context: started),
      PresentationExample(
        name: "cancelled, the command ending", state: PhotoTimerState(),
        context: .init(hasRun: true, isOver: true)),
      PresentationExample(
        name: "framing after two photos", state: PhotoTimerState(),
        context: .init(
          hasRun: true, framing: .init(photos: 2, lastFile: "IMG_2.jpg"), autoStart: false)),
      PresentationExample(
        name: "framing, the count waiting for the people", state: PhotoTimerState(),
        context: .init(
          hasRun: true,
          framing: .init(
            photos: 1, lastFile: "IMG_1.jpg", waiting: "waiting for everyone: 4 of 6"),
          autoStart: true)),
      PresentationExample(
        name: "framing after a cancel", state: PhotoTimerState(),
        context: .init(hasRun: true, framing: .init(photos: 0, cancelled: true))),
      PresentationExample(
        name: "time-lapse between shots",
        state: PhotoTimerState(
          status: .captured(photo), reports: reports([camera, located, filtered, seen])),
        context: .init(hasRun: true, note: "time-lapse: shot 2 of 5", betweenShots: true)),
    ]
  }()
}
