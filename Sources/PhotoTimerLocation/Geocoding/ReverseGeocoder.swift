import Foundation
import PhotoTimer

/// Turns a coordinate into a place name, offline, from the GeoNames cities of 15,000 or more
/// inhabitants bundled with this module.
///
/// The nearest place is found by true distance on the sphere (a 3-d tree over unit vectors),
/// so it is right across the antimeridian and near the poles. The label names the nearest
/// place, the larger city around it when there is one, and the country.
///
/// ```swift
/// let geocoder = try ReverseGeocoder.bundled()
/// let place = geocoder.describe(Coordinate(latitude: 37.7694, longitude: -122.4862))
/// print(place.label)  // Parkside, San Francisco, United States
/// ```
public struct ReverseGeocoder: Sendable {
  /// Every place, in the order of the data file.
  public let places: [Place]
  private let countries: [String: String]
  private let index: SphereIndex

  /// Builds a geocoder over `places`.
  ///
  /// - Parameters:
  ///   - places: The gazetteer.
  ///   - countries: English country names by ISO 3166-1 alpha-2 code.
  public init(places: [Place], countries: [String: String]) {
    self.places = places
    self.countries = countries
    index = SphereIndex(points: places.map { UnitVector($0.coordinate) })
  }

  /// The nearest place to `coordinate`, or `nil` when there are no places.
  ///
  /// - Parameter coordinate: Any point; latitudes beyond ±90° are clamped.
  /// - Returns: The place at the least great-circle distance (ties: the earlier place).
  public func nearest(to coordinate: Coordinate) -> Place? {
    index.nearest(to: UnitVector(Self.clamped(coordinate))).map { places[$0] }
  }

  /// Describes `coordinate`: nearest place, larger city around it, country and distance.
  ///
  /// - Parameter coordinate: Any point.
  /// - Returns: The description, or `nil` when there are no places.
  public func describe(_ coordinate: Coordinate) -> PlaceDescription? {
    let coordinate = Self.clamped(coordinate)
    guard let nearestIndex = index.nearest(to: UnitVector(coordinate)) else { return nil }
    let nearest = places[nearestIndex]
    return PlaceDescription(
      nearest: nearest, city: city(around: nearest),
      country: countries[nearest.countryCode] ?? nearest.countryCode,
      distance: GreatCircle.distance(coordinate, nearest.coordinate))
  }

  /// The most populous place, in the same country, whose reach covers `place` and which is
  /// larger than it: San Francisco around Parkside, Paris around its arrondissements.
  private func city(around place: Place) -> Place? {
    let limit = GreatCircle.chordSquared(forDistance: 40_000)
    var best: Place?
    for candidateIndex in index.within(chordSquared: limit, of: UnitVector(place.coordinate)) {
      let candidate = places[candidateIndex]
      guard candidate.id != place.id, candidate.countryCode == place.countryCode,
        candidate.population > place.population,
        GreatCircle.distance(candidate.coordinate, place.coordinate) <= candidate.reach,
        candidate.population > best?.population ?? 0
      else { continue }
      best = candidate
    }
    // NB: "Paris, Paris" or "Sydney, Sydney" says nothing; a city of the same name is left out.
    return best?.name == place.name ? nil : best
  }

  private static func clamped(_ coordinate: Coordinate) -> Coordinate {
    var clamped = coordinate
    clamped.latitude = min(max(coordinate.latitude, -90), 90)
    return clamped
  }
}
