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
    func decimal(_ value: Double) -> String {
      let tenths = (value * 10).rounded()
      return tenths.truncatingRemainder(dividingBy: 10) == 0
        ? String(Int(tenths / 10)) : String(tenths / 10)
    }
    let shutter =
      exposureTime >= 0.3 ? "\(decimal(exposureTime))s" : "1/\(Int((1 / exposureTime).rounded()))s"
    return CameraSettings(
      aperture: "f/\(decimal(fNumber))", shutterSpeed: shutter, iso: iso, fNumber: fNumber,
      exposureTime: exposureTime)
  }
}
