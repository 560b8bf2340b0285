/// The exposure the camera step chose for the shot.
///
/// Values are formatted the way cameras show them, so they can be displayed as they are.
///
/// ```swift
/// let settings = CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400)
/// print(settings)  // f/2.8 · 1/60s · ISO 400
/// ```
public struct CameraSettings: Hashable, Sendable, CustomStringConvertible {
  /// The aperture, for example `"f/2.8"`.
  public var aperture: String
  /// The shutter speed, for example `"1/60s"` or `"2s"`.
  public var shutterSpeed: String
  /// The ISO sensitivity, for example `400`.
  public var iso: Int

  /// Creates camera settings.
  ///
  /// - Parameters:
  ///   - aperture: The aperture as cameras show it, such as `"f/2.8"`.
  ///   - shutterSpeed: The shutter speed as cameras show it, such as `"1/60s"`.
  ///   - iso: The ISO sensitivity.
  public init(aperture: String, shutterSpeed: String, iso: Int) {
    self.aperture = aperture
    self.shutterSpeed = shutterSpeed
    self.iso = iso
  }

  /// The settings as one line: `f/2.8 · 1/60s · ISO 400`.
  public var description: String { "\(aperture) · \(shutterSpeed) · ISO \(iso)" }
}
