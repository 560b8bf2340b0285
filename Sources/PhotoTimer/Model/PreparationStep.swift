/// One of the three preparations that run during the countdown.
public enum PreparationStep: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// Open the camera, let auto-exposure settle and meter the scene.
  case camera
  /// Get a location fix and turn it into a place name.
  case location
  /// Analyse a preview frame and suggest a look.
  case filter

  /// The step's name in lower case: `camera`, `location`, `filter`.
  public var description: String { rawValue }

  /// Why the step's result is missing when the shutter fired before it finished.
  var droppedReason: String {
    switch self {
    case .camera: "camera not ready before the shutter"
    case .location: "no fix before the shutter"
    case .filter: "no suggestion before the shutter; the neutral look was used"
    }
  }
}
