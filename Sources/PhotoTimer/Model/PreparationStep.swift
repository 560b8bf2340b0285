/// One of the four preparations that run during the countdown.
public enum PreparationStep: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// Open the camera, let auto-exposure settle and meter the scene.
  case camera
  /// Get a location fix and turn it into a place name.
  case location
  /// Analyse a preview frame and suggest a look.
  case filter
  /// Find the people in the picture and follow their eyes.
  case people

  /// The step's name in lower case: `camera`, `location`, `filter`, `people`.
  public var description: String { rawValue }

  /// Whether the step watches the count until the shutter rather than ending by itself (the
  /// people step): with `--sequential` it starts with the count, not in the queue before it.
  var watchesTheCount: Bool { self == .people }

  /// Why the step's result is missing when the shutter fired before it finished.
  var droppedReason: String {
    switch self {
    case .camera: "camera not ready before the shutter"
    case .location: "no fix before the shutter"
    case .filter: "no suggestion before the shutter; the neutral look was used"
    case .people: "no frame looked at before the shutter"
    }
  }
}
