extension PhotoTimerViewModel {
  /// One moment of a view model as a value: everything its presentation is made from.
  public struct Snapshot: Hashable, Sendable {
    /// The current run's phase, reports and statuses (``PhotoTimerViewModel/state``).
    public var state: PhotoTimerState
    /// The latest news from outside the run (``PhotoTimerViewModel/note``).
    public var note: String?
    /// Whether a session is under way (``PhotoTimerViewModel/isSessionRunning``).
    public var isSessionRunning: Bool
    /// Whether a run has started since the model was made (``PhotoTimerViewModel/hasRun``).
    public var hasRun: Bool
    /// Whether the session under way has taken a photo: a time-lapse goes on, and a restart
    /// would no longer count from the top (``PhotoTimerViewModel/restart()``).
    public var photoTaken = false

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - state: The run's state.
    ///   - note: The note.
    ///   - isSessionRunning: Whether a session is under way.
    ///   - hasRun: Whether a run has started.
    public init(
      state: PhotoTimerState = PhotoTimerState(), note: String? = nil,
      isSessionRunning: Bool = false, hasRun: Bool = false
    ) {
      self.state = state
      self.note = note
      self.isSessionRunning = isSessionRunning
      self.hasRun = hasRun
    }

    /// Creates a snapshot of a session that has taken a photo, or not.
    ///
    /// - Parameters:
    ///   - state: The run's state.
    ///   - note: The note.
    ///   - isSessionRunning: Whether a session is under way.
    ///   - hasRun: Whether a run has started.
    ///   - photoTaken: Whether the session under way has taken a photo.
    public init(
      state: PhotoTimerState = PhotoTimerState(), note: String? = nil,
      isSessionRunning: Bool = false, hasRun: Bool = false, photoTaken: Bool
    ) {
      self.init(state: state, note: note, isSessionRunning: isSessionRunning, hasRun: hasRun)
      self.photoTaken = photoTaken
    }

    /// The presentation of this moment, with what only the front end knows.
    ///
    /// - Parameters:
    ///   - cameraStarting: The front end's camera is still opening.
    ///   - problem: Why nothing can start, if anything.
    ///   - isOver: Nothing more will happen (the program is ending).
    ///   - framing: Framing between counts, when the front end frames before each count.
    ///   - audience: Who reads it: the keyboard's user, or a phone.
    ///   - startsWhenReady: The count starts by itself once the camera is open.
    ///   - faces: The faces followed in the picture now (the camera's people watcher).
    ///   - autoStart: The switch for a count that starts by itself, if the front end has one.
    /// - Returns: What every front end draws.
    public func presentation(
      cameraStarting: Bool = false, problem: String? = nil, isOver: Bool = false,
      framing: PhotoTimerPresentation.Framing? = nil,
      audience: PhotoTimerPresentation.Audience = .keyboard, startsWhenReady: Bool = false,
      faces: [FaceMark] = [], autoStart: Bool? = nil
    ) -> PhotoTimerPresentation {
      PhotoTimerPresentation(
        state: state,
        context: context(
          cameraStarting: cameraStarting, problem: problem, isOver: isOver, framing: framing,
          audience: audience, startsWhenReady: startsWhenReady, faces: faces,
          autoStart: autoStart))
    }

    /// The presentation's context for this moment, with what only the front end knows.
    func context(
      cameraStarting: Bool, problem: String?, isOver: Bool,
      framing: PhotoTimerPresentation.Framing?, audience: PhotoTimerPresentation.Audience,
      startsWhenReady: Bool, faces: [FaceMark], autoStart: Bool?
    ) -> PhotoTimerPresentation.Context {
      var betweenShots = false
      if isSessionRunning, case .captured = state.status { betweenShots = true }
      var context = PhotoTimerPresentation.Context(
        cameraStarting: cameraStarting, problem: problem, hasRun: hasRun, isOver: isOver,
        framing: framing, note: note, betweenShots: betweenShots, audience: audience,
        startsWhenReady: startsWhenReady, faces: faces, autoStart: autoStart)
      context.photoTaken = isSessionRunning && photoTaken
      return context
    }
  }

  /// A change of a view model, with the model just after it (``updates()``).
  package struct Update: Sendable {
    /// What changed the model.
    package enum Cause: Sendable, Equatable {
      /// A session started (``startTimer()``, ``restart()``).
      case started
      /// An event of the current session.
      case event(PhotoTimerSessionEvent)
      /// The note was posted (``post(note:)``).
      case note
      /// The session was cancelled (``cancel()``).
      case cancelled
      /// The current session ended on its own, with this result.
      case ended(PhotoTimerResult)
    }

    /// What changed the model.
    package var cause: Cause
    /// The model just after it.
    package var snapshot: Snapshot
    /// When the change was made (for a session's event: when the session published it, on
    /// the continuous clock whatever clock the model keeps time with), to measure how long
    /// it took to reach the screen.
    package var published: ContinuousClock.Instant

    /// Creates an update.
    package init(cause: Cause, snapshot: Snapshot, published: ContinuousClock.Instant = .now) {
      self.cause = cause
      self.snapshot = snapshot
      self.published = published
    }
  }
}
