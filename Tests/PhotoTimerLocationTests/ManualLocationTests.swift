import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerLocation
import Testing

private let malformed =
  "is not a location: write LAT,LON in decimal degrees, e.g. 37.7694,-122.4862"

@Suite("ManualLocation")
struct ManualLocationTests {
  @Test(
    "LAT,LON and LAT,LON,ALT parse in all four hemispheres",
    arguments: [
      ("37.7694,-122.4862", 37.7694, -122.4862, nil),
      ("48.8584, 2.2945", 48.8584, 2.2945, nil),
      ("-33.8568,151.2153,58", -33.8568, 151.2153, 58),
      ("-34.6037,-58.3816", -34.6037, -58.3816, nil),
      ("90,180", 90, 180, nil),
      ("-90,-180,-400.5", -90, -180, -400.5),
    ] as [(String, Double, Double, Double?)])
  func parses(text: String, latitude: Double, longitude: Double, altitude: Double?) throws {
    let location = try ManualLocation(parsing: text)
    #expect(
      location.coordinate
        == Coordinate(latitude: latitude, longitude: longitude, altitude: altitude))
  }

  @Test(
    "Bad locations are refused with what to write instead",
    arguments: [
      ("91,0", "latitude 91.0 is out of range: use decimal degrees from -90 to 90"),
      ("0,-180.5", "longitude -180.5 is out of range: use decimal degrees from -180 to 180"),
      ("nan,0", "latitude nan is out of range: use decimal degrees from -90 to 90"),
      ("37.7", "'37.7' \(malformed)"),
      ("a,b", "'a,b' \(malformed)"),
      ("1,2,3,4", "'1,2,3,4' \(malformed)"),
      ("1,,2", "'1,,2' \(malformed)"),
      ("", "'' \(malformed)"),
    ])
  func refuses(text: String, message: String) {
    #expect {
      _ = try ManualLocation(parsing: text)
    } throws: { error in
      String(describing: error) == message
    }
  }

  @Test("Unnamed, it is named offline; named, the bundled places are never loaded")
  func naming() async throws {
    let paris = try ManualLocation(parsing: "48.8584,2.2945")
    let tag = try await paris.preparation(geocoder: { try? ReverseGeocoder.bundled() }).perform()
    #expect(tag.name == "Paris 16 Passy, Paris, France")
    #expect(tag.coordinate == paris.coordinate)

    let named = try ManualLocation(parsing: "48.8584,2.2945", name: "Eiffel Tower")
    let loads = Locked(0)
    let namedTag = try await named.preparation(geocoder: {
      loads.withLock { $0 += 1 }
      return nil
    }).perform()
    #expect(namedTag.name == "Eiffel Tower")
    #expect(loads.withLock { $0 } == 0)
  }

  @Test("Far from any place, the name says how far")
  func farAway() throws {
    let geocoder = try ReverseGeocoder.bundled()
    let pacific = try ManualLocation(parsing: "0,-140").tag(geocoder: geocoder)
    #expect(pacific.name.contains(" km from "), "\(pacific.name)")
    #expect(try ManualLocation(parsing: "0,-140").tag(geocoder: nil).name == "0.00000, -140.00000")
  }
}
