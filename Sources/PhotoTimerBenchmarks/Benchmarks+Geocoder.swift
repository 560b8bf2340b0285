import Foundation
import PhotoTimer
import PhotoTimerLocation

extension Benchmarks {
  /// Load time of the bundled gazetteer, and lookup time beside a brute-force haversine scan.
  static func geocoder() {
    var loads: [Duration] = []
    var loaded: ReverseGeocoder?
    for _ in 0..<7 {
      let start = clock.now
      loaded = try? ReverseGeocoder.bundled()
      loads.append(start.duration(to: clock.now))
    }
    guard let geocoder = loaded else {
      print("geocoder: the bundled place-name data could not be loaded")
      return
    }
    row(
      "geocoder: load 34,006 places", ours: "\(fixed(Sample(loads).median.milliseconds, 1)) ms",
      baseline: "", ratio: "", target: "≤ 100 ms")

    var random = SystemRandomNumberGenerator()
    let points = (0..<20_000).map { _ in
      Coordinate(
        latitude: asin(Double.random(in: -1...1, using: &random)) * 180 / .pi,
        longitude: Double.random(in: -180..<180, using: &random))
    }
    var ours: [Duration] = []
    var checksum = 0
    for batch in 0..<5 {
      let start = clock.now
      for point in points { checksum &+= geocoder.nearest(to: point)?.id ?? 0 }
      ours.append(start.duration(to: clock.now) / points.count)
      _ = batch
    }
    var brute: [Duration] = []
    for point in points.prefix(200) {
      let start = clock.now
      checksum &+= bruteForce(geocoder.places, point).id
      brute.append(start.duration(to: clock.now))
    }
    let o = Sample(ours).median.microseconds
    let b = Sample(brute).median.microseconds
    row(
      "geocoder: nearest place, per lookup", ours: "\(fixed(o, 2)) µs",
      baseline: "\(fixed(b, 0)) µs (scan)", ratio: ratio(b, o), target: "≤ 20 µs")
    if checksum == 42 { print("") }  // keeps the lookups from being optimised away
  }

  private static func bruteForce(_ places: [Place], _ point: Coordinate) -> Place {
    var best = places[0]
    var bestDistance = Double.infinity
    let phi0 = point.latitude * .pi / 180
    for place in places {
      let phi = place.coordinate.latitude * .pi / 180
      let a = sin((phi - phi0) / 2)
      let b = sin((place.coordinate.longitude - point.longitude) * .pi / 360)
      let h = a * a + cos(phi0) * cos(phi) * b * b
      let distance = 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
      if distance < bestDistance {
        best = place
        bestDistance = distance
      }
    }
    return best
  }
}
