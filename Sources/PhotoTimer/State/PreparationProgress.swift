/// Which preparations of the current run have their value.
public struct PreparationProgress: Hashable, Sendable {
  /// The camera is open and metered.
  public var cameraReady: Bool
  /// A location fix was turned into a place.
  public var locationTagged: Bool
  /// A look was suggested.
  public var filterChosen: Bool
  /// The people step has looked at the picture (it goes on looking until the shutter).
  public var peopleSeen: Bool

  /// Creates progress flags; all false by default.
  ///
  /// - Parameters:
  ///   - cameraReady: The camera is open and metered.
  ///   - locationTagged: The location is known.
  ///   - filterChosen: A look was suggested.
  ///   - peopleSeen: The people step has looked at the picture.
  public init(
    cameraReady: Bool = false, locationTagged: Bool = false, filterChosen: Bool = false,
    peopleSeen: Bool = false
  ) {
    self.cameraReady = cameraReady
    self.locationTagged = locationTagged
    self.filterChosen = filterChosen
    self.peopleSeen = peopleSeen
  }

  /// Whether the given step has its value.
  ///
  /// - Parameter step: The step.
  /// - Returns: Its flag.
  public func isDone(_ step: PreparationStep) -> Bool {
    switch step {
    case .camera: cameraReady
    case .location: locationTagged
    case .filter: filterChosen
    case .people: peopleSeen
    }
  }

  mutating func markDone(_ step: PreparationStep) {
    switch step {
    case .camera: cameraReady = true
    case .location: locationTagged = true
    case .filter: filterChosen = true
    case .people: peopleSeen = true
    }
  }
}
