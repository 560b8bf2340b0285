import Foundation
import PhotoTimer

/// A position good enough for the geotag.
public struct GPSFix: Hashable, Sendable {
  /// Where; the altitude is set for a 3-D fix only.
  public var coordinate: Coordinate
  /// The estimated horizontal error in metres, when gpsd reported one.
  public var horizontalError: Double?
  /// The fix's own GPS time, when reported; it goes into the EXIF GPS date and time.
  public var time: Date?
}

/// Which position reports are good enough to geotag a photo.
///
/// A report needs a 2-D or 3-D fix, finite coordinates in range, and a horizontal error
/// within ``maximumHorizontalError`` when gpsd reports one. Freshness is the age since the
/// report was *received*: the fix's GPS time is not compared with the system clock, which
/// is often wrong on boards without a real-time clock. A disagreement of more than a minute
/// is noted instead.
///
/// ```swift
/// let policy = FixPolicy(maximumAge: .seconds(10), maximumHorizontalError: 100)
/// switch policy.assess(report, receivedAgo: .zero) { … }
/// ```
public struct FixPolicy: Hashable, Sendable {
  /// The oldest a report may be, counted from when it was received.
  public var maximumAge: Duration
  /// The largest acceptable horizontal error in metres.
  public var maximumHorizontalError: Double

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - maximumAge: The oldest acceptable report, from when it was received (default 10 s).
  ///   - maximumHorizontalError: The largest acceptable error in metres (default 100 m).
  public init(maximumAge: Duration = .seconds(10), maximumHorizontalError: Double = 100) {
    self.maximumAge = maximumAge
    self.maximumHorizontalError = maximumHorizontalError
  }

  /// What the policy makes of one report.
  public enum Assessment: Hashable, Sendable {
    /// Good enough; `note` says when the GPS time disagrees with the system clock.
    case accepted(GPSFix, note: String?)
    /// Not good enough, with the reason a person reads ("no fix yet: …").
    case rejected(String)
  }

  /// Judges one report.
  ///
  /// - Parameters:
  ///   - report: The report.
  ///   - receivedAgo: How long ago it was received.
  ///   - now: The system clock's time, only to note a disagreement with the GPS time; `nil`
  ///     skips that check.
  /// - Returns: Accepted with the fix, or rejected with the reason.
  public func assess(
    _ report: PositionReport, receivedAgo: Duration, now: Date? = nil
  )
    -> Assessment
  {
    guard report.mode >= 2 else { return .rejected("no fix yet: the receiver has no position") }
    guard let latitude = report.latitude, let longitude = report.longitude,
      latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude),
      (-180...180).contains(longitude)
    else { return .rejected("gpsd reported a position out of range") }
    guard receivedAgo <= maximumAge else {
      return .rejected("last fix \(receivedAgo.formattedSeconds(fractionDigits: 0)) s old")
    }
    if let error = report.horizontalError, error.isFinite, error > maximumHorizontalError {
      return .rejected(
        "fix too imprecise: ±\(Int(error.rounded())) m (at most \(Int(maximumHorizontalError)) m)")
    }
    let altitude = report.mode >= 3 ? report.altitude.flatMap { $0.isFinite ? $0 : nil } : nil
    var note: String?
    if let time = report.time, let now, abs(time.timeIntervalSince(now)) > 60 {
      note = "GPS time \(time) differs from the system clock by more than a minute"
    }
    return .accepted(
      GPSFix(
        coordinate: Coordinate(latitude: latitude, longitude: longitude, altitude: altitude),
        horizontalError: report.horizontalError.flatMap { $0.isFinite ? $0 : nil },
        time: report.time),
      note: note)
  }
}
