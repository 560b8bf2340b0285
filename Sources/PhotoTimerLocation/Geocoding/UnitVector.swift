import Foundation
import PhotoTimer

/// A point on the unit sphere, the form in which nearness on the globe is plain geometry:
/// the nearest place by great-circle distance is the nearest by straight-line (chord) distance,
/// with no special case at the antimeridian or the poles.
struct UnitVector: Hashable, Sendable {
  var x: Double
  var y: Double
  var z: Double

  init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The point at `latitude`, `longitude` in decimal degrees.
  init(latitude: Double, longitude: Double) {
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    let cosPhi = cos(phi)
    self.init(x: cosPhi * cos(lambda), y: cosPhi * sin(lambda), z: sin(phi))
  }

  init(_ coordinate: Coordinate) {
    self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
  }

  subscript(axis: Int) -> Double {
    switch axis {
    case 0: x
    case 1: y
    default: z
    }
  }

  /// The squared straight-line distance to `other`.
  func chordSquared(to other: UnitVector) -> Double {
    let dx = x - other.x
    let dy = y - other.y
    let dz = z - other.z
    return dx * dx + dy * dy + dz * dz
  }
}

/// Distances on the sphere of the mean Earth radius.
enum GreatCircle {
  /// The mean Earth radius (IUGG), in metres.
  static let earthRadius = 6_371_008.8

  /// The great-circle distance between two coordinates in metres (haversine formula).
  static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
    let phi1 = a.latitude * .pi / 180
    let phi2 = b.latitude * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (b.longitude - a.longitude) * .pi / 180
    let h =
      sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * earthRadius * asin(min(1, h.squareRoot()))
  }

  /// The squared chord between two points on the unit sphere `metres` apart along the surface.
  static func chordSquared(forDistance metres: Double) -> Double {
    let angle = min(metres / earthRadius, .pi)
    let chord = 2 * sin(angle / 2)
    return chord * chord
  }
}
