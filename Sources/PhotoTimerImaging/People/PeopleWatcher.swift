import PhotoTimer
import PhotoTimerConcurrency

/// The people step's work during a count: it reads the camera's frames, looks for faces
/// (the whole frame now and then, else around the faces it follows), follows each person
/// with their own eye baseline, and says what it sees each time that changes.
///
/// Time is the frames' own timestamps, so a recorded sequence replays the same way. The
/// searching runs on the CPU executor at its low priority (`OffPool`), never on the
/// cooperative pool; a cancel returns at once, and the search stops at its next face.
public final class PeopleWatcher: Sendable {
  /// The search over the finder.
  public let search: FaceSearch
  /// How often the whole frame is searched (the first look always is): for newcomers while
  /// people are followed, for anyone while no one is.
  public let everywhereEvery: Duration
  /// Where each look is shown for the screens (the camera's ``LiveCamera/faces``), if any.
  public let shown: FacesInView?
  private let state = Locked(State())

  private struct State {
    var tracker = PeopleTracker()
    var lastEverywhere: Duration?
    var frames = 0
    /// The width of the last frame looked at: the tracker's boxes are in its pixels.
    var width = 0
    /// The sharpness of the faces in the last frames looked at (the newest last).
    var sharpness: [Double] = []
  }

  /// How often a count's people step searches the whole frame: during a count the people
  /// are mostly known, and following them is cheap beside a search everywhere, so newcomers
  /// are looked for every 2 s. (A count that waits for the group keeps the 1 s default: its
  /// rule wants the number steady for 1.5 s, so a newcomer must be seen within that.)
  public static let duringCount: Duration = .seconds(2)

  /// The least time between two frames a count's people step looks at: five looks a second
  /// follow a group and learn each person's open eyes. (Four cost only a few points of a
  /// core less with six faces at 720p, `make bench`: the regions' detection is the cost.)
  public static let lookEvery: Duration = .milliseconds(200)

  /// How many frames' face sharpness the reference at zero is taken over.
  static let sharpnessFrames = 9

  /// A watcher over `search`.
  ///
  /// - Parameters:
  ///   - search: The search over the face finder.
  ///   - everywhereEvery: How often the whole frame is searched (newcomers; with no one
  ///     followed, the only way anyone is found).
  ///   - shown: Where each look's faces are shown for the screens (taken down when a watch
  ///     ends), or `nil`.
  public init(
    search: FaceSearch, everywhereEvery: Duration = .seconds(1), shown: FacesInView? = nil
  ) {
    self.search = search
    self.everywhereEvery = everywhereEvery
    self.shown = shown
  }

  /// What it sees now.
  public var summary: PeopleSummary { state.withLock { $0.tracker.summary } }
  /// The people it follows now.
  public var people: [PeopleTracker.Person] { state.withLock { $0.tracker.people } }
  /// The tracker as it is now: every face followed, counted or not.
  public var tracker: PeopleTracker { state.withLock { $0.tracker } }
  /// How many frames it has looked at.
  public var frames: Int { state.withLock { $0.frames } }

  /// What it knows now, for judging the frames around zero; `nil` before its first frame.
  public var atZero: PeopleAtZero? {
    state.withLock { state in
      guard state.frames > 0 else { return nil }
      let sorted = state.sharpness.sorted()
      let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
      return PeopleAtZero(tracker: state.tracker, width: state.width, sharpness: median)
    }
  }

  /// Watches `frames` until they end or the task is cancelled, calling `report` with each
  /// new summary; returns the last.
  ///
  /// - Throws: `CancellationError` when cancelled; what the finder throws.
  public func watch<Frames: AsyncSequence & Sendable>(
    _ frames: Frames, report: @Sendable (PeopleSummary) -> Void
  ) async throws -> PeopleSummary where Frames.Element == Frame {
    defer { shown?.clear(by: self) }
    var said: PeopleSummary?
    for try await frame in frames {
      try Task.checkCancellation()
      let summary = try await look(at: frame)
      if summary != said {
        said = summary
        report(summary)
      }
    }
    try Task.checkCancellation()
    return summary
  }

