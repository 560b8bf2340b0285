import Foundation
import PhotoTimer

/// The built-in camera: no hardware, a procedurally drawn photograph under a lighting preset.
///
/// It behaves like a webcam: previews come at ``frameRate`` on the given clock, the first
/// ones badly exposed (three stops dark), and its auto-exposure converges over about half a
/// second. Once settled it renders the full-resolution picture in the background (off the
/// cooperative pool), so the photo is ready the moment the shutter fires.
///
/// ```swift
/// let camera = SceneCamera(preset: .daylight, width: 1920, height: 1080, clock: ContinuousClock())
/// ```
public struct SceneCamera<C: Clock>: CameraSource where C.Duration == Duration {
  /// The lighting.
  public var preset: ScenePreset
  /// Photo width in pixels.
  public var width: Int
  /// Photo height in pixels.
  public var height: Int
  /// Previews per second.
  public var frameRate: Int
  /// The clock previews are paced on.
  public var clock: C

  /// Creates the camera.
  ///
  /// - Parameters:
  ///   - preset: The lighting (default daylight).
  ///   - width: Photo width in pixels (default 1920).
  ///   - height: Photo height in pixels (default 1080).
  ///   - frameRate: Previews per second (default 30).
  ///   - clock: The clock previews are paced on.
  public init(
    preset: ScenePreset = .daylight, width: Int = 1920, height: Int = 1080, frameRate: Int = 30,
    clock: C
  ) {
    self.preset = preset
    self.width = max(width, 1)
    self.height = max(height, 1)
    self.frameRate = max(frameRate, 1)
    self.clock = clock
  }

  /// `"phototimer"`.
  public var make: String { "phototimer" }
  /// `"Scene camera (daylight)"`.
  public var model: String { "Scene camera (\(preset.name))" }

  /// Opens the camera: draws the preview's radiance once (a few milliseconds).
  public func open() async throws -> any CameraSession {
    try Task.checkCancellation()
    return SceneCameraSession(camera: self)
  }
}

/// An open scene camera.
final class SceneCameraSession<C: Clock>: CameraSession where C.Duration == Duration {
  private struct State {
    var frameIndex = 0
    var exposureEV: Double
    var photo: Task<Frame, any Error>?
    var closed = false
  }

  private let camera: SceneCamera<C>
  private let renderer: SceneRenderer
  private let previewWidth: Int
  private let previewHeight: Int
  private let radiance: [Float]
  private let opened: C.Instant
  private let state: Locked<State>

  /// How far auto-exposure moves towards the target each frame (35 %).
  static var convergence: Double { 0.35 }

  init(camera: SceneCamera<C>) {
    self.camera = camera
    renderer = SceneRenderer(preset: camera.preset)
    previewWidth = 320
    previewHeight = max(1, Int((320 * Double(camera.height) / Double(camera.width)).rounded()))
    radiance = renderer.radianceMap(width: previewWidth, height: previewHeight)
    opened = camera.clock.now
    // NB: like a webcam that opens on its last settings: three stops off for this scene.
    state = Locked(State(exposureEV: camera.preset.ev + 3))
  }

  func nextPreview() async throws -> Frame {
    let (index, exposure) = try state.withLock { state throws -> (Int, Double) in
      guard !state.closed else { throw CancellationError() }
      defer { state.frameIndex += 1 }
      return (state.frameIndex, state.exposureEV)
    }
    let interval = Duration.seconds(1) / camera.frameRate
    let deadline = opened.advanced(by: interval * (index + 1))
    try await camera.clock.sleep(until: deadline, tolerance: nil)
    let frame = renderer.frame(
      radiance: radiance, width: previewWidth, height: previewHeight, exposureEV: exposure,
      frameIndex: index, timestamp: opened.duration(to: camera.clock.now))
    // Auto-exposure: move part of the way towards mid-grey, at most 1.5 stops a frame.
    let error = log2(max(SceneStatistics(frame).meanLinear, 1e-4) / Metering.midGrey)
    let step = min(max(error * Self.convergence, -1.5), 1.5)
    let settledExposure = state.withLock { state -> Double in
      state.exposureEV += step
      return state.exposureEV
    }
    if abs(error) < 0.05 { startPhoto(at: settledExposure) }
    return frame
  }

  /// Starts rendering the full-resolution photo in the background, once.
  private func startPhoto(at exposure: Double) {
    let renderer = renderer
    let width = camera.width
    let height = camera.height
    state.withLock { state in
      guard state.photo == nil, !state.closed else { return }
      state.photo = Task {
        try await OffPool.run { isCancelled in
          try renderer.render(
            width: width, height: height, exposureEV: exposure, timestamp: .zero,
            isCancelled: isCancelled)
        }
      }
    }
  }

  func capture() async throws -> Frame {
    let exposure = state.withLock { $0.exposureEV }
    startPhoto(at: exposure)
    guard let photo = state.withLock({ $0.photo }) else { throw CancellationError() }
    var frame = try await withTaskCancellationHandler {
      try await photo.value
    } onCancel: {
      photo.cancel()
    }
    // NB: the scene does not move, so the picture rendered once settled is the one at zero;
    // it carries the capture instant.
    frame.timestamp = opened.duration(to: camera.clock.now)
    return frame
  }

  func close() async {
    let photo = state.withLock { state -> Task<Frame, any Error>? in
      state.closed = true
      defer { state.photo = nil }
      return state.photo
    }
    photo?.cancel()
    _ = try? await photo?.value
  }
}
