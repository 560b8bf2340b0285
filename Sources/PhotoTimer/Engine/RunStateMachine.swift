#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The workflow of one run as a pure transition function: inputs in, actions out.
///
/// It knows nothing of tasks or clocks. Time arrives as offsets from the start; the engine
/// performs the actions (publish an event, schedule a wake-up, capture, finish) and feeds
/// back what happened. Every branch of the timeline is decided here, in one place.
struct RunStateMachine {
  /// Where the run is.
  enum Phase: Equatable {
    /// Before zero, showing `remaining`.
    case counting(remaining: Int)
    /// At zero, waiting for required steps.
    case waiting
    /// The shutter fired; the camera is capturing.
    case capturing(CaptureRequest)
    /// Captured, failed or cancelled: no more output.
    case finished
  }

  /// A wake-up the engine schedules on its clock.
  enum Timer: Equatable, Sendable {
    /// A countdown tick is due.
    case tick
    /// The bounded wait after zero has run out.
    case waitLimit
  }

  /// Something that happened, for the machine to react to.
  enum Input: Equatable {
    /// The user asked to take the photo now: the count ends here.
    case shootNow
    /// A scheduled wake-up fired.
    case timerFired(Timer)
    /// A step ended; `elapsed` is measured from the start by the step's own task.
    case stepEnded(PreparationStep, Result<StepValue, StepError>, elapsed: Duration)
    /// The capture ended.
    case captureEnded(Result<CapturedFile, StepError>)
  }

  /// A step's or capture's failure, reduced to its message.
  struct StepError: Error, Equatable {
    var message: String
  }

  /// What a capture wrote.
  struct CapturedFile: Equatable {
    var url: URL?
  }

  /// What the engine must do, in order.
  enum Action: Equatable {
    /// Publish this event.
    case publish(PhotoTimerEvent)
    /// Wake up with `timer` at this offset from the start.
    case schedule(Timer, at: Duration)
    /// Cancel the steps still running and take the photo.
    case capture(CaptureRequest)
    /// Stop everything; the run is over.
    case finish(PhotoTimerResult)
  }

  let countdown: Countdown
  let waitLimit: Duration
  let required: Set<PreparationStep>
  /// Steps turned off, with why; they never run and are reported as skipped at the start.
  let skipped: [PreparationStep: String]
  /// What becomes of a step still running at the shutter, read at that moment: its value if
  /// it is ready after all, else the reason it is dropped.
  let atShutter: (PreparationStep) -> Result<StepValue, StepError>
  private(set) var phase: Phase
  private(set) var running: Set<PreparationStep>
  private var reports: [PreparationStep: StepReport] = [:]
  private var settings: CameraSettings?
  private var location: LocationTag?
  private var suggestion: FilterSuggestion?

  init(
    configuration: PhotoTimerConfiguration, required: Set<PreparationStep>,
    skipped: [PreparationStep: String] = [:],
    atShutter: @escaping (PreparationStep) -> Result<StepValue, StepError> = {
      .failure(StepError(message: $0.droppedReason))
    }
  ) {
    countdown = Countdown(
      ticks: configuration.countdownSeconds, interval: configuration.tickInterval)
    waitLimit = configuration.cameraWaitLimit
    self.required = required.union([.camera])
    // NB: the camera always runs: there is no photo without it.
    self.skipped = skipped.filter { $0.key != .camera }
    self.atShutter = atShutter
    running = Set(PreparationStep.allCases).subtracting(self.skipped.keys)
    phase = .counting(remaining: countdown.ticks)
  }

  var isFinished: Bool { phase == .finished }

  /// The actions at the start of the run (offset zero); all steps are running.
  mutating func start() -> [Action] {
    var actions: [Action] = [
      .publish(event(.started(countdownSeconds: countdown.ticks), at: .zero))
    ]
    for step in PreparationStep.allCases {
      guard let reason = skipped[step] else { continue }
      let report = StepReport(step: step, outcome: .skipped(reason: reason), elapsed: .zero)
      reports[step] = report
      actions.append(.publish(event(.stepFinished(report), at: .zero)))
    }
    if let first = countdown.nextDeadline(after: .zero) {
      actions.append(.schedule(.tick, at: first))
    } else {
      actions += reachZero(at: .zero)
    }
    return actions
  }

  /// The actions in answer to `input`, which happened at `now` (offset from the start).
  mutating func handle(_ input: Input, at now: Duration) -> [Action] {
    switch input {
    case .shootNow:
      guard case .counting = phase else { return [] }
      return reachZero(at: now)
    case .timerFired(.tick): return tick(at: now)
    case .timerFired(.waitLimit): return waitRanOut(at: now)
    case .stepEnded(let step, let result, let elapsed):
      return stepEnded(step, result, elapsed: elapsed, at: now)
    case .captureEnded(let result): return captureEnded(result, at: now)
    }
  }

  // MARK: - Transitions

