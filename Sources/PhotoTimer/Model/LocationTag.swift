#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the photo was taken, as a place name and, when known, a coordinate.
///
/// ```swift
/// let tag = LocationTag(name: "Golden Gate Park",
///                       coordinate: Coordinate(latitude: 37.7694, longitude: -122.4862))
/// ```
public struct LocationTag: Hashable, Sendable, CustomStringConvertible {
  /// The place name a person would write, for example `"Golden Gate Park"`.
  public var name: String
  /// The position on WGS 84, when known.
  public var coordinate: Coordinate?
  /// The estimated horizontal error in metres, when the receiver reports one.
  public var horizontalError: Double?
  /// The fix's own time from the satellites, when known; it becomes the photo's GPS date
  /// and time stamps. It may disagree with the system clock (see ``note``).
  public var fixTime: Date?
  /// Something a person should know about this fix, such as the GPS time disagreeing with
  /// the system clock; `nil` when there is nothing to say.
  public var note: String?

  /// Creates a location tag.
  ///
  /// - Parameters:
  ///   - name: The place name shown to people and written into the photo's description.
  ///   - coordinate: The position, when known; it becomes the photo's GPS tags.
  ///   - horizontalError: The estimated horizontal error in metres, when reported.
  ///   - fixTime: The fix's own GPS time, when known.
  ///   - note: Something a person should know about the fix.
  public init(
    name: String, coordinate: Coordinate? = nil, horizontalError: Double? = nil,
    fixTime: Date? = nil, note: String? = nil
  ) {
    self.name = name
    self.coordinate = coordinate
    self.horizontalError = horizontalError
    self.fixTime = fixTime
    self.note = note
  }

  /// The horizontal error in metres within which a fix counts as precise: 100 m, about a
  /// street. Location steps wait for such a fix by default; a tag shows its error only when it
  /// is larger.
  public static let preciseHorizontalError: Double = 100

  /// The place name, followed by the coordinate when there is one and the fix's error when
  /// it is over ``preciseHorizontalError`` (a generous receiver's:
  /// `Paris, France (48.85840, 2.29450) ±137 m`).
  public var description: String {
    guard let coordinate else { return name }
    let error = horizontalError.flatMap {
      $0.isFinite && $0 > Self.preciseHorizontalError ? $0 : nil
    }
    return "\(name) (\(coordinate))" + (error.map { " ±\($0.wholeMetres) m" } ?? "")
  }
}

/// A position on the WGS 84 ellipsoid.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  /// Latitude in decimal degrees, north positive, −90…90.
  public var latitude: Double
  /// Longitude in decimal degrees, east positive, −180…180.
  public var longitude: Double
  /// Altitude above mean sea level in metres, when the fix was three-dimensional.
  public var altitude: Double?

  /// Creates a coordinate.
  ///
  /// - Parameters:
  ///   - latitude: Decimal degrees, north positive.
  ///   - longitude: Decimal degrees, east positive.
  ///   - altitude: Metres above mean sea level, if known.
  public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
  }

  /// The coordinate as `37.76940, -122.48620`.
  public var description: String {
    "\(Self.format(latitude)), \(Self.format(longitude))"
  }

  private static func format(_ degrees: Double) -> String {
    let scaled = (degrees * 100_000).rounded()
    let sign = scaled < 0 ? "-" : ""
    let magnitude = Int(abs(scaled))
    let fraction = String(magnitude % 100_000)
    return
      "\(sign)\(magnitude / 100_000).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)"
  }
}

extension Double {
  /// A distance in whole metres for a message, whatever the value: a receiver's reported
  /// error can be any number (`1e300`), which `Int(_:)` would trap on.
  package var wholeMetres: String {
    guard isFinite else { return "\(self)" }
    guard abs(self) < 1e15 else { return String(describing: self.rounded()) }
    return String(Int(rounded()))
  }
}
