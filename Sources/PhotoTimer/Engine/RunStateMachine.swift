#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The workflow of one run as a pure transition function: inputs in, actions out.
///
/// It knows nothing of tasks or clocks and calls nothing: every effect, from starting a
/// step to asking what a step already knows at the shutter, is an ``Action`` the engine
/// performs and answers with an ``Input``. Time arrives as offsets from the start. Every
/// branch of the timeline is decided here, in one place; an input the workflow cannot
/// produce is a programming error (`preconditionFailure`), never a message for the user.
struct RunStateMachine {
  /// Where the run is.
  enum Phase: Equatable {
    /// `--sequential`: the preparations run one after another before the count.
    case preparing
    /// Before zero, showing `remaining`.
    case counting(remaining: Int)
    /// At zero, waiting for required steps.
    case waiting
    /// The shutter fired: asking what the steps still running already know.
    case collecting(shutter: Duration)
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
    /// The camera's hand-over is due (its lead before zero).
    case handOver
  }

  /// Something that happened, for the machine to react to.
  enum Input: Equatable {
    /// The user asked to take the photo now: the count ends here.
    case shootNow
    /// A scheduled wake-up fired.
    case timerFired(Timer)
    /// A step ended; `elapsed` is measured from the start by the step's own task.
    case stepEnded(PreparationStep, Result<StepValue, StepError>, elapsed: Duration)
    /// The answer to ``Action/askReady(_:)``: for each step asked, its value if it is ready
    /// after all, else why it is dropped.
    case readyAtShutter([PreparationStep: Result<StepValue, StepError>])
    /// The capture ended.
    case captureEnded(Result<CapturedFile, StepError>)
    /// The camera, ready already, went away before the shutter.
    case cameraLost(StepError)
    /// The camera's hand-over ended: free to shoot (`nil`), or why not.
    case handedOver(StepError?)
    /// A step (or, for the camera, its hand-over) reported what it waits for now.
    case statusChanged(PreparationStep, String?)
  }

  /// A step's or capture's failure, reduced to its message.
  struct StepError: Error, Equatable {
    var message: String
  }

  /// What a capture wrote.
  struct CapturedFile: Equatable {
    var url: URL?
    /// The exposure the camera reports having used, when it does.
    var settings: CameraSettings?
    var settingsNote: String?
    /// Who is in the frame kept, when the camera chose it for them.
    var people: PeopleSummary?
  }

  /// What the engine must do, in order.
  enum Action: Equatable {
    /// Publish this event.
    case publish(PhotoTimerEvent)
    /// Start this step as a child task; its end comes back as ``Input/stepEnded(_:_:elapsed:)``;
    /// once the camera step succeeded the engine also watches the camera (``Input/cameraLost(_:)``).
    case startStep(PreparationStep)
    /// Wake up with `timer` at this offset from the start.
    case schedule(Timer, at: Duration)
    /// Ask these steps, still running at the shutter, what they already know; answer with
    /// ``Input/readyAtShutter(_:)``.
    case askReady([PreparationStep])
    /// Start the camera's hand-over (``CameraHandOver``); its end comes back as
    /// ``Input/handedOver(_:)``.
    case startHandOver
    /// Cancel the steps still running and take the photo.
    case capture(CaptureRequest)
    /// Stop everything; the run is over.
    case finish(PhotoTimerResult)
  }

  let countdown: Countdown
  let waitLimit: Duration
  let required: Set<PreparationStep>
  let order: PreparationOrder
  /// Steps turned off, with why; they never run and are reported as skipped at the start.
  let skipped: [PreparationStep: String]
  var phase: Phase
  /// Steps that have not ended yet (running, or waiting for their turn when sequential).
  var unfinished: [PreparationStep]
  /// Steps started and not ended.
  var running: Set<PreparationStep> = []
  /// Where the count starts: zero, or where the sequential preparations ended.
  var countOrigin = Duration.zero
  var reports: [PreparationStep: StepReport] = [:]
  var settings: CameraSettings?
  var location: LocationTag?
  var people: PeopleSummary?
  var suggestion: FilterSuggestion?
  /// How long before zero the camera's hand-over starts; `nil` when it has none.
  let handOverLead: Duration?
  /// Where the camera's hand-over is.
  var handOver: HandOverProgress

