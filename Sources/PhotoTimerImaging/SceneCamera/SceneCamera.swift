import Foundation
import PhotoTimer
import PhotoTimerConcurrency

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
///
/// Previews are drawn at preview size: the still parts once at open, the moving ones (the
/// cloudy sky, the swaying tree) each frame, with fresh noise, off the cooperative pool.
/// The photo starts from a full-size still drawn in the background once the exposure has
/// settled; at the shutter only its moving parts are redrawn, as they are in the frame
/// nearest that instant.
final class SceneCameraSession<C: Clock>: CameraSession where C.Duration == Duration {
  private struct State {
    var frameIndex = 0
    var exposureEV: Double
    /// The full-size still, rendering or rendered, at `stillExposure`.
    var still: Task<Void, Never>?
    var stillExposure: Double?
    var closed = false
  }

  private let camera: SceneCamera<C>
  private let renderer: SceneRenderer
  private let previewWidth: Int
  private let previewHeight: Int
  private let radiance: [Float]
  private let moving: [Int32]
  private let opened: C.Instant
  private let state: Locked<State>
  private let still = OneShot<Frame>()

  /// How far auto-exposure moves towards the target each frame (35 %).
  static var convergence: Double { 0.35 }

  init(camera: SceneCamera<C>) {
    self.camera = camera
    renderer = SceneRenderer(preset: camera.preset)
    previewWidth = min(camera.width, 320)
    previewHeight = max(
      1, Int((Double(previewWidth) * Double(camera.height) / Double(camera.width)).rounded()))
    radiance = renderer.radianceMap(width: previewWidth, height: previewHeight)
    moving = renderer.movingPixels(width: previewWidth, height: previewHeight)
    opened = camera.clock.now
    // NB: like a webcam that opens on its last settings: three stops off for this scene.
    state = Locked(State(exposureEV: camera.preset.ev + 3))
  }

  private var interval: Duration { .seconds(1) / camera.frameRate }

  /// A duration in seconds, for the scene's motion.
  private static func seconds(_ duration: Duration) -> Float {
    Float(duration.secondsValue)
  }

  func nextPreview() async throws -> Frame {
    let (index, exposure) = try state.withLock { state throws -> (Int, Double) in
      guard !state.closed else { throw CancellationError() }
      defer { state.frameIndex += 1 }
      return (state.frameIndex, state.exposureEV)
    }
    let nominal = interval * (index + 1)
    try await camera.clock.sleep(until: opened.advanced(by: nominal), tolerance: nil)
    let renderer = renderer
    let (map, moving, width, height) = (radiance, self.moving, previewWidth, previewHeight)
    let timestamp = opened.duration(to: camera.clock.now)
    let frame = await OffPool.quick {
      renderer.preview(
        map: map, moving: moving, width: width, height: height, exposureEV: exposure,
        frameIndex: index + 1, time: Self.seconds(nominal), timestamp: timestamp)
    }
    // Auto-exposure: move part of the way towards mid-grey, at most 1.5 stops a frame.
    let error = log2(max(SceneStatistics(frame).meanLinear, 1e-4) / Metering.midGrey)
    let step = min(max(error * Self.convergence, -1.5), 1.5)
    let settledExposure = state.withLock { state -> Double in
      state.exposureEV += step
      return state.exposureEV
    }
    if abs(error) < 0.05 { startStill(at: settledExposure) }
    return frame
  }

  /// Starts rendering the full-size still in the background, once.
  private func startStill(at exposure: Double) {
    let renderer = renderer
    let (width, height) = (camera.width, camera.height)
    let still = still
    state.withLock { state in
      guard state.still == nil, !state.closed else { return }
      state.stillExposure = exposure
      state.still = Task {
        do {
          let frame = try await OffPool.run { isCancelled in
            try renderer.render(
              width: width, height: height, exposureEV: exposure, timestamp: .zero,
              isCancelled: isCancelled)
          }
          still.fulfil(.success(frame))
        } catch {
          still.fulfil(.failure(error))
        }
      }
    }
  }

  /// The photo as the frame nearest now: the still with its moving parts redrawn at that
  /// frame's instant. A cancelled capture stops waiting; the still stays for the next one.
  func capture() async throws -> Frame {
    let (exposure, elapsed, closed) = state.withLock {
      ($0.exposureEV, opened.duration(to: camera.clock.now), $0.closed)
    }
    guard !closed else { throw CancellationError() }
    startStill(at: exposure)
    var frame = try await still.value()
    let index = Int((elapsed / interval).rounded())
    let instant = interval * index
    let renderer = renderer
    frame = try await OffPool.run { [frame] isCancelled in
      var frame = frame
      try renderer.drawMoving(
        into: &frame, exposureEV: frame.exposureEV ?? exposure, time: Self.seconds(instant),
        frameIndex: index, isCancelled: isCancelled)
      return frame
    }
    frame.timestamp = instant
    return frame
  }

  func close() async {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.closed = true
      return state.still
    }
    task?.cancel()
    await task?.value
    still.fulfil(.failure(CancellationError()))
  }
}
