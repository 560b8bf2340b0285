/// The arithmetic of a drift-free countdown: tick k is due at start + k × interval.
///
/// Ticks are computed from absolute deadlines, never by adding one interval after each
/// wake-up, so a late wake-up does not push later ticks back. After a stall, the count shown
/// is the one for the current time: stale ticks are skipped, not replayed.
///
/// ```swift
/// let countdown = Countdown(ticks: 5, interval: .seconds(1))
/// countdown.remaining(at: .milliseconds(2300))      // 3
/// countdown.nextDeadline(after: .milliseconds(2300)) // 3 s
/// ```
package struct Countdown: Hashable, Sendable {
  /// The number of ticks from start to zero.
  public var ticks: Int
  /// The time between ticks.
  public var interval: Duration

  /// Creates a countdown.
  ///
  /// - Parameters:
  ///   - ticks: The number of ticks to zero; negative values count as 0.
  ///   - interval: The time between ticks; must be positive.
  public init(ticks: Int, interval: Duration) {
    self.ticks = max(0, ticks)
    self.interval = interval
  }

  /// The offset from the start at which zero is reached.
  public var zero: Duration { interval * ticks }

  /// The offset of tick `k` (tick `ticks` is zero).
  ///
  /// - Parameter tick: The tick number, from 0.
  /// - Returns: `interval × tick`.
  public func deadline(ofTick tick: Int) -> Duration { interval * tick }

  /// The number of whole ticks that have passed at `offset`, at most ``ticks``.
  ///
  /// - Parameter offset: The time since the start.
  /// - Returns: The ticks passed.
  public func ticksPassed(at offset: Duration) -> Int {
    guard offset > .zero else { return 0 }
    // NB: integer arithmetic, not Double division, so a wake-up exactly at a deadline counts
    // that tick as passed. (`Duration.attoseconds` would need macOS 26.)
    let passed = offset.wholeNanoseconds / max(1, interval.wholeNanoseconds)
    return passed >= Int64(ticks) ? ticks : Int(passed)
  }

  /// The count to show at `offset`: ``ticks`` at the start, 0 at and after zero.
  ///
  /// - Parameter offset: The time since the start.
  /// - Returns: The remaining count.
  public func remaining(at offset: Duration) -> Int { ticks - ticksPassed(at: offset) }

  /// The deadline of the first tick after `offset`, or `nil` when zero has been reached.
  ///
  /// - Parameter offset: The time since the start.
  /// - Returns: The next tick's offset from the start.
  public func nextDeadline(after offset: Duration) -> Duration? {
    let passed = ticksPassed(at: offset)
    return passed >= ticks ? nil : deadline(ofTick: passed + 1)
  }
}
