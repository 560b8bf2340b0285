/// How long the count is and how long the shutter may wait for the camera.
public struct PhotoTimerConfiguration: Hashable, Sendable {
  /// The countdown in whole ticks; 0 shoots as soon as the camera is ready.
  public var countdownSeconds: Int
  /// The length of one tick: one second for people, shorter in benchmarks.
  public var tickInterval: Duration
  /// How long the shutter waits at zero for required steps before the run fails.
  public var cameraWaitLimit: Duration
  /// Whether the preparations run during the count (the default) or one after another
  /// before it.
  public var preparation: PreparationOrder

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - countdownSeconds: The count; negative values count as 0.
  ///   - tickInterval: The length of one tick; non-positive values count as one second.
  ///   - cameraWaitLimit: The bound on waiting at zero; negative values count as 0.
  ///   - preparation: Concurrent (default) or sequential preparations.
  public init(
    countdownSeconds: Int = 5, tickInterval: Duration = .seconds(1),
    cameraWaitLimit: Duration = .seconds(10), preparation: PreparationOrder = .concurrent
  ) {
    self.preparation = preparation
    self.countdownSeconds = max(0, countdownSeconds)
    self.tickInterval = tickInterval > .zero ? tickInterval : .seconds(1)
    self.cameraWaitLimit = max(.zero, cameraWaitLimit)
  }
}
