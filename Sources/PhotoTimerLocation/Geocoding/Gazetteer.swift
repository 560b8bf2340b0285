import Foundation
import PhotoTimer

/// Why the gazetteer could not be read.
public enum GazetteerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bundled data file is missing from the installed program.
  case missingResource(String)
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// A line does not have the expected fields.
  case malformedLine(file: String, line: Int, reason: String)

  /// What failed and what to do.
  public var description: String {
    switch self {
    case .missingResource(let name):
      "the place-name data \(name) is missing from this installation; reinstall phototimer"
    case .unreadable(let path, let reason):
      "cannot read the place-name data at \(path): \(reason)"
    case .malformedLine(let file, let line, let reason):
      "\(file) line \(line): \(reason); the place-name data is damaged, reinstall phototimer"
    }
  }
}

extension ReverseGeocoder {
  /// Loads the GeoNames data bundled with this module (about 34,000 places).
  ///
  /// Call it when a name is first needed, not at start-up: when location is off, nothing is
  /// loaded.
  ///
  /// - Returns: A geocoder over the bundled places.
  /// - Throws: ``GazetteerError`` if the data is missing or damaged.
  public static func bundled() throws(GazetteerError) -> ReverseGeocoder {
    guard let folder = PlaceData.folder else {
      throw .missingResource("cities15000.tsv, countries.tsv")
    }
    return try load(
      cities: folder.appendingPathComponent("cities15000.tsv"),
      countries: folder.appendingPathComponent("countries.tsv"))
  }

  /// Loads a geocoder from GeoNames-style files.
  ///
  /// - Parameters:
  ///   - cities: Tab-separated `geonameid name latitude longitude country_code admin1_code
  ///     population timezone`, with a header line.
  ///   - countries: Tab-separated `iso name`, with a header line.
  /// - Returns: A geocoder over the places.
  /// - Throws: ``GazetteerError`` if a file cannot be read or a line is malformed.
  public static func load(cities: URL, countries: URL) throws(GazetteerError) -> ReverseGeocoder {
    let places = try parseCities(read(cities), file: cities.lastPathComponent)
    let names = try parseCountries(read(countries), file: countries.lastPathComponent)
    return ReverseGeocoder(places: places, countries: names)
  }

  private static func read(_ url: URL) throws(GazetteerError) -> String {
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      throw .unreadable(path: url.path, reason: error.localizedDescription)
    }
  }

  package static func parseCities(_ text: String, file: String) throws(GazetteerError) -> [Place] {
    var places: [Place] = []
    places.reserveCapacity(35_000)
    var reader = TabSeparatedReader(text)
    reader.nextLine()  // the header
    while !reader.isAtEnd {
      if reader.isAtEndOfLine {
        reader.nextLine()
        continue
      }
      let line = reader.line
      guard let id = reader.integer(), let name = reader.text(), let latitude = reader.decimal(),
        let longitude = reader.decimal(), (-90...90).contains(latitude),
        (-180...180).contains(longitude)
      else {
        throw .malformedLine(
          file: file, line: line, reason: "id, latitude or longitude is not a valid number")
      }
      guard let country = reader.text(), let admin1 = reader.field(),
        let population = reader.field()
      else {
        throw .malformedLine(file: file, line: line, reason: "expected 8 tab-separated fields")
      }
      places.append(
        Place(
          id: id, name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude),
          countryCode: country, admin1Code: String(decoding: admin1, as: UTF8.self),
          population: Int(String(decoding: population, as: UTF8.self)) ?? 0))
      reader.nextLine()
    }
    return places
  }

  package static func parseCountries(
    _ text: String, file: String
  ) throws(GazetteerError) -> [String: String] {
    var names: [String: String] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated().dropFirst() where !line.isEmpty
    {
      let fields = line.split(separator: "\t", maxSplits: 1)
      guard fields.count == 2 else {
        throw .malformedLine(file: file, line: number + 1, reason: "expected a code and a name")
      }
      names[String(fields[0])] = String(fields[1])
    }
    return names
  }
}

extension Bundle {
  /// The bundled GeoNames cities file, for tests that read it directly.
  package static func module(for _: ReverseGeocoder.Type) -> URL? {
    PlaceData.folder?.appendingPathComponent("cities15000.tsv")
  }
}

/// Where the bundled place files are.
///
/// NB: not `Bundle.module`, whose accessor stops the program when its folder is missing (an
/// installed copy without it crashed with a trap). The places are looked for next to the
/// program, as SwiftPM builds them, then in `../share/phototimer/`, where `make install`
/// puts them; missing, the location step says so and the photo is still taken.
package enum PlaceData {
  /// The folder SwiftPM builds for this target's resources (package `phototimer`).
  static let bundleName = "phototimer_PhotoTimerLocation.resources"

  package static let folder: URL? = {
    let program = Bundle.main.bundleURL
    let candidates = [
      program.appendingPathComponent(bundleName),
      program.deletingLastPathComponent().appendingPathComponent("share/phototimer"),
    ]
    return candidates.first { folder in
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("cities15000.tsv").path)
    }
  }()
}
