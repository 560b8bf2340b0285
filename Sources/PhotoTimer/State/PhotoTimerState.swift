/// The user-visible state of a run, built by applying its events in order.
///
/// This is the one reducer from ``PhotoTimerEvent`` to ``PhotoTimerStatus`` and
/// ``PreparationProgress``: the view model uses it, and so can any other front end that
/// consumes ``PhotoTimerEngine/events()`` directly.
///
/// ```swift
/// var state = PhotoTimerState()
/// for await event in engine.events() {
///   state.apply(event)
///   render(state.status, state.prep)
/// }
/// ```
public struct PhotoTimerState: Hashable, Sendable {
  /// The phase of the run.
  public var status: PhotoTimerStatus
  /// Which preparations have their value.
  public var prep: PreparationProgress
  /// How each preparation that has ended ended (value, failure, drop or skip) and when:
  /// what a checklist shows beside each step.
  public var reports: [PreparationStep: StepReport]
  /// What each step still running is waiting for, as it last reported
  /// (``StepStatus/report(_:)``): the words beside its spinner. The camera's entry during a
  /// wait at zero is its hand-over's.
  public var activity: [PreparationStep: String]

  /// Creates a state; idle with nothing prepared by default.
  ///
  /// - Parameters:
  ///   - status: The phase.
  ///   - prep: The preparation flags.
  ///   - reports: The steps ended so far.
  ///   - activity: What the steps still running wait for.
  public init(
    status: PhotoTimerStatus = .idle, prep: PreparationProgress = .init(),
    reports: [PreparationStep: StepReport] = [:], activity: [PreparationStep: String] = [:]
  ) {
    self.status = status
    self.prep = prep
    self.reports = reports
    self.activity = activity
  }

  /// Applies one event.
  ///
  /// - Parameter event: The next event of the run.
  public mutating func apply(_ event: PhotoTimerEvent) {
    switch event.kind {
    case .started(let seconds):
      self = PhotoTimerState(status: .counting(remaining: seconds))
    case .tick(let remaining):
      status = .counting(remaining: remaining)
    case .stepFinished(let report):
      if report.outcome.succeeded { prep.markDone(report.step) }
      reports[report.step] = report
      activity[report.step] = nil
    case .stepStatus(let step, let text):
      activity[step] = text
    case .waiting(let steps):
      status = .waiting(for: steps)
    case .shutter:
      status = .capturing
      activity = [:]
    case .captured(let photo):
      status = .captured(photo)
    case .cancelled:
      self = PhotoTimerState()
    case .failed(let failure):
      status = .failed(failure)
    }
  }
}
