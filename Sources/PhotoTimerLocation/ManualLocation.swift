import Foundation
import PhotoTimer

/// A fixed position given by the user instead of a GPS receiver.
///
/// ```swift
/// let here = try ManualLocation(parsing: "48.8584,2.2945")
/// services.location = here.preparation()   // "Paris, France"
/// ```
public struct ManualLocation: Hashable, Sendable {
  /// The position.
  public var coordinate: Coordinate
  /// The name to write into the photo; `nil` names it from the bundled places.
  public var name: String?

  /// Creates a manual location.
  ///
  /// - Parameters:
  ///   - coordinate: The position; latitude −90…90 and longitude −180…180.
  ///   - name: The place name, or `nil` to look it up offline.
  /// - Throws: ``ManualLocationError`` when the coordinate is out of range or not finite.
  public init(coordinate: Coordinate, name: String? = nil) throws(ManualLocationError) {
    guard coordinate.latitude.isFinite, (-90...90).contains(coordinate.latitude) else {
      throw .latitudeOutOfRange(coordinate.latitude)
    }
    guard coordinate.longitude.isFinite, (-180...180).contains(coordinate.longitude) else {
      throw .longitudeOutOfRange(coordinate.longitude)
    }
    if let altitude = coordinate.altitude, !altitude.isFinite {
      throw .malformed("altitude \(altitude)")
    }
    self.coordinate = coordinate
    self.name = name
  }

  /// Parses `LAT,LON` or `LAT,LON,ALTITUDE` in decimal degrees (and metres), as typed on a
  /// command line: `"37.7694,-122.4862"`.
  ///
  /// - Parameters:
  ///   - text: The coordinate.
  ///   - name: The place name, or `nil` to look it up offline.
  /// - Throws: ``ManualLocationError`` naming what is wrong.
  public init(parsing text: String, name: String? = nil) throws(ManualLocationError) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard (2...3).contains(parts.count) else { throw .malformed(text) }
    let numbers = parts.map { Double($0) }
    guard let latitude = numbers[0], let longitude = numbers[1] else { throw .malformed(text) }
    var altitude: Double?
    if numbers.count == 3 {
      guard let value = numbers[2] else { throw .malformed(text) }
      altitude = value
    }
    try self.init(
      coordinate: Coordinate(latitude: latitude, longitude: longitude, altitude: altitude),
      name: name)
  }

  /// The location as a tag, named by `geocoder` unless a name was given.
  ///
  /// - Parameter geocoder: The places to name it from; `nil` names it by its coordinate.
  public func tag(geocoder: ReverseGeocoder?) -> LocationTag {
    let name = name ?? geocoder?.name(for: coordinate) ?? coordinate.description
    return LocationTag(name: name, coordinate: coordinate)
  }

  /// The location step for this position: no receiver, no socket; the bundled places are
  /// loaded (once) only when no name was given.
  ///
  /// - Parameter geocoder: Where to find the bundled places; injectable for tests.
  public func preparation(
    geocoder: @escaping @Sendable () -> ReverseGeocoder? = { BundledGeocoder.shared }
  ) -> Preparation<LocationTag> {
    let location = self
    return Preparation(isRequired: false) {
      try Task.checkCancellation()
      return location.tag(geocoder: location.name == nil ? geocoder() : nil)
    }
  }
}

/// A manual location that cannot be used.
public enum ManualLocationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The latitude is outside −90…90 or not a number.
  case latitudeOutOfRange(Double)
  /// The longitude is outside −180…180 or not a number.
  case longitudeOutOfRange(Double)
  /// The text is not `LAT,LON` or `LAT,LON,ALTITUDE` in decimal numbers.
  case malformed(String)

  /// What is wrong and what to write instead.
  public var description: String {
    switch self {
    case .latitudeOutOfRange(let value):
      "latitude \(value) is out of range: use decimal degrees from -90 to 90"
    case .longitudeOutOfRange(let value):
      "longitude \(value) is out of range: use decimal degrees from -180 to 180"
    case .malformed(let text):
      "'\(text)' is not a location: write LAT,LON in decimal degrees, e.g. 37.7694,-122.4862"
    }
  }
}
