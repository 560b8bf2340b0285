import PhotoTimer

/// A count that starts itself (`--start-when-ready`): while the screen frames the shot, it
/// watches the running camera for the people and says when the group is in and still.
///
/// It borrows the stream the screen holds (no second reader of the device), looks at five
/// frames a second at most on the CPU executor, and follows people as the people step does
/// (``PeopleWatcher``): the whole frame once a second, else around the faces it knows. The
/// face model is the one the people step uses, loaded once per process.
///
/// ```swift
/// let watch = ReadyWatch(camera: camera, wanted: nil) { try await model.finder() }
/// try await watch.wait(afterCount: false) { state in show(state.description) }
/// viewModel.startTimer()
/// ```
public struct ReadyWatch: Sendable {
  /// The camera the screen holds.
  public let camera: LiveCamera
  /// How many people to wait for, or `nil` for at least one and a steady number.
  public let wanted: Int?
  /// The least time between two frames looked at, on the frames' clock.
  public let interval: Duration
  /// The face finder; awaited at each wait (a model loaded once per process).
  public let finder: @Sendable () async throws -> any FaceFinder

  /// A watch over `camera`.
  ///
  /// - Parameters:
  ///   - camera: The camera the screen holds.
  ///   - wanted: How many people to wait for; `nil` for at least one, their number steady.
  ///   - interval: The least time between two frames looked at (default 200 ms).
  ///   - finder: The face finder.
  public init(
    camera: LiveCamera, wanted: Int?, interval: Duration = .milliseconds(200),
    finder: @escaping @Sendable () async throws -> any FaceFinder
  ) {
    self.camera = camera
    self.wanted = wanted
    self.interval = interval
    self.finder = finder
  }

  /// Waits until the group is in and still, saying what it waits for each time that changes
  /// (`face model still loading`, `waiting for everyone: 4 of 6`, `hold still`).
  ///
  /// - Parameters:
  ///   - afterCount: A count has just ended: the picture must empty first (see
  ///     ``ReadyRule``).
  ///   - report: Called with each new state; the last is ``ReadyRule/State/ready``.
  /// - Throws: `CancellationError` when cancelled or when the camera closes; what the finder
  ///   throws (a face model that is not installed).
  public func wait(
    afterCount: Bool, report: @escaping @Sendable (ReadyRule.State) -> Void
  ) async throws {
    // NB: after a count the model is in: saying it loads would flash a line for nothing.
    if !afterCount { report(.waiting("face model still loading")) }
    let search = FaceSearch(finder: try await finder())
    let session = try await camera.open()
    let watcher = PeopleWatcher(search: search, shown: camera.faces)
    try await watcher.waitUntilReady(
      PacedFrames(session: session, interval: interval),
      rule: ReadyRule(wanted: wanted, afterCount: afterCount), report: report)
  }
}
