import PhotoTimer

/// The error an unimplemented test double throws, naming the endpoint that was called.
public struct UnimplementedError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The endpoint that was called, for example `"camera.capture"`.
  public var endpoint: String
  /// `unimplemented: camera.capture was called`.
  public var description: String { "unimplemented: \(endpoint) was called" }
}

extension PhotoTimerServices {
  /// Services whose every endpoint fails loudly with ``UnimplementedError``.
  ///
  /// Start from this in a test and replace only the endpoints the test expects to run, so an
  /// unexpected path shows up as a failed run naming the endpoint, not as a silent success.
  ///
  /// ```swift
  /// var services = PhotoTimerServices.unimplemented
  /// services.camera.prepare = { CameraSettings(aperture: "f/4", shutterSpeed: "1/125s", iso: 100) }
  /// ```
  public static var unimplemented: PhotoTimerServices {
    PhotoTimerServices(
      camera: CameraService(
        prepare: { throw UnimplementedError(endpoint: "camera.prepare") },
        capture: { _ in throw UnimplementedError(endpoint: "camera.capture") }
      ),
      location: Preparation(isRequired: false) {
        throw UnimplementedError(endpoint: "location")
      },
      filter: Preparation(isRequired: false) {
        throw UnimplementedError(endpoint: "filter")
      }
    )
  }
}
