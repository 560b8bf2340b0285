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
  /// The next run's time-lapse: further shots after the first photo, or `nil` for one photo.
  /// Changing it does not affect a run in progress.
  public var timeLapse: TimeLapse?
  /// Whether the next run prepares during the count (the default) or one step after another
  /// before it. Changing it does not affect a run in progress.
  public var preparation = PreparationOrder.concurrent
  /// Whether a session is under way: a run counts, waits or captures, or a time-lapse waits
  /// for its next shot.
  public private(set) var isSessionRunning = false
  /// Whether a run has started since the model was made (an idle state after it is a cancel).
  public private(set) var hasRun = false
  /// How often the current session was restarted before its first photo.
  public private(set) var restarts = 0
  /// The latest news from outside the run itself: a restart, a time-lapse shot, a skipped one.
  public private(set) var note: String?

  @ObservationIgnored private let makeSession:
    @Sendable (PhotoTimerConfiguration, TimeLapse?) -> Session
  @ObservationIgnored private var session: Session?
  /// The current session took its first photo: a restart no longer applies.
  @ObservationIgnored private var photoTaken = false
  @ObservationIgnored private let cameraWaitLimit: Duration
  @ObservationIgnored private var runTask: Task<Void, Never>?
  @ObservationIgnored private var generation: UInt64 = 0
  /// Called after every write of ``state``, with its status and progress; tests use it to see
  /// transient states that a later read would miss.
  @ObservationIgnored package var didWriteState: ((PhotoTimerStatus, PreparationProgress) -> Void)?
  @ObservationIgnored private var subscribers: [AsyncStream<PhotoTimerEvent>.Continuation] = []
  @ObservationIgnored private var watchers: [AsyncStream<Update>.Continuation] = []

  /// One session of runs (``PhotoTimerSession``) over whichever clock the model was made with.
  private struct Session: Sendable {
    var run:
      @Sendable (_ onEvent: @escaping @Sendable (PhotoTimerSessionEvent) async -> Void) async
        -> PhotoTimerResult
    var takeNow: @Sendable () -> Void
  }

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
    makeSession = { configuration, timeLapse in
      let session = PhotoTimerSession(
        configuration: configuration, services: services, clock: clock, timeLapse: timeLapse)
      return Session(run: { await session.run(onEvent: $0) }, takeNow: { session.takeNow() })
    }
  }

  deinit {
    // Releasing the model ends its run; the run holds the model only weakly.
    runTask?.cancel()
    for subscriber in subscribers { subscriber.finish() }
    for watcher in watchers { watcher.finish() }
  }

  /// Starts the countdown, cancelling the run in progress if there is one.
  ///
  /// The status is `.counting` from this instant on: a restart never shows `.idle`. The new
  /// run begins once the old one has released everything it held (a camera can be opened
  /// only once), which takes well under a millisecond. With a ``timeLapse`` the session goes
  /// on after the first photo, shot after shot, until it is over or cancelled.
  public func startTimer() {
    restarts = 0
    note = nil
    begin()
  }

  /// Cancels the run and starts it again from the full count, before the session's first
  /// photo. With no session under way it starts one. Once a photo was taken (a time-lapse
  /// goes on) the presentation's gate refuses it, and the refusal is the ``note``
  /// (`not now: a time-lapse is under way: cancel it to start again`); the run goes on.
  public func restart() {
    guard isSessionRunning else { return startTimer() }
    if refused(.restart) { return }
    restarts += 1
    note = Self.restartNote(restarts)
    begin()
  }

  /// Shows `text` as the note (``note``), news from the front end itself: a preview that
  /// stopped, the order of the preparations.
  ///
  /// - Parameter text: The note, or `nil` to clear it.
  public func post(note text: String?) {
    note = text
    publish(.note)
  }

  private static func restartNote(_ restarts: Int) -> String { "restarted (\(restarts))" }

  private func begin() {
    let previous = runTask
    previous?.cancel()
    generation &+= 1
    let current = generation
    let configuration = PhotoTimerConfiguration(
      countdownSeconds: countdownSeconds, cameraWaitLimit: cameraWaitLimit,
      preparation: preparation)
    state = PhotoTimerState(status: .counting(remaining: configuration.countdownSeconds))
    hasRun = true
    isSessionRunning = true
    photoTaken = false
    let session = makeSession(configuration, timeLapse)
    self.session = session
    publish(.started)
    runTask = Task(name: "phototimer run \(current)") { [weak self] in
      await previous?.value
      guard !Task.isCancelled else { return }
      let result = await session.run { [weak self] event in
        let published = ContinuousClock.now
        // NB: the model is looked up only once on the main actor: an event waiting for the
        // hop holds no strong reference, so releasing the model mid-run ends it at once.
        await MainActor.run { [weak self] in
          self?.apply(event, generation: current, published: published)
        }
      }
      self?.ended(result, generation: current)
    }
  }

  /// Takes the photo now: the count ends at once and the shutter fires as soon as the
  /// camera is ready. When no count is running the presentation's gate refuses it, and the
  /// refusal is the ``note`` (`not now: no count is running`).
  public func takeNow() {
    if refused(.takeNow) { return }
    session?.takeNow()
  }

  /// Whether the presentation's gate (the one table every front end asks) refuses `action`
  /// now; a refusal is never silent: its reason becomes the note. The front ends ask
  /// ``FrontEndSession`` first and never call what it refuses.
  private func refused(_ action: PhotoTimerPresentation.Action) -> Bool {
    guard let reason = presentation().refusal(of: action) else { return false }
    post(note: "not now: \(reason)")
    return true
  }

  /// Cancels the run: the countdown, the camera, the location fix and the filter analysis
  /// stop, partial files are removed, and the status is `.idle` at once. A time-lapse ends.
  ///
  /// Nothing from the cancelled run changes the state afterwards.
  public func cancel() {
    runTask?.cancel()
    session = nil
    generation &+= 1
    state = PhotoTimerState()
    isSessionRunning = false
    note = nil
    publish(.cancelled)
  }

  /// The presentation of this moment (``PhotoTimerPresentation``), with what only the front
  /// end knows: whether its camera is still starting, and a problem that stops any start.
  ///
  /// - Parameters:
  ///   - cameraStarting: The front end's camera is still opening.
  ///   - problem: Why nothing can start, if anything.
  ///   - isOver: Nothing more will happen (the program is ending).
  ///   - framing: Framing between counts, when the front end frames before each count.
  ///   - audience: Who reads it: the keyboard's user, or a phone.
  ///   - faces: The faces followed in the picture now (the camera's people watcher).
  ///   - autoStart: The switch for a count that starts by itself, if the front end has one.
  /// - Returns: What every front end draws.
  public func presentation(
    cameraStarting: Bool = false, problem: String? = nil, isOver: Bool = false,
    framing: PhotoTimerPresentation.Framing? = nil,
    audience: PhotoTimerPresentation.Audience = .keyboard, faces: [FaceMark] = [],
    autoStart: Bool? = nil
  ) -> PhotoTimerPresentation {
    snapshot.presentation(
      cameraStarting: cameraStarting, problem: problem, isOver: isOver, framing: framing,
      audience: audience, faces: faces, autoStart: autoStart)
  }

  /// This moment of the model as a value.
  public var snapshot: Snapshot {
    Snapshot(
      state: state, note: note, isSessionRunning: isSessionRunning, hasRun: hasRun,
      photoTaken: photoTaken)
  }

  /// Every change of the model from now on, each with the model as it is just after it, in
  /// order: what a front end that is not observing the model (the terminal, a remote)
  /// draws from.
  ///
  /// The sequence buffers, so a slow consumer loses none; it ends when the model is
  /// released.
  package func updates() -> AsyncStream<Update> {
    let (stream, continuation) = AsyncStream.makeStream(of: Update.self)
    watchers.append(continuation)
    return stream
  }

  private func publish(_ cause: Update.Cause, published: ContinuousClock.Instant = .now) {
    guard !watchers.isEmpty else { return }
    let update = Update(cause: cause, snapshot: snapshot, published: published)
    watchers.removeAll { watcher in
      if case .terminated = watcher.yield(update) { return true }
      return false
    }
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

  /// A session's event: a run's is applied to the state; the rest become the note.
  private func apply(
    _ event: PhotoTimerSessionEvent, generation run: UInt64, published: ContinuousClock.Instant
  ) {
    switch event {
    case .run(let event, _): apply(event, generation: run)
    case .restarted: break
    case .timeLapseShot(let number, let total):
      if run == generation { note = "time-lapse: shot \(number) of \(total)" }
    case .timeLapseSkipped(let shots):
      let names =
        shots.count == 1
        ? "shot \(shots.lowerBound)" : "shots \(shots.lowerBound)–\(shots.upperBound)"
      if run == generation {
        note = "time-lapse: \(names) skipped: the shot before ran past their time"
      }
    }
    if run == generation { publish(.event(event), published: published) }
  }

  /// The session of `run` is over: nothing more will come of it.
  private func ended(_ result: PhotoTimerResult, generation run: UInt64) {
    guard run == generation else { return }
    isSessionRunning = false
    // NB: how often the count was restarted is news about that count only, not about its
    // photo or the next one.
    if note == Self.restartNote(restarts) { note = nil }
    publish(.ended(result))
  }

  /// The one place that writes state: only the current run's events are applied.
  private func apply(_ event: PhotoTimerEvent, generation run: UInt64) {
    if run == generation {
      if case .captured = event.kind { photoTaken = true }
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
