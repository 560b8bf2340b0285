import Observation

/// The self-timer for a user interface: observable state and the user's intents.
///
/// The view model is a thin adapter over ``PhotoTimerEngine``. It owns at most one run; its
/// state is written in one place only, from the run's events, and only while that run is
/// current, so a cancelled or replaced run can never write over a newer one.
///
/// ```swift
/// struct TimerView: View {
///   @State private var model = PhotoTimerViewModel(countdownSeconds: 5, services: .simulated())
///
///   var body: some View {
///     VStack {
///       Text(model.status.description)
///       Button("Start") { model.startTimer() }
///       Button("Cancel") { model.cancel() }
///     }
///   }
/// }
/// ```
@MainActor
@Observable
public final class PhotoTimerViewModel {
  /// Everything the current run shows: its phase, each step's report and status.
  public private(set) var state = PhotoTimerState() {
    didSet { didWriteState?(state.status, state.prep) }
  }
  /// The phase of the current run.
  public var status: PhotoTimerStatus { state.status }
  /// Which preparations of the current run have their value.
  public var prep: PreparationProgress { state.prep }
  /// How each preparation of the current run that has ended ended (its value, failure, drop
  /// or skip) and when: what a checklist shows beside each step.
  public var reports: [PreparationStep: StepReport] { state.reports }
  /// What each step still running says it waits for (``StepStatus``), pushed as it changes.
  public var activity: [PreparationStep: String] { state.activity }
  /// The countdown of the next run, in seconds (0 shoots as soon as the camera is ready).
  /// Changing it does not affect a run in progress.
  public var countdownSeconds: Int

  @ObservationIgnored private let makeRun: @Sendable (PhotoTimerConfiguration) -> Run
  @ObservationIgnored private let cameraWaitLimit: Duration
  @ObservationIgnored private var runTask: Task<Void, Never>?
  @ObservationIgnored private var shutterButton: AsyncStream<Void>.Continuation?
  @ObservationIgnored private var generation: UInt64 = 0
  /// Called after every write of ``state``, with its status and progress; tests use it to see
  /// transient states that a later read would miss.
  @ObservationIgnored package var didWriteState: ((PhotoTimerStatus, PreparationProgress) -> Void)?
  @ObservationIgnored private var subscribers: [AsyncStream<PhotoTimerEvent>.Continuation] = []

  private typealias Run =
    @Sendable (
      _ shootNow: AsyncStream<Void>,
      _ onEvent: @escaping @Sendable (PhotoTimerEvent) async -> Void
    ) async -> PhotoTimerResult

  /// Creates a view model.
  ///
  /// ```swift
  /// let model = PhotoTimerViewModel(countdownSeconds: 5, services: .simulated())
  /// let testable = PhotoTimerViewModel(
  ///   countdownSeconds: 5, services: .simulated(clock: clock), clock: clock)
  /// ```
  ///
  /// - Parameters:
  ///   - countdownSeconds: The count; negative values count as 0.
  ///   - services: The camera, location and filter.
  ///   - clock: The clock every deadline is measured on; `ContinuousClock` by default.
  ///   - cameraWaitLimit: How long the shutter waits at zero for the camera before failing.
  public init<C: Clock>(
    countdownSeconds: Int = 5, services: PhotoTimerServices, clock: C = ContinuousClock(),
    cameraWaitLimit: Duration = .seconds(10)
  ) where C.Duration == Duration {
    self.countdownSeconds = max(0, countdownSeconds)
    self.cameraWaitLimit = cameraWaitLimit
    makeRun = { configuration in
      let engine = PhotoTimerEngine(configuration: configuration, services: services, clock: clock)
      return { shootNow, onEvent in await engine.run(shootNow: shootNow, onEvent: onEvent) }
    }
  }

  deinit {
    // Releasing the model ends its run; the run holds the model only weakly.
    runTask?.cancel()
    for subscriber in subscribers { subscriber.finish() }
  }

  /// Starts the countdown, cancelling the run in progress if there is one.
  ///
  /// The status is `.counting` from this instant on: a restart never shows `.idle`. The new
  /// run begins once the old one has released everything it held (a camera can be opened
  /// only once), which takes well under a millisecond.
  public func startTimer() {
    let previous = runTask
    previous?.cancel()
    generation &+= 1
    let current = generation
    let configuration = PhotoTimerConfiguration(
      countdownSeconds: countdownSeconds, cameraWaitLimit: cameraWaitLimit)
    state = PhotoTimerState(status: .counting(remaining: configuration.countdownSeconds))
    let run = makeRun(configuration)
    let (presses, button) = AsyncStream.makeStream(of: Void.self)
    shutterButton?.finish()
    shutterButton = button
    runTask = Task(name: "phototimer run \(current)") { [weak self] in
      await previous?.value
      guard !Task.isCancelled else { return }
      _ = await run(presses) { [weak self] event in
        await self?.apply(event, generation: current)
      }
    }
  }

  /// Takes the photo now: the count ends at once and the shutter fires as soon as the
  /// camera is ready. Does nothing when no count is running.
  public func takeNow() {
    guard case .counting = status else { return }
    shutterButton?.yield()
  }

  /// Cancels the run: the countdown, the camera, the location fix and the filter analysis
  /// stop, partial files are removed, and the status is `.idle` at once.
  ///
  /// Nothing from the cancelled run changes the state afterwards.
  public func cancel() {
    runTask?.cancel()
    shutterButton?.finish()
    shutterButton = nil
    generation &+= 1
    state = PhotoTimerState()
  }

  /// The events of every run from now on, each delivered after the state reflects it.
  ///
  /// A cancelled run's last event, `cancelled`, is delivered too, though it no longer
  /// changes the state. The sequence ends when the view model is released.
  ///
  /// - Returns: A sequence of events; it buffers, so a slow consumer loses none.
  public func events() -> AsyncStream<PhotoTimerEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: PhotoTimerEvent.self)
    subscribers.append(continuation)
    return stream
  }

  /// Waits until the current run, if any, has ended and unwound completely.
  package func waitForRun() async {
    await runTask?.value
  }

  /// The one place that writes state: only the current run's events are applied.
  private func apply(_ event: PhotoTimerEvent, generation run: UInt64) {
    if run == generation {
      var next = state
      next.apply(event)
      if next != state { state = next }
    } else if event.kind != .cancelled {
      return
    }
    subscribers.removeAll { subscriber in
      if case .terminated = subscriber.yield(event) { return true }
      return false
    }
  }
}
