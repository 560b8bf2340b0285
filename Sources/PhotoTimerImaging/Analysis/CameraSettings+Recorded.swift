import PhotoTimer

extension CameraSettings {
  /// The settings a camera recorded for a photo (EXIF FNumber, ExposureTime, ISO), named
  /// the way cameras show them: `f/9 · 1/200s · ISO 200`, `f/5.6 · 2s · ISO 100`.
  ///
  /// - Parameters:
  ///   - fNumber: The f-number, such as 9 or 5.6.
  ///   - exposureTime: The exposure time in seconds, such as 0.005.
  ///   - iso: The ISO speed.
  /// - Returns: The settings, with the numbers kept alongside the names.
  public static func recorded(fNumber: Double, exposureTime: Double, iso: Int) -> CameraSettings {
    CameraSettings(
      aperture: "f/\(decimalText(fNumber))", shutterSpeed: shutterText(exposureTime), iso: iso,
      fNumber: fNumber, exposureTime: exposureTime)
  }
}