  private mutating func tick(at now: Duration) -> [Action] {
    guard case .counting(let shown) = phase else { return [] }
    let remaining = countdown.remaining(at: now)
    guard remaining > 0, let next = countdown.nextDeadline(after: now) else {
      return reachZero(at: now)
    }
    var actions: [Action] = []
    if remaining != shown {
      phase = .counting(remaining: remaining)
      actions.append(.publish(event(.tick(remaining: remaining), at: now)))
    }
    actions.append(.schedule(.tick, at: next))
    return actions
  }

  private mutating func reachZero(at now: Duration) -> [Action] {
    let waitingFor = pendingRequired
    guard !waitingFor.isEmpty else { return shoot(at: now) }
    phase = .waiting
    return [
      .publish(event(.waiting(for: waitingFor), at: now)),
      .schedule(.waitLimit, at: max(now, countdown.zero) + waitLimit),
    ]
  }

  private mutating func stepEnded(
    _ step: PreparationStep, _ result: Result<StepValue, StepError>, elapsed: Duration,
    at now: Duration
  ) -> [Action] {
    guard running.contains(step) else { return [] }
    switch phase {
    case .counting, .waiting: break
    case .capturing, .finished: return []
    }
    running.remove(step)
    let outcome: StepOutcome
    switch result {
    case .success(let value):
      record(value)
      outcome = .succeeded(value)
    case .failure(let error):
      outcome = .failed(reason: error.message)
    }
    let report = StepReport(step: step, outcome: outcome, elapsed: elapsed)
    reports[step] = report
    var actions: [Action] = [.publish(event(.stepFinished(report), at: now))]
    if case .failure(let error) = result, required.contains(step) {
      let failure = PhotoTimerFailure(
        cause: .stepFailed(step), message: "\(step) failed: \(error.message)")
      actions += fail(failure, at: now)
    } else if phase == .waiting, pendingRequired.isEmpty {
      actions += shoot(at: now)
    }
    return actions
  }

  private mutating func waitRanOut(at now: Duration) -> [Action] {
    guard phase == .waiting else { return [] }
    let late = pendingRequired
    let names = late.map(\.rawValue).joined(separator: " and ")
    let waited = waitLimit.formattedSeconds(fractionDigits: 1)
    let failure = PhotoTimerFailure(
      cause: .notReadyInTime(late),
      message: "\(names) not ready \(waited) s after the countdown ended; check that the "
        + "camera is connected and not in use by another program, or allow a longer wait")
    return fail(failure, at: now)
  }

  private mutating func shoot(at now: Duration) -> [Action] {
    var actions: [Action] = []
    for step in PreparationStep.allCases where running.contains(step) {
      let outcome: StepOutcome
      switch atShutter(step) {
      case .success(let value):
        record(value)
        outcome = .succeeded(value)
      case .failure(let reason):
        outcome = .dropped(reason: reason.message)
      }
      let report = StepReport(step: step, outcome: outcome, elapsed: now)
      reports[step] = report
      actions.append(.publish(event(.stepFinished(report), at: now)))
    }
    running.removeAll()
    guard let settings else {
      // Unreachable: the camera is always required, so zero waits for its settings.
      return actions
        + fail(
          PhotoTimerFailure(cause: .stepFailed(.camera), message: "camera gave no settings"),
          at: now)
    }
    let request = CaptureRequest(
      settings: settings, location: location, filter: suggestion?.filter ?? .natural,
      shutterOffset: now)
    phase = .capturing(request)
    actions.append(.publish(event(.shutter, at: now)))
    actions.append(.capture(request))
    return actions
  }

  private mutating func captureEnded(
    _ result: Result<CapturedFile, StepError>, at now: Duration
  ) -> [Action] {
    guard case .capturing(let request) = phase else { return [] }
    switch result {
    case .success(let file):
      phase = .finished
      let photo = CapturedPhoto(
        settings: request.settings, location: request.location, filter: request.filter,
        file: file.url, reports: PreparationStep.allCases.compactMap { reports[$0] },
        shutterOffset: request.shutterOffset)
      return [.publish(event(.captured(photo), at: now)), .finish(.captured(photo))]
    case .failure(let error):
      return fail(
        PhotoTimerFailure(cause: .captureFailed, message: "capture failed: \(error.message)"),
        at: now)
    }
  }

  private mutating func fail(_ failure: PhotoTimerFailure, at now: Duration) -> [Action] {
    phase = .finished
    return [.publish(event(.failed(failure), at: now)), .finish(.failed(failure))]
  }

  // MARK: - Helpers

  private var pendingRequired: [PreparationStep] {
    PreparationStep.allCases.filter { required.contains($0) && running.contains($0) }
  }

  private mutating func record(_ value: StepValue) {
    switch value {
    case .camera(let value): settings = value
    case .location(let value): location = value
    case .filter(let value): suggestion = value
    }
  }

  private func event(_ kind: PhotoTimerEvent.Kind, at offset: Duration) -> PhotoTimerEvent {
    PhotoTimerEvent(offset: offset, kind: kind)
  }
}
