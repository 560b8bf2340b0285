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
  /// The f-number as a number (`2.8`), for the photo's EXIF; `nil` when only the text is known.
  public var fNumber: Double?
  /// The exposure time in seconds (`1/60` for `"1/60s"`), for the photo's EXIF; `nil` when
  /// only the text is known.
  public var exposureTime: Double?
  /// The scene's brightness the camera metered, as EV at ISO 100; `nil` when not metered.
  public var sceneEV: Double?

  /// Creates camera settings.
  ///
  /// - Parameters:
  ///   - aperture: The aperture as cameras show it, such as `"f/2.8"`.
  ///   - shutterSpeed: The shutter speed as cameras show it, such as `"1/60s"`.
  ///   - iso: The ISO sensitivity.
  ///   - fNumber: The f-number as a number, when known.
  ///   - exposureTime: The exposure time in seconds, when known.
  ///   - sceneEV: The metered scene brightness (EV at ISO 100), when known.
  public init(
    aperture: String, shutterSpeed: String, iso: Int, fNumber: Double? = nil,
    exposureTime: Double? = nil, sceneEV: Double? = nil
  ) {
    self.aperture = aperture
    self.shutterSpeed = shutterSpeed
    self.iso = iso
    self.fNumber = fNumber
    self.exposureTime = exposureTime
    self.sceneEV = sceneEV
  }

  /// The settings as one line: `f/2.8 · 1/60s · ISO 400`.
  public var description: String { "\(aperture) · \(shutterSpeed) · ISO \(iso)" }
}
