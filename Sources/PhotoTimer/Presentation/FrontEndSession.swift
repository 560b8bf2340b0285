/// What a person can do next, decided in one place for every front end: a pure state machine
/// (inputs in, effects out, nothing done) that the terminal, the window and any new screen
/// run unchanged.
///
/// It keeps what only the front end knows (its camera opening, a problem that stops any
/// start, the switch for a count that starts by itself and what that count waits for, whether
/// the program is ending) and answers every intent, from a key, a button, a GAction, a phone,
/// the count that starts itself or a signal, with ``Reply/accepted(_:)`` and the effects to
/// carry out, or ``Reply/refused(_:)`` and the reason in words. The front end's presentation
/// (``presentation(of:audience:framing:faces:)``) reads the same state, so what a screen
/// offers is exactly what the machine accepts. The front end is an effect runner: it opens
/// the camera, starts and cancels the model's runs, arms the people watch and draws.
///
/// ```swift
/// var session = FrontEndSession(.init(frames: true, holdsCamera: true, autoStart: false))
/// run(session.cameraOpened(model: model.snapshot))
/// switch session.ask(.start, model: model.snapshot) {
/// case .accepted(let effects): run(effects)      // [.stopWatching?, .startCount(seconds: nil)]
/// case .refused(let reason): show(reason)        // "the camera is still starting"
/// }
/// ```
public struct FrontEndSession: Equatable, Sendable {
  /// How a front end runs its sessions.
  public struct Configuration: Equatable, Sendable {
    /// Frames between counts and goes on after each photo (the window; the command with
    /// `--frame`, a remote or a count that starts itself); without it the first count starts
    /// as soon as the camera is open and the front end ends with that session.
    public var frames: Bool
    /// The screen holds a camera that opens before the first count (a preview, framing).
    public var holdsCamera: Bool
    /// A camera that cannot open, or that stops, ends the front end (the command) instead of
    /// being shown as a problem the user can fix by choosing another (the window).
    public var endsOnCameraFailure: Bool
    /// The switch for a count that starts by itself: on or off at first, or `nil` where
    /// there is none (no camera on screen to watch, the people step off).
    public var autoStart: Bool?
    /// A booth: each start is a session of shots with Keep and Retake and a collage at its
    /// end; `nil` for one photo per start.
    public var booth: BoothPlan?
    /// A camera that fails (unplugged, its stream ended) is opened again after this long, and
    /// again, until it opens (a booth that runs all evening: plugged back in, it resumes);
    /// `nil` leaves it failed until the user chooses. Only where failures do not end the
    /// front end.
    public var reopensCamera: Duration?

    /// Creates a configuration.
    public init(
      frames: Bool, holdsCamera: Bool, endsOnCameraFailure: Bool = true, autoStart: Bool? = nil
    ) {
      self.frames = frames
      self.holdsCamera = holdsCamera
      self.endsOnCameraFailure = endsOnCameraFailure
      self.autoStart = autoStart
    }
  }

  /// Where the front end is.
  public enum Phase: Equatable, Sendable {
    /// The camera and the model over it are being built (the window's camera menu).
    case building
    /// The screen's camera is opening; `takeNowAtStart`: take it now was asked meanwhile,
    /// so the photo is taken as soon as the count begins.
    case opening(takeNowAtStart: Bool)
    /// The camera is open (or none is held): counting, or framing between counts.
    case open
    /// An end was asked (a signal, quit) while a run went on: its cancel is on its way.
    case stopping
    /// Nothing more happens; `asked`: a signal, a quit or a close ended it.
    case over(asked: Bool)
  }

  /// What the front end carries out.
  public enum Effect: Equatable, Sendable {
    /// Start a session (``PhotoTimerViewModel/startTimer()``), with this count if given.
    case startCount(seconds: Int?)
    /// End the count now (``PhotoTimerViewModel/takeNow()``).
    case takeNow
    /// Cancel the session (``PhotoTimerViewModel/cancel()``).
    case cancelRun
    /// Count again from the top (``PhotoTimerViewModel/restart()``).
    case restartRun
    /// Watch the camera for the people, for the count that starts itself; `afterCount`: the
    /// picture must empty first (the group of the count just ended is still in it).
    case watchForPeople(afterCount: Bool)
    /// Stop watching for the people.
    case stopWatching
    /// The front end ends (the command's loop, once the run has released everything).
    case end
    /// A booth session of `shots` begins with this start.
    case boothStarted(shots: Int)
    /// Show the booth's shot `shot` with Keep and Retake; when `seconds` have passed, tell the
    /// machine (``reviewEnded(shot:model:)``): the shot is kept unless it was decided.
    case review(shot: Int, seconds: Int)
    /// The photo just taken is the session's shot `shot`, kept for the collage.
    case keepShot(Int)
    /// The photo just taken for shot `shot` is taken again: it is not in the collage.
    case discardShot(Int)
    /// Every shot is kept: draw the collage from the `shots` kept.
    case composeCollage(shots: Int)
    /// The booth session ended with `kept` shots kept; `complete` when its collage was made
    /// (a cancel or a failure keeps the kept shots and makes none).
    case boothEnded(kept: Int, complete: Bool)
    /// Build and open the camera again after this long (``Configuration/reopensCamera``).
    case reopenCamera(after: Duration)
    /// Print the last photo or collage (the print desk's ``PrintDesk/Intent/print``).
    case print
    /// Let the stopped printer go on (the print desk's ``PrintDesk/Intent/resume``).
    case resume
  }

