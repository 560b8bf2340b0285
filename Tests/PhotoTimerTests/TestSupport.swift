import PhotoTimer
import PhotoTimerTesting

/// The seed scenario's values.
enum Seed {
  static let settings = CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400)
  static let location = LocationTag(
    name: "Golden Gate Park", coordinate: Coordinate(latitude: 37.7694, longitude: -122.4862))
  static let filter = FilterSuggestion(filter: .vivid, confidence: 1, reason: "simulated")
  /// The simulation has no picture: its people step is off, said at the start.
  static let peopleOff = StepReport(
    step: .people, outcome: .skipped(reason: "no picture to look at in the simulation"),
    elapsed: .zero)
}

/// Offsets in milliseconds read better in timelines.
func ms(_ value: Int) -> Duration { .milliseconds(value) }

/// An engine on a test clock with its events recorded.
struct EngineHarness {
  let clock = TestClock()
  let recorder = EventRecorder()
  let run: Task<PhotoTimerResult, Never>

  init(
    seconds: Int, waitLimit: Duration = .seconds(10),
    services: (TestClock) -> PhotoTimerServices = { .simulated(clock: $0) }
  ) {
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: seconds, cameraWaitLimit: waitLimit),
      services: services(clock), clock: clock)
    run = Task { [recorder] in await engine.run(onEvent: recorder.record) }
  }

  /// Moves the clock to `offset`, then waits for the run to publish `newEvents` more events
  /// and to be asleep on at least `sleepers` deadlines again.
  @discardableResult
  func advance(to offset: Duration, newEvents: Int, sleepers: Int) async -> [PhotoTimerEvent] {
    let before = recorder.events.count
    clock.advance(to: offset)
    let events = await recorder.waitForEvents(before + newEvents)
    await clock.waitForSleepers(sleepers)
    return Array(events.dropFirst(before))
  }
}

extension PhotoTimerEvent {
  /// A step report event, for expected timelines.
  static func step(
    _ step: PreparationStep, _ outcome: StepOutcome, at offset: Duration,
    elapsed: Duration? = nil
  ) -> PhotoTimerEvent {
    PhotoTimerEvent(
      offset: offset,
      kind: .stepFinished(StepReport(step: step, outcome: outcome, elapsed: elapsed ?? offset)))
  }
}

/// A view model on a test clock, with the events it applied recorded.
@MainActor
final class ModelHarness {
  let clock = TestClock()
  let recorder = EventRecorder()
  let model: PhotoTimerViewModel
  /// Every status the model has held, in order, transient ones included.
  private(set) var history: [PhotoTimerStatus] = []
  private let follower: Task<Void, Never>

  init(
    seconds: Int = 5,
    services: (TestClock) -> PhotoTimerServices = { .simulated(clock: $0) }
  ) {
    model = PhotoTimerViewModel(countdownSeconds: seconds, services: services(clock), clock: clock)
    let stream = model.events()
    follower = Task { [recorder] in
      for await event in stream { recorder.record(event) }
    }
    model.didWriteState = { [weak self] status, _ in
      if self?.history.last != status { self?.history.append(status) }
    }
  }

  /// The statuses held since history index `start`.
  func statuses(since start: Int) -> ArraySlice<PhotoTimerStatus> { history[start...] }

  deinit { follower.cancel() }

  /// Starts the timer and waits until the run is asleep on its four deadlines.
  func start(sleepers: Int = 4) async {
    model.startTimer()
    await clock.waitForSleepers(sleepers)
  }

  /// Moves the clock to `offset`, then waits for `newEvents` more events and `sleepers`.
  func advance(to offset: Duration, newEvents: Int, sleepers: Int) async {
    let before = recorder.events.count
    clock.advance(to: offset)
    await recorder.waitForEvents(before + newEvents)
    await clock.waitForSleepers(sleepers)
  }
}

/// The seed scenario's deadlines: when each is reached, how many events follow and how many
/// sleepers remain.
let seedSchedule: [(offset: Duration, events: Int, sleepers: Int)] = [
  (ms(1000), 1, 4), (ms(1400), 1, 3), (ms(2000), 1, 3), (ms(2800), 1, 2),
  (ms(3000), 1, 2), (ms(4000), 1, 2), (ms(4200), 1, 1), (ms(5000), 2, 0),
]
