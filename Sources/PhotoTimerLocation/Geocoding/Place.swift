import PhotoTimer

/// A populated place from the GeoNames gazetteer.
public struct Place: Hashable, Sendable, CustomStringConvertible {
  /// The GeoNames id.
  public var id: Int
  /// The place's name, for example `"Parkside"`.
  public var name: String
  /// Where it is.
  public var coordinate: Coordinate
  /// The ISO 3166-1 alpha-2 country code, for example `"US"`.
  public var countryCode: String
  /// The first-level administrative division (for the US, the state's code: `"CA"`).
  public var admin1Code: String
  /// The number of inhabitants.
  public var population: Int

  /// Creates a place.
  ///
  /// - Parameters:
  ///   - id: The GeoNames id.
  ///   - name: The name.
  ///   - coordinate: Where it is.
  ///   - countryCode: The ISO 3166-1 alpha-2 code.
  ///   - admin1Code: The first-level division's code.
  ///   - population: The number of inhabitants.
  public init(
    id: Int, name: String, coordinate: Coordinate, countryCode: String, admin1Code: String,
    population: Int
  ) {
    self.id = id
    self.name = name
    self.coordinate = coordinate
    self.countryCode = countryCode
    self.admin1Code = admin1Code
    self.population = population
  }

  /// The name and country code, for example `Parkside (US)`.
  public var description: String { "\(name) (\(countryCode))" }

  /// How far, in metres, a city of this size reaches around its centre: 5 km for a town of
  /// 100,000, growing with the square root of the population, from 5 km up to 40 km.
  var reach: Double {
    let scaled = 5_000 * (Double(population) / 100_000).squareRoot()
    return min(max(scaled, 5_000), 40_000)
  }
}

/// What the reverse geocoder says about a coordinate.
public struct PlaceDescription: Hashable, Sendable, CustomStringConvertible {
  /// The nearest place.
  public var nearest: Place
  /// The larger city around the nearest place, when there is one.
  public var city: Place?
  /// The country's English name, for example `"United States"`.
  public var country: String
  /// The great-circle distance from the coordinate to the nearest place, in metres.
  public var distance: Double

  /// The label a person would write: `"Parkside, San Francisco, United States"`.
  public var label: String {
    [nearest.name, city?.name, country].compactMap { $0 }.filter { !$0.isEmpty }
      .joined(separator: ", ")
  }

  /// The label and the distance: `Parkside, San Francisco, United States (2.9 km)`.
  public var description: String {
    let kilometres = (distance / 100).rounded() / 10
    return "\(label) (\(kilometres) km)"
  }
}
