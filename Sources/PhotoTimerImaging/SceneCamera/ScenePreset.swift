/// The lighting of the scene camera's picture: how bright (absolute EV) and what colour.
///
/// | preset | EV100 | light |
/// | --- | --- | --- |
/// | `daylight` | 15 | sunny, blue sky, neutral light |
/// | `overcast` | 12 | grey sky, soft and flat |
/// | `golden-hour` | 11 | low sun, warm orange light |
/// | `indoor` | 7 | a room under tungsten lamps |
/// | `night` | 3 | a street at night: orange lamps, deep blue sky |
///
/// ```swift
/// let camera = SceneCamera(preset: .goldenHour, width: 1920, height: 1080)
/// ```
public struct ScenePreset: Hashable, Sendable, CustomStringConvertible {
  /// The name used on the command line (`--camera scene:golden-hour`).
  public var name: String
  /// The scene's brightness: EV at ISO 100 that renders it as mid-grey on average.
  public var ev: Double
  /// The main light's colour, linear RGB with luminance about 1.
  var light: (red: Float, green: Float, blue: Float)
  /// The sky's colour at the top and at the horizon, linear, relative to mid-grey.
  var skyTop: (red: Float, green: Float, blue: Float)
  var skyHorizon: (red: Float, green: Float, blue: Float)
  /// How strong the main light is on the ground, relative to the sky's brightness.
  var groundLight: Float
  /// Light sources drawn in the picture: the sun or lamps.
  var sources: [LightSource]
  /// Surface contrast: 1 for hard light with shadows, lower for soft light.
  var shading: Float
  /// Whether the light sources are street lamps on poles.
  var poles = false
  /// How thick the clouds drifting across the sky are, 0 (none, or no sky) to 1.
  var clouds: Float = 0
  /// The clouds' colour, linear, relative to mid-grey.
  var cloudColor: (red: Float, green: Float, blue: Float) = (1, 1, 1)
  /// The sensor's noise at this light: the spread of a pixel's level from frame to frame
  /// (relative); a camera in the dark amplifies its noise with its gain.
  var noise: Float = 0.02
  /// Whether the light sources are in the sky, far away (the sun): the ground and everything
  /// standing on it hide them and their glow. Lamps are near, and shine in front.
  var inSky: Bool { !poles && ev >= 10 }

  struct LightSource: Hashable, Sendable {
    var x: Float
    var y: Float
    var radius: Float
    var glow: Float
    var intensity: Float
    var color: (red: Float, green: Float, blue: Float)

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.x == rhs.x && lhs.y == rhs.y && lhs.radius == rhs.radius && lhs.glow == rhs.glow
        && lhs.intensity == rhs.intensity && lhs.color == rhs.color
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(x)
      hasher.combine(y)
      hasher.combine(intensity)
    }
  }

  /// The name.
  public var description: String { name }

  /// Two presets are the same when their names are.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// Sunny daylight, EV 15.
  public static let daylight = ScenePreset(
    name: "daylight", ev: 15, light: (1.0, 1.0, 0.98), skyTop: (0.35, 0.6, 1.5),
    skyHorizon: (0.9, 1.1, 1.45), groundLight: 1.0,
    sources: [
      LightSource(
        x: 0.82, y: 0.12, radius: 0.025, glow: 0.12, intensity: 60, color: (1, 1, 0.95))
    ], shading: 1, clouds: 0.9, cloudColor: (1.9, 1.9, 1.95))

  /// An overcast day, EV 12: flat, grey, little colour.
  public static let overcast = ScenePreset(
    name: "overcast", ev: 12, light: (0.98, 1.0, 1.04), skyTop: (0.95, 0.98, 1.05),
    skyHorizon: (1.25, 1.27, 1.3), groundLight: 0.75, sources: [], shading: 0.35, clouds: 0.5,
    cloudColor: (0.72, 0.74, 0.78), noise: 0.025)

  /// Golden hour, EV 11: a low sun and warm orange light.
  public static let goldenHour = ScenePreset(
    name: "golden-hour", ev: 11, light: (1.45, 0.95, 0.5), skyTop: (0.5, 0.55, 0.9),
    skyHorizon: (2.2, 1.3, 0.55), groundLight: 0.9,
    sources: [
      LightSource(
        x: 0.52, y: 0.49, radius: 0.035, glow: 0.25, intensity: 30, color: (1.6, 0.9, 0.35))
    ], shading: 0.9, clouds: 0.7, cloudColor: (2.1, 1.1, 0.75), noise: 0.03)

  /// Indoors under tungsten lamps, EV 7.
  public static let indoor = ScenePreset(
    name: "indoor", ev: 7, light: (1.5, 0.95, 0.45), skyTop: (0.55, 0.42, 0.28),
    skyHorizon: (0.9, 0.68, 0.42), groundLight: 0.8,
    sources: [
      LightSource(
        x: 0.3, y: 0.1, radius: 0.03, glow: 0.1, intensity: 25, color: (1.6, 1.0, 0.5)),
      LightSource(
        x: 0.7, y: 0.1, radius: 0.03, glow: 0.1, intensity: 25, color: (1.6, 1.0, 0.5)),
    ], shading: 0.6, noise: 0.05)

  /// A street at night, EV 3: orange sodium lamps, a deep blue sky, dark ground.
  public static let night = ScenePreset(
    name: "night", ev: 3, light: (1.4, 0.85, 0.4), skyTop: (0.004, 0.008, 0.03),
    skyHorizon: (0.02, 0.03, 0.08), groundLight: 0.06,
    sources: [
      LightSource(
        x: 0.05, y: 0.3, radius: 0.012, glow: 0.03, intensity: 120, color: (1.7, 0.9, 0.3)),
      LightSource(
        x: 0.5, y: 0.26, radius: 0.012, glow: 0.03, intensity: 120, color: (1.7, 0.9, 0.3)),
      LightSource(
        x: 0.93, y: 0.3, radius: 0.012, glow: 0.03, intensity: 120, color: (0.8, 0.95, 1.6)),
    ], shading: 1, poles: true, noise: 0.09)

  /// Every preset, brightest first.
  public static let all: [ScenePreset] = [daylight, overcast, goldenHour, indoor, night]

  /// The preset called `name` (as on the command line), or `nil`.
  public static func named(_ name: String) -> ScenePreset? {
    all.first { $0.name == name.lowercased() }
  }
}
