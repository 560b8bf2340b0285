import Foundation
import PhotoTimer
import PhotoTimerTesting
import Testing

@testable import PhotoTimerLocation

@Suite("ReverseGeocoder")
struct ReverseGeocoderTests {
  static let geocoder = Result { try ReverseGeocoder.bundled() }

  private func geocoder() throws -> ReverseGeocoder { try Self.geocoder.get() }

  @Test(
    "Known places in all four hemispheres get the label a person would write",
    arguments: [
      (37.7694, -122.4862, "Parkside, San Francisco, United States"),
      (48.8584, 2.2945, "France"),
      (-33.8568, 151.2153, "Australia"),
      (-34.6037, -58.3816, "Argentina"),
      (35.6586, 139.7454, "Japan"),
    ])
  func knownPlaces(latitude: Double, longitude: Double, expected: String) throws {
    let place = try #require(
      try geocoder().describe(Coordinate(latitude: latitude, longitude: longitude)))
    #expect(place.label.hasSuffix(expected) || place.label == expected, "\(place)")
    #expect(place.distance < 15_000, "\(place)")
  }

  @Test("Golden Gate Park: Parkside, inside San Francisco, about 3 km away")
  func goldenGatePark() throws {
    let place = try #require(
      try geocoder().describe(Coordinate(latitude: 37.7694, longitude: -122.4862)))
    #expect(place.nearest.name == "Parkside")
    #expect(place.city?.name == "San Francisco")
    #expect(place.label == "Parkside, San Francisco, United States")
    #expect((2_500...3_500).contains(place.distance))
  }

  @Test("Paris: the arrondissement and the city around it")
  func paris() throws {
    let place = try #require(
      try geocoder().describe(Coordinate(latitude: 48.8584, longitude: 2.2945)))
    #expect(place.nearest.name.hasPrefix("Paris"))
    #expect(place.label.hasSuffix("Paris, France") || place.label == "Paris, France")
  }

  @Test(
    "Across the antimeridian and near the poles the answer is the true nearest",
    arguments: [
      (-17.9, 179.999), (-17.9, -179.999), (65.7, -179.99), (65.7, 179.99), (89.99, 0.0),
      (-89.99, 120.0), (0.0, 180.0), (0.0, -180.0),
    ])
  func edges(latitude: Double, longitude: Double) throws {
    let geocoder = try geocoder()
    let point = Coordinate(latitude: latitude, longitude: longitude)
    #expect(geocoder.nearest(to: point) == bruteForce(geocoder.places, point))
  }

  @Test("10,000 seeded random points agree exactly with a brute-force great-circle scan")
  func agreesWithBruteForce() throws {
    let geocoder = try geocoder()
    var random = SeededRandomNumberGenerator(seed: 0x6E0_C0DE)
    var disagreements: [String] = []
    for _ in 0..<10_000 {
      // Uniform on the sphere: z uniform in [-1, 1], longitude uniform.
      let z = Double.random(in: -1...1, using: &random)
      let point = Coordinate(
        latitude: asin(z) * 180 / .pi, longitude: Double.random(in: -180..<180, using: &random))
      let fast = geocoder.nearest(to: point)
      let slow = bruteForce(geocoder.places, point)
      if fast != slow { disagreements.append("\(point): \(String(describing: fast)) ≠ \(slow)") }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
  }

  @Test("Every place is its own nearest place (or one at the same spot)")
  func placesFindThemselves() throws {
    let geocoder = try geocoder()
    for place in geocoder.places.prefix(2_000) {
      let found = try #require(geocoder.nearest(to: place.coordinate))
      #expect(found.coordinate == place.coordinate)
    }
  }

  @Test("Damaged data gives an error naming the file and line")
  func damagedData() throws {
    let header =
      "geonameid\tname\tlatitude\tlongitude\tcountry_code\tadmin1_code\tpopulation\ttimezone\n"
    #expect(
      throws: GazetteerError.malformedLine(
        file: "c.tsv", line: 2, reason: "expected 8 tab-separated fields")
    ) {
      try ReverseGeocoder.parseCities(header + "1\tX\t1.0\t2.0\n", file: "c.tsv")
    }
    #expect(
      throws: GazetteerError.malformedLine(
        file: "c.tsv", line: 3, reason: "id, latitude or longitude is not a valid number")
    ) {
      try ReverseGeocoder.parseCities(
        header + "1\tA\t1.0\t2.0\tUS\tCA\t10\tX\n2\tB\t95.0\t2.0\tUS\tCA\t10\tX\n", file: "c.tsv")
    }
    let error = GazetteerError.missingResource("cities15000.tsv")
    #expect(error.description.contains("cities15000.tsv"))
    #expect(error.description.contains("reinstall phototimer"))
  }

  @Test("The byte parser reads every coordinate exactly as Double(String) does")
  func parserMatchesFoundation() throws {
    let url = try #require(Bundle.module(for: ReverseGeocoder.self))
    let text = try String(contentsOf: url, encoding: .utf8)
    let places = try ReverseGeocoder.parseCities(text, file: "cities15000.tsv")
    let rows = text.split(separator: "\n").dropFirst()
    #expect(places.count == rows.count)
    for (place, row) in zip(places, rows) {
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
      #expect(place.id == Int(fields[0]))
      #expect(place.name == String(fields[1]))
      #expect(place.coordinate.latitude == Double(fields[2]))
      #expect(place.coordinate.longitude == Double(fields[3]))
      #expect(place.population == Int(fields[6]))
    }
  }

  @Test("An empty gazetteer answers nil rather than crashing")
  func empty() {
    let geocoder = ReverseGeocoder(places: [], countries: [:])
    #expect(geocoder.nearest(to: Coordinate(latitude: 0, longitude: 0)) == nil)
    #expect(geocoder.describe(Coordinate(latitude: 0, longitude: 0)) == nil)
  }

  /// The reference: every place by haversine great-circle distance, written independently of
  /// the geocoder; ties go to the earlier place.
  private func bruteForce(_ places: [Place], _ point: Coordinate) -> Place {
    BruteForce.shared(places).nearest(point)
  }
}

/// A brute-force haversine scan with each place's radians and cosine computed once.
final class BruteForce: Sendable {
  private let places: [Place]
  private let phi: [Double]
  private let lambda: [Double]
  private let cosPhi: [Double]

  private init(_ places: [Place]) {
    self.places = places
    phi = places.map { $0.coordinate.latitude * .pi / 180 }
    lambda = places.map { $0.coordinate.longitude * .pi / 180 }
    cosPhi = phi.map { cos($0) }
  }

  private static let cache = Result { try ReverseGeocoder.bundled() }.map { BruteForce($0.places) }

  static func shared(_ places: [Place]) -> BruteForce {
    if case .success(let scan) = cache, scan.places.count == places.count { return scan }
    return BruteForce(places)
  }

  func nearest(_ point: Coordinate) -> Place {
    let phi0 = point.latitude * .pi / 180
    let lambda0 = point.longitude * .pi / 180
    let cos0 = cos(phi0)
    var best = 0
    var bestH = Double.infinity
    for index in places.indices {
      // The haversine term h orders points exactly as 2·R·asin(√h) does.
      let a = sin((phi[index] - phi0) / 2)
      let b = sin((lambda[index] - lambda0) / 2)
      let h = a * a + cos0 * cosPhi[index] * b * b
      if h < bestH {
        best = index
        bestH = h
      }
    }
    return places[best]
  }
}
