import PhotoTimer
import PhotoTimerConcurrency

extension LiveCamera {
  /// The people step for a camera that takes its photos itself (a DSLR through gphoto2): it
  /// follows the people on this live view, as ``CameraPipeline/peopleStep(finder:interval:)``
  /// does on a stream, and says who it sees (`3 people · 1 blinking`) until the shutter.
  ///
  /// The photo is the camera's own, taken when the count says: there is no ring of frames to
  /// choose from, so the shutter is never moved for a blink and the photo's `people` is what
  /// the live view showed last. A live view that pauses for the shot (the camera can stream
  /// or shoot, not both) leaves the last word as it was.
  ///
  /// ```swift
  /// let live = LiveCamera(GPhoto2LiveView(…))
  /// services.people = live.peopleStep { try await model.finder() }
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
    let run = LiveRun()
    return Preparation(isRequired: false, ready: { run.latest() }) {
      let latest = run.begin()
      StepStatus.report("face model still loading")
      let search = FaceSearch(finder: try await finder())
      StepStatus.report("waiting for the camera")
      let session = try await self.open()
      let watcher = PeopleWatcher(
        search: search, everywhereEvery: PeopleWatcher.duringCount, shown: self.faces)
      return try await watcher.followForStep(session, interval: interval, latest: latest)
    }
  }
}

/// What the live view's people step saw in the run under way: each run starts from nothing,
/// so a run's last word is never the run before's.
private final class LiveRun: Sendable {
  private let current = Locked(Locked<PeopleSummary?>(nil))

  /// A new run: its own summary, empty.
  func begin() -> Locked<PeopleSummary?> {
    let fresh = Locked<PeopleSummary?>(nil)
    current.withLock { $0 = fresh }
    return fresh
  }

  /// What the run under way saw last.
  func latest() -> PeopleSummary? {
    current.withLock { $0 }.withLock { $0 }
  }
}
