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
    interval: Duration = .milliseconds(200)
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
      StepStatus.report("looking for people")
      let watcher = PeopleWatcher(search: search)
      return try await watcher.watch(PacedFrames(session: session, interval: interval)) {
        summary in
        run.people.withLock { $0 = summary }
        StepStatus.report(summary.description)
      }
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