  /// Where the camera's hand-over is (``CameraHandOver``).
  enum HandOverProgress: Equatable {
    /// The camera has none: it can shoot at any moment.
    case notNeeded
    /// Not started; `due` once its lead before zero (or zero) has come.
    case pending(due: Bool)
    /// Under way.
    case running
    /// Ended: the camera is free.
    case done
  }

  init(
    configuration: PhotoTimerConfiguration, required: Set<PreparationStep>,
    skipped: [PreparationStep: String] = [:], handOverLead: Duration? = nil
  ) {
    self.handOverLead = handOverLead
    handOver = handOverLead == nil ? .notNeeded : .pending(due: false)
    countdown = Countdown(
      ticks: configuration.countdownSeconds, interval: configuration.tickInterval)
    waitLimit = configuration.cameraWaitLimit
    order = configuration.preparation
    self.required = required.union([.camera])
    // NB: the camera always runs: there is no photo without it.
    let turnedOff = skipped.filter { $0.key != .camera }
    self.skipped = turnedOff
    unfinished = PreparationStep.allCases.filter { turnedOff[$0] == nil }
    phase = order == .sequential ? .preparing : .counting(remaining: countdown.ticks)
  }

  var isFinished: Bool { phase == .finished }

  /// The actions at the start of the run (offset zero).
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
    switch order {
    case .concurrent:
      actions += unfinished.map { startStep($0) }
      actions += startCount(at: .zero)
    case .sequential:
      actions += nextSequential(at: .zero)
    }
    return actions
  }

  /// `--sequential`: the next step in the queue, or once the queue is done the steps that
  /// watch the count and the count itself.
  mutating func nextSequential(at now: Duration) -> [Action] {
    if let next = unfinished.first(where: { !$0.watchesTheCount && !running.contains($0) }) {
      return [startStep(next)]
    }
    var actions = unfinished.filter { $0.watchesTheCount && !running.contains($0) }.map {
      startStep($0)
    }
    actions += startCount(at: now)
    return actions
  }

  /// The actions in answer to `input`, which happened at `now` (offset from the start).
  mutating func handle(_ input: Input, at now: Duration) -> [Action] {
    switch input {
    case .shootNow:
      switch phase {
      case .preparing, .counting: return reachZero(at: now)
      case .waiting, .collecting, .capturing, .finished: return []
      }
    case .timerFired(.tick): return tick(at: now)
    case .timerFired(.waitLimit): return waitRanOut(at: now)
    case .timerFired(.handOver): return handOverDue(at: now)
    case .handedOver(let error): return handedOver(error, at: now)
    case .stepEnded(let step, let result, let elapsed):
      return stepEnded(step, result, elapsed: elapsed, at: now)
    case .readyAtShutter(let answers): return collected(answers)
    case .captureEnded(let result): return captureEnded(result, at: now)
    case .cameraLost(let error): return cameraLost(error, at: now)
    case .statusChanged(let step, let text): return statusChanged(step, text, at: now)
    }
  }

  mutating func startStep(_ step: PreparationStep) -> Action {
    running.insert(step)
    return .startStep(step)
  }

  /// A step's new status is published while it runs (the camera's also while its hand-over
  /// runs), and never after the shutter: by then nothing waits for it.
  func statusChanged(_ step: PreparationStep, _ text: String?, at now: Duration) -> [Action] {
    switch phase {
    case .preparing, .counting, .waiting: break
    case .collecting, .capturing, .finished: return []
    }
    guard running.contains(step) || (step == .camera && handOver == .running) else { return [] }
    return [.publish(event(.stepStatus(step, text), at: now))]
  }

  func event(_ kind: PhotoTimerEvent.Kind, at offset: Duration) -> PhotoTimerEvent {
    PhotoTimerEvent(offset: offset, kind: kind)
  }
}

/// How the preparations run.
public enum PreparationOrder: Hashable, Sendable {
  /// All at once, during the count (the point of phototimer).
  case concurrent
  /// One after another, then the count with every value ready: the seed's naive design,
  /// for comparison.
  case sequential
}
