import PhotoTimer
import PhotoTimerConcurrency

/// A clock whose time moves only when a test says so.
///
/// Sleepers suspend until ``advance(by:)`` or `advance(to:)` moves `now` to or past their
/// deadline. A test never sleeps for real "to let a task start": it waits until the code
/// under test is asleep on this clock (``waitForSleepers(_:)``), then moves time, and at the
/// end checks that nothing is left sleeping (``sleeperCount``).
///
/// ```swift
/// let clock = TestClock()
/// let model = PhotoTimerViewModel(
///   countdownSeconds: 5, services: .simulated(clock: clock), clock: clock)
/// model.startTimer()
/// await clock.waitForSleepers(4)   // the first tick and the three steps
/// clock.advance(to: .seconds(1))
/// ```
public final class TestClock: Clock, Sendable {
  /// A point on a test clock: the time since the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's zero.
    public var offset: Duration

    /// Creates an instant.
    ///
    /// - Parameter offset: The time since the clock's zero.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: The time to add.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: The difference.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    /// The offset, for example `1.4 seconds`.
    public var description: String { "\(offset)" }
  }

  private struct State: Sendable {
    var now = Instant(offset: .zero)
    /// The sleeping tasks, each tagged with its deadline.
    var sleepers = Waiters<Void, Instant>()
    /// The tasks waiting for a number of sleepers, each tagged with that number.
    var waiters = Waiters<Void, Int>()

    /// Takes the waiters whose count is now reached.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, any Error>] {
      let count = sleepers.count
      return waiters.take { $0 <= count }.map(\.continuation)
    }
  }

  // NB: every mutable field lives behind this lock; continuations are resumed outside it.
  private let state = Locked(State())

  /// Creates a clock at offset zero.
  public init() {}

  /// The current instant; it changes only through ``advance(by:)`` and `advance(to:)`.
  public var now: Instant { state.withLock { $0.now } }

  /// The clock's resolution: exact.
  public var minimumResolution: Duration { .zero }

  /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the
  /// task is cancelled first.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at. A deadline not after `now` returns at once.
  ///   - tolerance: Ignored: a test clock is exact.
  /// - Throws: `CancellationError` if the task is cancelled before the deadline.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    try await state.park(\.sleepers, tag: deadline) { state in
      deadline <= state.now ? .success(()) : nil
    } parked: { state in
      state.satisfiedWaiters().map { waiter in { waiter.resume() } }
    }
  }

  /// Moves time forward by `duration` and wakes every sleeper whose deadline has come.
  ///
  /// - Parameter duration: How far to move; negative durations are ignored.
  /// - Returns: How many sleepers were woken.
  @discardableResult
  public func advance(by duration: Duration) -> Int {
    advance(to: now.advanced(by: max(.zero, duration)))
  }

  /// Moves time to `offset` from the clock's zero and wakes every sleeper due by then.
  ///
  /// - Parameter offset: The new time; a time before `now` leaves the clock where it is.
  /// - Returns: How many sleepers were woken.
  @discardableResult
  public func advance(to offset: Duration) -> Int {
    advance(to: Instant(offset: offset))
  }

  /// Moves time to `instant` and wakes every sleeper due by then, earliest first.
  ///
  /// - Parameter instant: The new time; an instant before `now` leaves the clock where it is.
  /// - Returns: How many sleepers were woken.
  @discardableResult
  public func advance(to instant: Instant) -> Int {
    let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
      state.now = max(state.now, instant)
      let now = state.now
      // NB: a stable sort: earliest first, and in the order they fell asleep for the same one.
      return state.sleepers.take { $0 <= now }.enumerated()
        .sorted { ($0.element.tag, $0.offset) < ($1.element.tag, $1.offset) }
        .map(\.element.continuation)
    }
    for sleeper in due { sleeper.resume() }
    return due.count
  }

  /// How many tasks are asleep on this clock now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The deadlines of the tasks asleep on this clock, earliest first.
  public var deadlines: [Duration] {
    state.withLock { $0.sleepers.tags.map(\.offset).sorted() }
  }

  /// Waits until at least `count` tasks are asleep on this clock.
  ///
  /// This is how a test knows the code under test has reached its sleeps, without a real
  /// sleep: it resumes exactly when the `count`-th sleeper registers. It also returns when
  /// the task is cancelled (a test's time limit), so that a sleeper that never comes fails
  /// the test instead of holding up the whole run.
  ///
  /// - Parameter count: The number of sleepers to wait for.
  public func waitForSleepers(_ count: Int) async {
    // NB: a cancelled wait returns (the `try?`): a test's time limit then fails the test.
    try? await state.park(\.waiters, tag: count) { state in
      state.sleepers.count >= count ? .success(()) : nil
    }
  }
}
