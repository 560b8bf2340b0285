import Foundation
import PhotoTimer

/// Something that takes pictures: the scene camera, an image file, a webcam, a DSLR.
///
/// Opening it gives a ``CameraSession``: previews while the count runs, then the photo.
public protocol CameraSource: Sendable {
  /// The maker written into the photo's EXIF `Make`, such as `"phototimer"`.
  var make: String { get }
  /// The model written into the photo's EXIF `Model`, such as `"Scene camera (daylight)"`.
  var model: String { get }
  /// Opens the camera.
  ///
  /// - Throws: An error whose description says what failed and what to do.
  func open() async throws -> any CameraSession
  /// Where the faces followed in this camera's picture are shown: a ``LiveCamera``'s, which a
  /// screen draws over its picture; `nil` (the default) for a camera no screen shows.
  var facesInView: FacesInView? { get }
  /// The camera's own automatic controls, which a booth holds through a session; `nil` (the
  /// default) for a camera whose controls cannot be reached from here.
  var controls: (any CameraControls)? { get }
}

extension CameraSource {
  /// No screen shows this camera's picture.
  public var facesInView: FacesInView? { nil }

  /// No controls to hold.
  public var controls: (any CameraControls)? { nil }
}

/// An open camera. Close it when done; closing stops every stream, thread and child process
/// it started.
public protocol CameraSession: Sendable {
  /// The next preview frame, as soon as the camera has one; small (about 320 × 240) and
  /// carrying the exposure it was taken with.
  func nextPreview() async throws -> Frame
  /// The next frame of the running stream, at the size the camera delivers it (the whole
  /// frame for a video stream, the preview for a camera that renders or decodes previews).
  /// A ``LiveCamera`` reads the stream through this; the default is ``nextPreview()``.
  func nextFrame() async throws -> Frame
  /// Previews the camera delivered already, oldest first: a settler that joins a running
  /// stream starts from them, so a camera that has settled is ready at once. The default is
  /// none.
  func recentPreviews() async throws -> [Frame]
  /// The photo: the full-resolution frame taken nearest to now.
  func capture() async throws -> Frame
  /// A burst: the frame nearest to now, then the next `count − 1` frames (one per frame
  /// interval). The default takes `count` captures one after another.
  func burst(count: Int) async throws -> [Frame]
  /// The full-size frames around the shutter instant (now), to choose the photo among:
  /// those held from `lead` before now, then each new one. `nil` (the default) for a camera
  /// without a running stream of full-size frames, whose photo is ``capture()``'s.
  func shutterFrames(lead: Duration) async throws -> ShutterFrames?
  /// The exposure as the camera itself chose it, for a camera that exposes by itself (a
  /// webcam, an IP camera): its mode and what the device reports, nothing made up. `nil`
  /// when the camera step's program chooses the exposure (the scene camera). The default is
  /// `nil`.
  func ownSettings() async throws -> CameraSettings?
  /// The camera's name as its stream gives it (an IP camera's RTSP session name), recorded
  /// in the photo in place of the source's ``CameraSource/make`` and ``CameraSource/model``;
  /// `nil` (the default) keeps those.
  func reportedName() async -> CameraName?
  /// Waits while the stream keeps working; throws why once it fails (the camera unplugged,
  /// its process or pipeline ended). Returns when the session is closed, throws
  /// `CancellationError` when cancelled. The default waits until cancelled.
  func watch() async throws
  /// Stops the camera. Safe to call more than once.
  func close() async
}

extension CameraSession {
  /// The next preview.
  public func nextFrame() async throws -> Frame { try await nextPreview() }

  /// Waits until cancelled: a camera that cannot tell whether it still works.
  public func watch() async throws {
    let (stream, _) = AsyncStream<Never>.makeStream()
    for await _ in stream {}
    throw CancellationError()
  }

  /// `nil`: the source's own make and model.
  public func reportedName() async -> CameraName? { nil }

  /// `nil`: the camera step's program chooses the exposure.
  public func ownSettings() async throws -> CameraSettings? { nil }

  /// None: the settler watches the previews from now on.
  public func recentPreviews() async throws -> [Frame] { [] }

