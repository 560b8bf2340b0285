import PhotoTimer
import PhotoTimerConcurrency

extension CameraPipeline {
  /// The people step: once the camera has settled, it follows the people in the running
  /// stream until the shutter, and says who it sees each time that changes (`3 people ·
  /// eyes open`, `3 people · 1 blinking`).
  ///
  /// It never finishes by itself: at the shutter the engine takes its last word (the
  /// summary of the last frame it looked at) and cancels it. Before it has looked at a
  /// frame the photo goes without it, and the step says why (`face model still loading`,
  /// `waiting for the camera`). Frames are looked at no closer together than `interval`
  /// (five a second by default): the search runs on the CPU executor, below the countdown's
  /// priority, and this keeps its share of a core small.
  ///
  /// ```swift
  /// let people = pipeline.peopleStep { try await model.finder() }
  /// let services = pipeline.services(location: location, people: people)
  /// ```
  ///
  /// - Parameters:
  ///   - finder: The face finder; awaited once per run (a model loaded once per process).
  ///   - interval: The least time between two frames looked at, on the frames' clock.
  /// - Returns: The step, optional.
  public func peopleStep(
    finder: @escaping @Sendable () async throws -> any FaceFinder,
    interval: Duration = PeopleWatcher.lookEvery
  ) -> Preparation<PeopleSummary> {
    Preparation(
      isRequired: false, ready: { self.current.withLock { $0 }?.people.withLock { $0 } }
    ) {
      let run = self.run()
      StepStatus.report("face model still loading")
      let search = FaceSearch(finder: try await finder())
      StepStatus.report("waiting for the camera")
      _ = try await run.preview.value()
      guard let session = run.session.withLock({ $0 }) else { throw CancellationError() }
      // NB: a camera the screen shows (a live camera) gets the faces outlined over its
      // previews; the photo never carries them.
      let watcher = PeopleWatcher(
        search: search, everywhereEvery: PeopleWatcher.duringCount, shown: self.source.facesInView)
      run.watcher.withLock { $0 = watcher }
      return try await watcher.followForStep(session, interval: interval, latest: run.people)
    }
  }

  /// How long before zero the frames the photo may come from start.
  static var shutterLead: Duration { .milliseconds(250) }
  /// How many frames before zero are judged when none from zero on passed.
  static var framesBeforeZero: Int { 3 }
  /// How far back the ring is read to learn the people's open eyes when the count did not.
  static var learningLead: Duration { .seconds(1) }
  /// How many of those frames are looked at, spread over them.
  static var learningFrames: Int { 5 }

  /// The photo's frame when the people step follows someone at zero: judged frame by frame
  /// from zero on (the newest each time: a judge slower than the stream skips frames), the
  /// first where everyone is there with open eyes and sharp kept at once, else a few frames
  /// before zero judged too and the best kept; with who is in it and why it was kept. When the
  /// count looked too seldom to know everyone's open eyes (a busy machine), nothing is kept
  /// early: the whole window is judged, their open eyes learned from it and from the ring's
  /// last second before zero (a window seen only shut would teach shut eyes as open), and
  /// every frame judged again. `nil` when there is no choice to make: no window, a burst, no one followed
  /// (the step late or off), or a camera without a stream of frames to choose from.
  ///
  /// - Throws: `CancellationError` when cancelled; why the stream failed, if it failed
  ///   before a frame was judged (after, the best judged so far is kept).
  func peopleFrame(
    _ session: any CameraSession, run: Run
  ) async throws -> (Frame, PeopleSummary)? {
    guard blinkWindow > .zero, burst == 1, let watcher = run.watcher.withLock({ $0 }),
      let atZero = watcher.atZero, atZero.people > 0,
      let frames = try await session.shutterFrames(
        lead: atZero.eyesLearned ? Self.shutterLead : max(Self.shutterLead, Self.learningLead))
    else { return nil }
    var around = FramesAroundZero(
      atZero: atZero, search: watcher.search, frames: frames, lead: Self.shutterLead)
    try await around.judge(window: blinkWindow, before: Self.framesBeforeZero)
    if !atZero.eyesLearned { try await around.relearn(looking: Self.learningFrames) }
    return around.choice
  }
}

/// The frames around zero as the people step judges them: each looked at for the people it
/// followed, and the choice among those judged so far.
struct FramesAroundZero {
  /// What the step knew at zero.
  let atZero: PeopleAtZero
  /// The search that looks at each frame.
  let search: FaceSearch
  /// The ring's frames around zero.
  let frames: ShutterFrames
  /// The ring's frames before zero that may be the photo; older ones only teach open eyes.
  let candidatesBefore: [ShutterFrames.Held]
  /// The ring's frames older than those.
  let older: [ShutterFrames.Held]
  /// The choice so far.
  private(set) var picker: FramePicker
  /// Each frame judged, in the order judged.
  private(set) var judged: [(frame: Frame, judgement: PeopleAtZero.Judgement)] = []

  /// The frames of `frames`, the candidates before zero those `lead` before it at most.
  init(atZero: PeopleAtZero, search: FaceSearch, frames: ShutterFrames, lead: Duration) {
    self.atZero = atZero
    self.search = search
    self.frames = frames
    candidatesBefore = frames.held.filter { frames.instant - $0.timestamp <= lead }
    older = frames.held.filter { frames.instant - $0.timestamp > lead }
    picker = Self.emptyPicker(atZero, frames)
  }