  /// Waits until the people in `frames` are ready by `rule` (a count that starts itself):
  /// feeds it the people followed in each frame, calls `report` each time what it waits for
  /// changes, and returns once everyone is in and still.
  ///
  /// ```swift
  /// try await watcher.waitUntilReady(frames, rule: ReadyRule(wanted: 6)) { state in
  ///   show(state.description)  // "waiting for everyone: 4 of 6", "hold still"
  /// }
  /// model.startTimer()
  /// ```
  ///
  /// - Throws: `CancellationError` when cancelled or when the frames end first (the camera
  ///   closed); what the finder throws.
  public func waitUntilReady<Frames: AsyncSequence & Sendable>(
    _ frames: Frames, rule: ReadyRule, report: @Sendable (ReadyRule.State) -> Void
  ) async throws where Frames.Element == Frame {
    defer { shown?.clear(by: self) }
    var rule = rule
    var said: ReadyRule.State?
    for try await frame in frames {
      try Task.checkCancellation()
      try await look(at: frame)
      // NB: the people followed, not this frame's faces alone: a face the detector misses in
      // one frame is still in the group, and does not start the steady wait over.
      let state = rule.observe(tracker, at: frame.timestamp)
      if state != said {
        said = state
        report(state)
      }
      if state == .ready { return }
    }
    throw CancellationError()
  }

  /// Looks at one frame: searches it (everywhere when that is due, else around the people
  /// followed), follows who it finds, and returns what it sees now.
  @discardableResult
  private func look(at frame: Frame) async throws -> PeopleSummary {
    let (tracker, everywhere) = state.withLock { state -> (PeopleTracker, Bool) in
      // NB: the whole frame at most once an interval, people or not: with no one in the
      // picture, a search everywhere on every frame took a core (the search is the costly
      // part; following known faces is cheap). The first look searches it at once. With no one
      // followed the interval is the watcher's own too: a count's (2 s) finds people there
      // from its first look and a newcomer within 2 s, and an empty picture during a count
      // cost the window 1.57 times ffplay's CPU at a search a second (issue 50); a count
      // that waits for the group keeps its second.
      let due = state.lastEverywhere.map { frame.timestamp - $0 >= everywhereEvery } ?? true
      return (state.tracker, due)
    }
    let search = search
    // NB: a cancel returns at once: one pass of the detector over a whole frame cannot stop
    // halfway, and the run (the shutter, a cancel) must not wait for it. The look works on a
    // copy of the tracker; only this loop writes it back, one look at a time.
    let (looked, sharpness) = try await OffPool.runAbandoningOnCancel { isCancelled in
      var tracker = tracker
      let seen = try tracker.look(
        at: frame, search: search, everywhere: everywhere, time: frame.timestamp,
        isCancelled: isCancelled)
      let followed = Set(tracker.people.map(\.id))
      let boxes = seen.filter { followed.contains($0.person) }.map(\.box)
      return (tracker, boxes.isEmpty ? nil : frame.faceSharpness(boxes))
    }
    let (summary, people) = state.withLock { state in
      if everywhere { state.lastEverywhere = frame.timestamp }
      state.tracker = looked
      state.frames += 1
      state.width = frame.width
      if let sharpness {
        state.sharpness.append(sharpness)
        state.sharpness.removeFirst(max(0, state.sharpness.count - Self.sharpnessFrames))
      }
      return (state.tracker.summary, state.tracker.people)
    }
    if let shown, !Task.isCancelled {
      shown.show(Self.marks(people, width: frame.width, height: frame.height), by: self)
    }
    return summary
  }

  /// The people followed as marks on a frame of `width` × `height` pixels.
  static func marks(_ people: [PeopleTracker.Person], width: Int, height: Int) -> [FaceMark] {
    guard width > 0, height > 0 else { return [] }
    let across = Double(width)
    let down = Double(height)
    return people.map { person in
      FaceMark(
        x: person.box.x / across, y: person.box.y / down, width: person.box.width / across,
        height: person.box.height / down, eyes: person.eyesClosed ? .closed : .open)
    }
  }
}