  /// None: the photo is ``capture()``'s.
  public func shutterFrames(lead: Duration) async throws -> ShutterFrames? { nil }

  /// `count` captures, one after another.
  public func burst(count: Int) async throws -> [Frame] {
    var frames: [Frame] = []
    for _ in 0..<max(count, 1) { frames.append(try await capture()) }
    return frames
  }
}

/// How long a camera had to settle, and whether it did.
public struct SettleReport: Equatable, Sendable {
  /// Whether the brightness became stable before the time limit.
  public var settled: Bool
  /// How many previews were looked at.
  public var frames: Int
  /// The last preview, the one metering and the filter suggestion use.
  public var preview: Frame
}

/// Waits until a camera's auto-exposure has settled, by looking at its frames.
///
/// Settled means: the mean brightness of the last ``window`` previews stays within
/// ``tolerance`` (relative) of their average. Webcams open badly exposed and converge over
/// about half a second; a fixed sleep is either too short or wasted time, so this watches.
///
/// ```swift
/// let report = try await ExposureSettler().settle(session, clock: clock)
/// ```
public struct ExposureSettler: Hashable, Sendable {
  /// How many consecutive previews must agree.
  public var window: Int
  /// How far (relative) their brightness may spread.
  public var tolerance: Double
  /// The longest to wait; after it the latest preview is used as it is.
  public var timeout: Duration

  /// Creates a settler.
  ///
  /// - Parameters:
  ///   - window: Consecutive previews that must agree (default 5).
  ///   - tolerance: Relative spread allowed among them (default 2 %).
  ///   - timeout: The longest to wait (default 3 s).
  public init(window: Int = 5, tolerance: Double = 0.02, timeout: Duration = .seconds(3)) {
    self.window = max(window, 2)
    self.tolerance = tolerance
    self.timeout = timeout
  }

  /// Whether brightness values (oldest first) count as settled.
  public func isSettled(_ brightness: [Double]) -> Bool {
    guard brightness.count >= window else { return false }
    let recent = brightness.suffix(window)
    let mean = recent.reduce(0, +) / Double(recent.count)
    guard let low = recent.min(), let high = recent.max() else { return false }
    return (high - low) <= max(mean, 1e-3) * tolerance
  }

  /// Reads previews from `session` until they are settled or ``timeout`` has passed.
  ///
  /// - Parameters:
  ///   - session: The open camera.
  ///   - clock: The clock the timeout is measured on.
  public func settle<C: Clock>(
    _ session: any CameraSession, clock: C
  ) async throws
    -> SettleReport
  where C.Duration == Duration {
    let start = clock.now
    var brightness: [Double] = []
    var last: Frame?
    for preview in try await session.recentPreviews().suffix(window) {
      brightness.append(SceneStatistics(preview).meanLinear)
      last = preview
    }
    if let last, isSettled(brightness) {
      return SettleReport(settled: true, frames: brightness.count, preview: last)
    }
    while true {
      let preview = try await session.nextPreview()
      brightness.append(SceneStatistics(preview).meanLinear)
      if isSettled(brightness) {
        return SettleReport(settled: true, frames: brightness.count, preview: preview)
      }
      if start.duration(to: clock.now) >= timeout {
        return SettleReport(settled: false, frames: brightness.count, preview: preview)
      }
    }
  }
}

/// A camera's maker and model, as recorded in a photo's EXIF `Make` and `Model` (an empty
/// maker is left out).
public struct CameraName: Hashable, Sendable {
  /// The maker; empty when not known.
  public var make: String
  /// The model.
  public var model: String

  /// Creates a name.
  public init(make: String, model: String) {
    self.make = make
    self.model = model
  }

  /// Stock session names that servers give every stream, which name no camera.
  static let stockNames: Set<String> = [
    "session streamed with gstreamer", "media presentation", "no name", "unnamed", "stream",
    "session", "live", "-", "rtsp session", "live555 streaming media",
  ]

  /// Whether `name` names a camera rather than being empty or a server's stock phrase.
  public static func isMeaningful(_ name: String) -> Bool {
    let trimmed = name.trimmingCharacters(in: .whitespaces)
    return !trimmed.isEmpty && trimmed.count <= 64 && !stockNames.contains(trimmed.lowercased())
  }
}