  /// Half the stream's frame interval: a frame that much before zero is the frame at zero.
  var halfFrame: Duration { frames.interval / 2 }

  /// A choice with nothing judged yet.
  private static func emptyPicker(_ atZero: PeopleAtZero, _ frames: ShutterFrames) -> FramePicker {
    FramePicker(people: atZero.people, reference: atZero.sharpness, nearZero: frames.interval / 2)
  }

  /// Judges frame by frame from zero on (the newest each time: a judge slower than the
  /// stream skips frames) until one settles the choice or `window` after zero has passed;
  /// then, if none settled it, up to `before` frames before zero, newest first. Nothing
  /// settles it early while everyone's open eyes are still to be learned.
  ///
  /// - Throws: `CancellationError` when cancelled; why the stream failed, if it failed
  ///   before a frame was judged (after, the judging ends with what it has).
  mutating func judge(window: Duration, before: Int) async throws {
    do {
      var settled = false
      var seen = frames.delivered
      if let last = candidatesBefore.last, frames.instant - last.timestamp <= halfFrame,
        let frame = await last.read()
      {
        settled = try await judge(frame)
      }
      while !settled, let (sequence, frame) = try await frames.next(seen) {
        seen = sequence
        if frame.timestamp - frames.instant > window { break }
        settled = try await judge(frame)
      }
      if !settled {
        let earlier = candidatesBefore.filter { frames.instant - $0.timestamp > halfFrame }
        let step = max(1, earlier.count / before)
        for held in earlier.reversed().enumerated().filter({ $0.offset % step == 0 })
          .prefix(before).map(\.element)
        {
          if let frame = await held.read(), try await judge(frame) { break }
        }
      }
    } catch let error where !(error is CancellationError) && !judged.isEmpty {
      // NB: the stream failed after frames were judged: the best of them is the photo.
    }
  }

  /// Judges `frame`; `true` when it settles the choice.
  private mutating func judge(_ frame: Frame) async throws -> Bool {
    let judgement = try await look(at: frame)
    judged.append((frame, judgement))
    let settles = picker.add(atZero.candidate(for: judgement))
    return atZero.eyesLearned && settles
  }

  /// What `frame` shows of the people followed, off the cooperative pool.
  private func look(at frame: Frame) async throws -> PeopleAtZero.Judgement {
    let offset = frame.timestamp - frames.instant
    let (atZero, search) = (atZero, search)
    return try await OffPool.runAbandoningOnCancel { isCancelled in
      try atZero.judge(frame, offset: offset, search: search, isCancelled: isCancelled)
    }
  }

  /// When the count looked too seldom to know everyone's open eyes: learns them from the
  /// frames judged and from `looking` frames spread over the ring's older ones (a window
  /// seen only shut would teach shut eyes as open), then judges every frame again.
  ///
  /// - Throws: `CancellationError` when cancelled.
  mutating func relearn(looking count: Int) async throws {
    var lessons = judged.map(\.judgement)
    let step = max(1, older.count / count)
    for held in older.enumerated().filter({ $0.offset % step == 0 }).prefix(count)
      .map(\.element)
    {
      guard let frame = await held.read() else { continue }
      if let lesson = try? await look(at: frame) { lessons.append(lesson) }
    }
    try Task.checkCancellation()
    let relearned = atZero.learning(from: lessons)
    picker = Self.emptyPicker(atZero, frames)
    for (_, judgement) in judged { _ = picker.add(relearned.candidate(for: judgement)) }
  }

  /// The frame kept, with who is in it and why; `nil` when none was judged.
  var choice: (Frame, PeopleSummary)? {
    guard let choice = picker.choice else { return nil }
    let kept = picker.candidates[choice.index]
    let summary = PeopleSummary(
      count: kept.faces, eyesClosed: kept.eyesClosed, lookingAway: kept.lookingAway,
      frame: KeptFrame(offset: choice.offset, passed: choice.passed, reason: choice.reason))
    return (judged[choice.index].frame, summary)
  }
}

extension PeopleWatcher {
  /// The people step's own watching, on any camera's session: says it looks, then follows
  /// the people on frames at most `interval` apart, keeping each new summary in `latest`
  /// (the step's last word at the shutter) and saying it as the step's status. Never ends by
  /// itself: the shutter cancels it.
  func followForStep(
    _ session: any CameraSession, interval: Duration, latest: Locked<PeopleSummary?>
  ) async throws -> PeopleSummary {
    StepStatus.report("looking for people")
    return try await watch(PacedFrames(session: session, interval: interval)) { summary in
      latest.withLock { $0 = summary }
      StepStatus.report(summary.description)
    }
  }
}

/// A session's frames, none closer together than `interval`: the frames in between are
/// read and let go.
struct PacedFrames: AsyncSequence, Sendable {
  typealias Element = Frame

  let session: any CameraSession
  let interval: Duration

  func makeAsyncIterator() -> Iterator { Iterator(session: session, interval: interval) }

  struct Iterator: AsyncIteratorProtocol {
    let session: any CameraSession
    let interval: Duration
    var last: Duration?

    mutating func next() async throws -> Frame? {
      while true {
        try Task.checkCancellation()
        let frame = try await session.nextFrame()
        if let last, frame.timestamp - last < interval, frame.timestamp >= last { continue }
        last = frame.timestamp
        return frame
      }
    }
  }
}
