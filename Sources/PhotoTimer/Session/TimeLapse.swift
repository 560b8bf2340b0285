/// A time-lapse: after the first photo, further shots on a fixed schedule.
///
/// Shot k (from 0) is due at the first shot's shutter + k × ``interval``: deadlines are
/// absolute, so a late shot never pushes the later ones back. Each later shot's run starts
/// ``lead(preparation:)`` before its deadline and counts one tick of that length, so its
/// shutter lands on the deadline itself. A shot whose moment has already passed when the one
/// before it finishes (a slow capture, say) is skipped, not taken late.
///
/// ```swift
/// let lapse = TimeLapse(interval: .seconds(10), count: 100)
/// lapse.deadline(ofShot: 3, first: .seconds(5))             // 35 s
/// lapse.nextShot(after: 3, first: .seconds(5), now: .seconds(48))  // 5: shot 4 is skipped
/// ```
public struct TimeLapse: Hashable, Sendable {
  /// The time between shots.
  public var interval: Duration
  /// How many shots in all, the first included.
  public var count: Int
  /// Added to the camera's preparation time to make a shot's lead.
  public static let margin = Duration.milliseconds(500)

  /// Creates a time-lapse.
  ///
  /// - Parameters:
  ///   - interval: The time between shots; must be positive.
  ///   - count: How many shots in all, at least 1.
  public init(interval: Duration, count: Int) {
    self.interval = interval > .zero ? interval : .seconds(1)
    self.count = max(1, count)
  }

  /// When shot `shot` (from 0) is due.
  ///
  /// - Parameters:
  ///   - shot: The shot's number, from 0 (the first photo).
  ///   - first: When the first photo's shutter fired.
  /// - Returns: `first + shot × interval`.
  public func deadline(ofShot shot: Int, first: Duration) -> Duration {
    first + interval * shot
  }

  /// How long before its deadline a shot's run starts: the camera's preparation time (as
  /// measured on the shot before) and a margin, at most one interval.
  ///
  /// - Parameter preparation: How long the camera took to be ready last time.
  /// - Returns: The lead.
  public func lead(preparation: Duration) -> Duration {
    min(max(preparation, .zero) + Self.margin, interval)
  }

  /// The next shot to take after `shot`, when it is `now`: the first later shot whose
  /// deadline has not passed yet, or `nil` when the time-lapse is over.
  ///
  /// - Parameters:
  ///   - shot: The shot just taken, from 0.
  ///   - first: When the first photo's shutter fired.
  ///   - now: The time now, on the same axis.
  /// - Returns: The next shot's number, or `nil`.
  public func nextShot(after shot: Int, first: Duration, now: Duration) -> Int? {
    var next = shot + 1
    while next < count, deadline(ofShot: next, first: first) <= now { next += 1 }
    return next < count ? next : nil
  }
}
