/// The exposure of the shot: chosen by the camera step, or the camera's own.
///
/// Values are formatted the way cameras show them, so they can be displayed as they are.
/// A webcam exposes by itself: its settings say so (``isCameraOwn``), carry the stream's mode
/// and only what the device reported; nothing is made up, so a photo's EXIF never claims an
/// f-number or an ISO the camera did not give.
///
/// ```swift
/// let settings = CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400)
/// print(settings)  // f/2.8 · 1/60s · ISO 400
/// let webcam = CameraSettings.cameraOwn(mode: "1280×720 MJPEG 30 fps", exposureTime: 1.0 / 60)
/// print(webcam)  // 1280×720 MJPEG 30 fps · exposure 1/60 s (camera's own)
/// ```
public struct CameraSettings: Hashable, Sendable, CustomStringConvertible {
  /// The aperture, for example `"f/2.8"`; `nil` when the camera does not say (a webcam).
  public var aperture: String?
  /// The shutter speed, for example `"1/60s"` or `"2s"`; `nil` when not known.
  public var shutterSpeed: String?
  /// The ISO sensitivity, for example `400`; `nil` when the camera does not say.
  public var iso: Int?
  /// The f-number as a number (`2.8`), for the photo's EXIF; `nil` when only the text is known.
  public var fNumber: Double?
  /// The exposure time in seconds (`1/60` for `"1/60s"`), for the photo's EXIF; `nil` when
  /// only the text is known.
  public var exposureTime: Double?
  /// The scene's brightness the camera metered, as EV at ISO 100; `nil` when not metered.
  public var sceneEV: Double?
  /// The mode the camera streams in, such as `"1280×720 MJPEG 30 fps"`; `nil` for a camera
  /// that does not stream (a still photo, a simulation).
  public var mode: String?
  /// Whether the camera chose the exposure by itself (a webcam's or an IP camera's auto
  /// exposure) rather than the camera step's program.
  public var isCameraOwn: Bool
  /// The sensor gain the device reported, in its driver's units (a webcam's `gain` control),
  /// and whether the camera sets it by itself; `nil` when it reports none.
  public var gain: Gain?

  /// A webcam's gain as its driver reports it.
  public struct Gain: Hashable, Sendable, CustomStringConvertible {
    /// The value, in the driver's units (not ISO: drivers do not say what it means).
    public var value: Int
    /// Whether the camera sets it by itself (`autogain` on), when it says.
    public var isAutomatic: Bool?

    /// Creates a gain.
    ///
    /// - Parameters:
    ///   - value: The driver's value.
    ///   - isAutomatic: Whether the camera sets it by itself, when known.
    public init(value: Int, isAutomatic: Bool? = nil) {
      self.value = value
      self.isAutomatic = isAutomatic
    }

    /// `gain 32 (auto)`, `gain 32`.
    public var description: String {
      "gain \(value)" + (isAutomatic == true ? " (auto)" : "")
    }
  }

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
    self.mode = nil
    self.isCameraOwn = false
    self.gain = nil
  }

  /// The settings of a camera that exposes by itself: its mode and what it reported.
  ///
  /// - Parameters:
  ///   - mode: The stream's mode, such as `"1280×720 MJPEG 30 fps"`, when known.
  ///   - exposureTime: The exposure time in seconds the device reported, if it did.
  ///   - iso: The ISO the device reported, if it did.
  ///   - gain: The gain the device reported, if it did.
  ///   - sceneEV: The scene brightness measured on the frames, when known.
  /// - Returns: Settings marked ``isCameraOwn``, with nothing the camera did not give.
  public static func cameraOwn(
    mode: String?, exposureTime: Double? = nil, iso: Int? = nil, gain: Gain? = nil,
    sceneEV: Double? = nil
  ) -> CameraSettings {
    var settings = CameraSettings(aperture: "", shutterSpeed: "", iso: 0, sceneEV: sceneEV)
    settings.aperture = nil
    settings.shutterSpeed = exposureTime.flatMap { $0 > 0 ? Self.shutterText($0) : nil }
    settings.iso = iso
    settings.exposureTime = exposureTime.flatMap { $0 > 0 ? $0 : nil }
    settings.mode = mode
    settings.isCameraOwn = true
    settings.gain = gain
    return settings
  }

  /// A shutter speed the way cameras show it: `"1/60s"`, `"2s"`, `"0.5s"`.
  public static func shutterText(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds > 0 else { return "?" }
    if seconds >= 0.3 { return "\(decimalText(seconds))s" }
    return "1/\(Int((1 / seconds).rounded()))s"
  }

  /// A number the way cameras show it: one decimal at most, none when whole (`5.6`, `9`).
  public static func decimalText(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    guard tenths.isFinite, abs(tenths) < 1e15 else { return "?" }
    return tenths.truncatingRemainder(dividingBy: 10) == 0
      ? String(Int(tenths / 10)) : String(tenths / 10)
  }

  /// The settings as one line: `f/2.8 · 1/60s · ISO 400`, or for a camera that exposes by
  /// itself `1280×720 MJPEG 30 fps · exposure 1/60 s (camera's own)`.
  public var description: String {
    var parts: [String] = mode.map { [$0] } ?? []
    if isCameraOwn {
      if let shutterSpeed {
        let spaced = shutterSpeed.hasSuffix("s") ? shutterSpeed.dropLast() + " s" : shutterSpeed
        parts.append("exposure \(spaced) (camera's own)")
      } else {
        parts.append("exposure: the camera's own")
      }
      if let iso { parts.append("ISO \(iso)") }
      if let gain { parts.append(gain.description) }
    } else {
      parts += [aperture, shutterSpeed].compactMap { $0 }
      if let iso { parts.append("ISO \(iso)") }
    }
    return parts.joined(separator: " · ")
  }
}
