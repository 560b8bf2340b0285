import CV4L2

/// What a webcam reports of its own exposure through its controls (UVC's
/// `exposure_time_absolute`, `auto_exposure`, `gain`); each `nil` when the device has no such
/// control (vivid has only gain).
package struct V4L2Exposure: Hashable, Sendable {
  /// The exposure time in seconds (`exposure_time_absolute` is in 100 µs units).
  package var exposureTime: Double?
  /// Whether the camera exposes by itself (`auto_exposure` not manual); `nil` if not reported.
  package var isAutomatic: Bool?
  /// The analogue gain, in the driver's units.
  package var gain: Int?
  /// Whether the gain is automatic.
  package var isAutomaticGain: Bool?

  /// Reads the controls of the device at `path` (a second descriptor: the stream goes on).
  ///
  /// - Parameters:
  ///   - path: The node.
  ///   - driver: How requests reach the driver.
  /// - Returns: What the device reports; `nil` when it cannot be opened.
  package static func read(_ path: String, driver: V4L2Driver = .kernel) -> V4L2Exposure? {
    guard let handle = try? driver.open(path) else { return nil }
    defer { handle.close() }
    // NB: V4L2_EXPOSURE_MANUAL is 1; auto (0), shutter priority (2), aperture priority (3).
    let mode = handle.control(phototimer_cid_exposure_auto)
    let absolute = handle.control(phototimer_cid_exposure_absolute)
    return V4L2Exposure(
      exposureTime: absolute.flatMap { $0 > 0 ? Double($0) / 10_000 : nil },
      isAutomatic: mode.map { $0 != 1 },
      gain: handle.control(phototimer_cid_gain),
      isAutomaticGain: handle.control(phototimer_cid_autogain).map { $0 != 0 })
  }
}
