import PhotoTimer

/// The seed's design, reproduced only here as the baseline: `Task.sleep` per tick, a tuple
/// await of `async let` children, one stored task, and a `catch` that resets the status.
@MainActor
final class SeedViewModel {
  enum Status: Equatable {
    case idle
    case counting(Int)
    case captured
  }

  private(set) var status: Status = .idle
  /// When `run()` last returned, stamped in the run itself.
  private(set) var returned: ContinuousClock.Instant?
  private var timerTask: Task<Void, Never>?
  private let seconds: Int
  private let tick: Duration
  private let steps: (camera: Duration, location: Duration, filter: Duration)

  init(seconds: Int, tick: Duration, steps: (Duration, Duration, Duration)) {
    self.seconds = seconds
    self.tick = tick
    self.steps = steps
  }

  func startTimer() {
    timerTask?.cancel()
    timerTask = Task { [weak self] in await self?.run() }
  }

  func cancel() {
    timerTask?.cancel()
  }

  func waitForRun() async {
    await timerTask?.value
  }

  private func run() async {
    defer { returned = ContinuousClock.now }
    do {
      status = .counting(seconds)
      async let camera: Void = Task.sleep(for: steps.camera)
      async let location: Void = Task.sleep(for: steps.location)
      async let filter: Void = Task.sleep(for: steps.filter)
      for remaining in stride(from: seconds, to: 0, by: -1) {
        status = .counting(remaining)
        try await Task.sleep(for: tick)
      }
      _ = try await (camera, location, filter)
      status = .captured
    } catch {
      // The seed's bug: a cancelled run resets the status, even over a newer run's.
      status = .idle
    }
  }

  /// The seed's countdown loop alone, for the drift figure: the elapsed time of `ticks` ticks.
  static func naiveCountdown(ticks: Int, interval: Duration) async throws -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<ticks { try await Task.sleep(for: interval) }
    return start.duration(to: clock.now)
  }

  /// The preparations one after another, then the count: the sequential baseline.
  static func sequential(count: Duration, steps: [Duration]) async throws -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for step in steps { try await Task.sleep(for: step) }
    try await Task.sleep(for: count)
    return start.duration(to: clock.now)
  }
}