  /// The answer to an intent.
  public enum Reply: Equatable, Sendable {
    /// Allowed: carry out these effects (none: the intent only changed what is shown).
    case accepted([Effect])
    /// Not now, and why, in words a screen shows (`a count is already running`).
    case refused(String)

    /// The effects, or none when refused.
    public var effects: [Effect] {
      if case .accepted(let effects) = self { return effects }
      return []
    }
  }

  /// What an intent comes with: a phone's count length, the switch's new state.
  public struct Choice: Equatable, Sendable {
    /// The count, in seconds, a start asks for.
    public var seconds: Int?
    /// The switch's new state; `nil` flips it.
    public var on: Bool?

    /// Creates a choice; by default none.
    public init(seconds: Int? = nil, on: Bool? = nil) {
      self.seconds = seconds
      self.on = on
    }
  }

  /// What the watch for the people says.
  public enum ReadyWord: Equatable, Sendable {
    /// Everyone is in and still.
    case ready
    /// What the count waits for, in words (`hold still`).
    case waiting(String)
    /// It cannot watch, and why.
    case unavailable(String)
  }

  /// How a session ended on its own.
  public enum RunEnd: Equatable, Sendable {
    /// A photo (and the session is over).
    case captured
    /// Cancelled.
    case cancelled
    /// Failed; `cameraGone`: the screen's camera stopped, so nothing can be framed.
    case failed(cameraGone: Bool)

    /// How a session ended that left the model at `status`: a photo, a failure (`cameraGone`
    /// when the screen's camera stopped with it), else a cancel.
    public init(after status: PhotoTimerStatus, cameraGone: Bool) {
      switch status {
      case .captured: self = .captured
      case .failed: self = .failed(cameraGone: cameraGone)
      default: self = .cancelled
      }
    }
  }

  /// The configuration.
  public let configuration: Configuration
  /// Where the front end is.
  public internal(set) var phase: Phase
  /// Why nothing can start (a camera that could not open), shown instead of the status.
  public internal(set) var problem: String?
  /// The switch for a count that starts by itself: on, off, or `nil` where there is none.
  public internal(set) var autoStart: Bool?
  /// The switch's last position, kept while a camera without it is in use.
  var remembered: Bool?
  /// Whether the model's session ran at its last change (``modelChanged(_:cameraGone:)``).
  var sessionRunning = false
  /// Whether the camera is being opened again by itself (``Configuration/reopensCamera``).
  var reopening = false
  /// The booth session under way, or `nil` outside one.
  public internal(set) var booth: BoothProgress?
  /// Printing, where the front end prints (`--print`): what its print desk allows now. The
  /// front end sets it whenever the desk changes; Print and Resume pass the gate by it.
  public var printing: PrintControls?
  /// What the count that starts itself waits for now, in words, while the switch is on and
  /// nothing counts.
  public internal(set) var waiting: String?
  /// The last intent refused, why, and the model it was refused against: the screen says the
  /// reason (as its note) until the model changes or another intent is answered.
  public internal(set) var refusal: (reason: String, model: PhotoTimerViewModel.Snapshot)?

  /// Whether two machines are in the same state.
  public static func == (lhs: FrontEndSession, rhs: FrontEndSession) -> Bool {
    lhs.configuration == rhs.configuration && lhs.phase == rhs.phase
      && lhs.problem == rhs.problem && lhs.autoStart == rhs.autoStart
      && lhs.waiting == rhs.waiting && lhs.refusal?.reason == rhs.refusal?.reason
      && lhs.refusal?.model == rhs.refusal?.model && lhs.booth == rhs.booth
      && lhs.reopening == rhs.reopening && lhs.printing == rhs.printing
  }

  /// A front end at its start: its camera opening (or being built), or open when it holds
  /// none.
  public init(_ configuration: Configuration) {
    self.configuration = configuration
    phase = configuration.holdsCamera ? .opening(takeNowAtStart: false) : .open
    autoStart = configuration.autoStart
  }

  /// Whether the front end has ended.
  public var isOver: Bool {
    if case .over = phase { return true }
    return false
  }

  /// Whether a signal, a quit or a close asked the front end to end.
  public var endAsked: Bool { phase == .stopping || phase == .over(asked: true) }

  /// Whether the camera is still being built or opened.
  public var cameraStarting: Bool {
    switch phase {
    case .building, .opening: true
    case .open, .stopping, .over: false
    }
  }

  // MARK: - The gate

