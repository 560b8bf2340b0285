import PhotoTimer

/// The bundled geocoder, loaded once on first use (about 50 ms), never when location is off.
public enum BundledGeocoder {
  /// The geocoder, or `nil` if the bundled data is missing or damaged.
  public static var shared: ReverseGeocoder? { try? loaded.get() }

  /// Why places cannot be named, when the bundled data is missing from this installation
  /// (a file check only: nothing is loaded); `nil` when it is there.
  public static var missingData: String? {
    PlaceData.folder == nil
      ? GazetteerError.missingResource("cities15000.tsv, countries.tsv").description : nil
  }

  // NB: immutable once initialised; Swift runs the initialiser once, thread-safely.
  private static let loaded = Result { () throws(GazetteerError) in try ReverseGeocoder.bundled() }
}

extension ReverseGeocoder {
  /// The farthest a coordinate may be from its nearest place for the place's label alone;
  /// beyond it the name says how far ("52 km from Alice Springs, Australia").
  public static let nearbyDistance: Double = 25_000

  /// The name a person would write for `coordinate`: the place label, or its distance from
  /// the nearest place when that is far away, or the bare coordinate when nothing is known.
  ///
  /// ```swift
  /// geocoder.name(for: Coordinate(latitude: 37.7694, longitude: -122.4862))
  /// // "Parkside, San Francisco, United States"
  /// ```
  /// - Parameters:
  ///   - coordinate: Where.
  ///   - horizontalError: The fix's error in metres, when known: larger than the distance to
  ///     the place, the name says "near …", since the fix cannot tell which side of it.
  public func name(for coordinate: Coordinate, horizontalError: Double? = nil) -> String {
    guard let place = describe(coordinate) else { return coordinate.description }
    guard place.distance > Self.nearbyDistance else {
      if let error = horizontalError, error.isFinite, error > place.distance {
        return "near \(place.label)"
      }
      return place.label
    }
    return "\(Int((place.distance / 1000).rounded())) km from \(place.label)"
  }
}
