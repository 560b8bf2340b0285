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
    let search = watcher.search
    let halfFrame = frames.interval / 2
    let learned = atZero.eyesLearned
    // NB: the candidates before zero are the lead's; older frames only teach open eyes.
    let held = frames.held.filter { frames.instant - $0.timestamp <= Self.shutterLead }
    let older = frames.held.filter { frames.instant - $0.timestamp > Self.shutterLead }
    var picker = FramePicker(
      people: atZero.people, reference: atZero.sharpness, nearZero: halfFrame)
    var judged: [(frame: Frame, judgement: PeopleAtZero.Judgement)] = []
    /// Judges `frame`; `true` when it settles the choice.
    func judge(_ frame: Frame) async throws -> Bool {
      let offset = frame.timestamp - frames.instant
      let judgement = try await OffPool.runAbandoningOnCancel { isCancelled in
        try atZero.judge(frame, offset: offset, search: search, isCancelled: isCancelled)
      }
      judged.append((frame, judgement))
      let settles = picker.add(atZero.candidate(for: judgement))
      return learned && settles
    }
    do {
      var settled = false
      var seen = frames.delivered
      if let last = held.last, frames.instant - last.timestamp <= halfFrame,
        let frame = await last.read()
      {
        settled = try await judge(frame)
      }
      while !settled, let (sequence, frame) = try await frames.next(seen) {
        seen = sequence
        if frame.timestamp - frames.instant > blinkWindow { break }
        settled = try await judge(frame)
      }
      if !settled {
        let before = held.filter { frames.instant - $0.timestamp > halfFrame }
        let step = max(1, before.count / Self.framesBeforeZero)
        for held in before.reversed().enumerated().filter({ $0.offset % step == 0 })
          .prefix(Self.framesBeforeZero).map(\.element)
        {
          if let frame = await held.read(), try await judge(frame) { break }
        }
      }
    } catch let error where !(error is CancellationError) && !judged.isEmpty {
      // NB: the stream failed after frames were judged: the best of them is the photo.
    }
    if !learned {
      // NB: everyone's open eyes from the count's few looks, the window's and a few of the
      // ring's last second, then every frame of the window judged again against them.
      var lessons = judged.map(\.judgement)
      let step = max(1, older.count / Self.learningFrames)
      for held in older.enumerated().filter({ $0.offset % step == 0 })
        .prefix(Self.learningFrames).map(\.element)
      {
        guard let frame = await held.read() else { continue }
        let offset = frame.timestamp - frames.instant
        let lesson = try? await OffPool.runAbandoningOnCancel { isCancelled in
          try atZero.judge(frame, offset: offset, search: search, isCancelled: isCancelled)
        }
        if let lesson { lessons.append(lesson) }
      }
      try Task.checkCancellation()
      let relearned = atZero.learning(from: lessons)
      picker = FramePicker(
        people: atZero.people, reference: atZero.sharpness, nearZero: halfFrame)
      for (_, judgement) in judged { _ = picker.add(relearned.candidate(for: judgement)) }
    }
    guard let choice = picker.choice else { return nil }
    let kept = picker.candidates[choice.index]
    let summary = PeopleSummary(
      count: kept.faces, eyesClosed: kept.eyesClosed,
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
