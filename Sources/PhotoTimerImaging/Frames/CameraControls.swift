/// A camera's own automatic controls (exposure, gain, white balance, focus), which a booth
/// holds through a session so that every shot of a strip looks alike: read once, automatic
/// off, the values read written back, then given back as they were.
///
/// ```swift
/// if let controls = camera.controls {
///   let held = try await controls.hold()   // [gain 57]
///   …                                      // the session's shots
///   try await controls.release()
/// }
/// ```
public protocol CameraControls: Sendable {
  /// The controls the camera has that can be held, by name (`"exposure"`, `"gain"`,
  /// `"white balance"`, `"focus"`); empty when it has none.
  func available() async -> [String]
  /// Holds each automatic control at its value now: automatic off and the value read written
  /// back. A control the user had already set by hand is left as it is. Nothing is held when
  /// it throws (what it had changed is given back first).
  ///
  /// - Returns: What is held, by name and value; empty when the camera has no such controls.
  /// - Throws: An error naming the control and the device when one cannot be written.
  func hold() async throws -> [HeldControl]
  /// Gives every held control back as it was before ``hold()``. Does nothing when nothing is
  /// held.
  ///
  /// - Throws: An error naming the control when one cannot be written (the camera unplugged:
  ///   whoever opens it next gives them back).
  func release() async throws
}

/// One control a ``CameraControls`` holds: its name and the value it is held at, in the
/// device's own units.
public struct HeldControl: Hashable, Sendable, CustomStringConvertible {
  /// `"exposure"`, `"gain"`, `"white balance"` or `"focus"`.
  public var name: String
  /// The value it is held at, in the device's units (exposure in 100 µs, white balance in
  /// kelvin).
  public var value: Int

  /// Creates a held control.
  public init(name: String, value: Int) {
    self.name = name
    self.value = value
  }

  /// `gain 57`.
  public var description: String { "\(name) \(value)" }
}
