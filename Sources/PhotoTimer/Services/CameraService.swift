#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the camera service is asked to shoot at the shutter.
public struct CaptureRequest: Hashable, Sendable {
  /// The exposure the camera step chose.
  public var settings: CameraSettings
  /// Where the photo is taken, if known by the shutter.
  public var location: LocationTag?
  /// The look to apply.
  public var filter: PhotoFilter
  /// When the shutter fired, from the start of the run.
  public var shutterOffset: Duration

  /// Creates a capture request.
  ///
  /// - Parameters:
  ///   - settings: The exposure to use.
  ///   - location: The place, if known.
  ///   - filter: The look to apply.
  ///   - shutterOffset: When the shutter fired, from the start of the run.
  public init(
    settings: CameraSettings, location: LocationTag?, filter: PhotoFilter, shutterOffset: Duration
  ) {
    self.settings = settings
    self.location = location
    self.filter = filter
    self.shutterOffset = shutterOffset
  }
}

/// The camera: prepared during the countdown, asked to capture at zero.
///
/// The camera step is always required: there is no photo without it.
public struct CameraService: Sendable {
  /// Opens the source, lets auto-exposure settle and meters the scene.
  public var prepare: @Sendable () async throws -> CameraSettings
  /// Takes the photo and writes it, returning the file written (or `nil` when it writes none).
  ///
  /// When its task is cancelled it must stop and remove any partly written file.
  public var capture: @Sendable (CaptureRequest) async throws -> URL?
  /// Closes whatever `prepare` opened (streams, threads, child processes). The engine calls
  /// it once at the end of every run, captured, failed or cancelled, and a cancelled run
  /// publishes ``PhotoTimerEvent/Kind/cancelled`` only after it returned.
  public var release: @Sendable () async -> Void

  /// Creates a camera service.
  ///
  /// - Parameters:
  ///   - prepare: Opens and meters the camera; returns the exposure.
  ///   - capture: Takes and writes the photo; returns the file written, if any.
  ///   - release: Closes what `prepare` opened; called at the end of every run.
  public init(
    prepare: @escaping @Sendable () async throws -> CameraSettings,
    capture: @escaping @Sendable (CaptureRequest) async throws -> URL?,
    release: @escaping @Sendable () async -> Void = {}
  ) {
    self.prepare = prepare
    self.capture = capture
    self.release = release
  }
}
