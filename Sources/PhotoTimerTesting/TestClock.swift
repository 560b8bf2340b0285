import PhotoTimer

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

  private struct Sleeper {
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct Waiter {
    var id: UInt64
    var count: Int
    var continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var waiters: [Waiter] = []

    /// Takes the waiters whose count is now reached.
    mutating func satisfiedWaiters() -> [Waiter] {
      let count = sleepers.count
      let ready = waiters.filter { $0.count <= count }
      waiters.removeAll { $0.count <= count }
      return ready
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
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: (resume: Result<Void, any Error>?, waiters: [Waiter]) = state.withLock {
          state in
          // NB: checked under the lock that `onCancel` takes, so a cancel either sees this
          // sleeper registered or is seen here.
          if Task.isCancelled { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, state.satisfiedWaiters())
        }
        if let resume = outcome.resume { continuation.resume(with: resume) }
        for waiter in outcome.waiters { waiter.continuation.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
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
    let due = state.withLock { state -> [Sleeper] in
      state.now = max(state.now, instant)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }
    for sleeper in due { sleeper.continuation.resume() }
    return due.count
  }

  /// How many tasks are asleep on this clock now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The deadlines of the tasks asleep on this clock, earliest first.
  public var deadlines: [Duration] {
    state.withLock { $0.sleepers.map(\.deadline.offset).sorted() }
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
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          // NB: checked under the lock that `onCancel` takes, as in `sleep(until:)`.
          if state.sleepers.count >= count || Task.isCancelled { return true }
          state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index)
      }
      waiter?.continuation.resume()
    }
  }
}
