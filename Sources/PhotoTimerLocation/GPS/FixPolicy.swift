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
/// A report needs a 2-D or 3-D fix and finite coordinates in range. Its horizontal error,
/// when gpsd reports one, decides how good it is: within ``preferredHorizontalError`` it is
/// accepted; above that but within ``maximumHorizontalError`` it is *imprecise*, a fix to
/// use only when no better one comes before the shutter (consumer receivers often report
/// 100–400 m while the position is fine for naming the place); above the limit it is
/// refused. A report without an error estimate is accepted. Freshness is the age since the
/// report was *received*: the fix's GPS time is not compared with the system clock, which
/// is often wrong on boards without a real-time clock. A disagreement of more than a minute
/// is noted instead.
///
/// ```swift
/// let policy = FixPolicy(maximumAge: .seconds(10), preferredHorizontalError: 100)
/// switch policy.assess(report, receivedAgo: .zero) { … }
/// ```
public struct FixPolicy: Hashable, Sendable {
  /// The oldest a report may be, counted from when it was received.
  public var maximumAge: Duration
  /// The horizontal error in metres a fix should have: within it, the fix is taken at once.
  public var preferredHorizontalError: Double
  /// The largest horizontal error in metres a fix may have to be used at all, when no fix
  /// within ``preferredHorizontalError`` came.
  public var maximumHorizontalError: Double

  /// The hard limit by default: 2 km, still enough to name a town.
  public static let defaultMaximumHorizontalError: Double = 2000

  /// Creates a policy.
  ///
  /// - Parameters:
  ///   - maximumAge: The oldest acceptable report, from when it was received (default 10 s).
  ///   - preferredHorizontalError: The error a fix is taken at once within (default 100 m).
  ///   - maximumHorizontalError: The error beyond which a fix is refused (default 2 km); at
  ///     least the preferred error.
  public init(
    maximumAge: Duration = .seconds(10),
    preferredHorizontalError: Double = LocationTag.preciseHorizontalError,
    maximumHorizontalError: Double = FixPolicy.defaultMaximumHorizontalError
  ) {
    self.maximumAge = maximumAge
    self.preferredHorizontalError = preferredHorizontalError
    self.maximumHorizontalError = max(preferredHorizontalError, maximumHorizontalError)
  }

  /// What the policy makes of one report.
  public enum Assessment: Hashable, Sendable {
    /// Good enough; `note` says when the GPS time disagrees with the system clock.
    case accepted(GPSFix, note: String?)
    /// Usable, but less precise than preferred: to keep as the best so far, and to use only
    /// when no better fix comes before the shutter.
    case imprecise(GPSFix, note: String?)
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
        "fix too imprecise: ±\(error.wholeMetres) m (at most \(maximumHorizontalError.wholeMetres) m)"
      )
    }
    let imprecise =
      report.horizontalError.map { $0.isFinite && $0 > preferredHorizontalError }
      ?? false
    let altitude = report.mode >= 3 ? report.altitude.flatMap { $0.isFinite ? $0 : nil } : nil
    var note: String?
    if let time = report.time, let now, abs(time.timeIntervalSince(now)) > 60 {
      note = "GPS time \(time) differs from the system clock by more than a minute"
    }
    let fix = GPSFix(
      coordinate: Coordinate(latitude: latitude, longitude: longitude, altitude: altitude),
      horizontalError: report.horizontalError.flatMap { $0.isFinite ? $0 : nil },
      time: report.time)
    return imprecise ? .imprecise(fix, note: note) : .accepted(fix, note: note)
  }
}