  /// The presentation of `model` as this front end shows it: the one gate every intent
  /// passes (its ``PhotoTimerPresentation/actions``).
  ///
  /// - Parameters:
  ///   - model: The model's moment.
  ///   - audience: Who reads it.
  ///   - framing: What framing between counts says, when the front end frames.
  ///   - faces: The faces followed in the picture now.
  public func presentation(
    of model: PhotoTimerViewModel.Snapshot, audience: PhotoTimerPresentation.Audience = .keyboard,
    framing: PhotoTimerPresentation.Framing? = nil, faces: [FaceMark] = []
  ) -> PhotoTimerPresentation {
    let over =
      endAsked || isOver || !configuration.frames && model.hasRun && !model.isSessionRunning
    var framing = model.isSessionRunning || cameraStarting ? nil : framing
    if !model.isSessionRunning, let waiting {
      framing = framing ?? PhotoTimerPresentation.Framing()
      framing?.waiting = waiting
    }
    var context = model.context(
      cameraStarting: cameraStarting, problem: problem, isOver: over, framing: framing,
      audience: audience, startsWhenReady: !configuration.frames, faces: faces,
      autoStart: autoStart)
    context.booth = booth
    context.printing = printing
    // NB: a shot's run that has ended unheard (a key pressed before the front end told the
    // machine) allows only Cancel: a start or a restart then would begin a count the review
    // coming next knows nothing of.
    if settling(model) { context.booth?.settling = true }
    var shown = PhotoTimerPresentation(state: model.state, context: context)
    // NB: never in silence: a refused key or shortcut is answered on the screen itself.
    if let refusal, refusal.model == model { shown.note = "not now: \(refusal.reason)" }
    return shown
  }

  /// Asks for `action`: accepted with its effects when the gate allows it now, refused with
  /// the gate's reason otherwise.
  ///
  /// - Parameters:
  ///   - action: The intent.
  ///   - choice: What came with it.
  ///   - model: The model now.
  public mutating func ask(
    _ action: PhotoTimerPresentation.Action, choice: Choice = Choice(),
    model: PhotoTimerViewModel.Snapshot
  ) -> Reply {
    if let reason = presentation(of: model).refusal(of: action) {
      refusal = (reason, model)
      return .refused(reason)
    }
    refusal = nil
    switch action {
    case .start: return .accepted(startEffects(seconds: choice.seconds))
    case .takeNow:
      if model.isSessionRunning { return .accepted([.takeNow]) }
      // NB: allowed before the count only while the camera opens for a count that starts at
      // once: it is taken as soon as the count begins.
      phase = .opening(takeNowAtStart: true)
      return .accepted([])
    case .cancel:
      // NB: a shot shown for review (or about to be) has no run to cancel: the booth session
      // ends here.
      guard let progress = booth, progress.reviewing || settling(model) else {
        return .accepted([.cancelRun])
      }
      booth = nil
      return .accepted(
        [.cancelRun, .boothEnded(kept: progress.kept, complete: false)] + afterSession(model))
    case .restart: return .accepted([.restartRun])
    case .quit: return .accepted(end(model: model))
    case .autoStart:
      return .accepted(setAutoStart(choice.on ?? !(autoStart ?? false), model: model))
    case .keep: return .accepted(keep(model: model))
    case .print: return .accepted([.print])
    case .resume: return .accepted([.resume])
    case .retake: return .accepted(retake())
    }
  }

  /// A signal (or the window closing): the front end ends, cancelling a run first; never
  /// refused.
  public mutating func signal(model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    end(model: model)
  }

  private mutating func end(model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    waiting = nil
    if model.isSessionRunning {
      phase = .stopping
      return [.cancelRun]
    }
    phase = .over(asked: true)
    // NB: a booth's shot under review when the program ends: its session ends too, said.
    guard let progress = booth else { return [.end] }
    booth = nil
    return [.boothEnded(kept: progress.kept, complete: false), .end]
  }

  /// A session starts (a key, the phone, the group ready, a front end that starts at once): a
  /// booth's begins with its first shot.
  mutating func startEffects(seconds: Int?) -> [Effect] {
    problem = nil
    waiting = nil
    var effects: [Effect] = autoStart == true ? [.stopWatching] : []
    if let plan = configuration.booth {
      booth = BoothProgress(plan: plan)
      effects.append(.boothStarted(shots: plan.shots))
    }
    return effects + [.startCount(seconds: seconds)]
  }

  private mutating func setAutoStart(_ on: Bool, model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard autoStart != nil, autoStart != on else { return [] }
    autoStart = on
    guard on else {
      waiting = nil
      return [.stopWatching]
    }
    return watch(afterCount: false, model: model)
  }

  /// Watching begins only while framing: a count under way asks again when it ends.
  func watch(afterCount: Bool, model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard autoStart == true, phase == .open, !model.isSessionRunning else { return [] }
    return [.watchForPeople(afterCount: afterCount)]
  }

  /// The front end is up: with no camera of its own to open (a simulation, a camera each run
  /// opens for itself) the first count starts at once, framing or not: there is nothing to
  /// frame on.
  public mutating func begin(model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard phase == .open, !configuration.holdsCamera else { return [] }
    return startEffects(seconds: nil)
  }
}
