// The library examples of release 0.1.0's guide (docs/library.md at 794cc0e), as an app
// written against them would hold them. `scripts/check-api.py` type-checks this file against
// the current build in `make lint`: an app built on the last release must still build, with
// deprecation warnings at most. The SwiftUI example's Apple-only parts (CoreGraphics, the
// view) are left out; everything it calls in the libraries is kept. Never edit an example
// to make it pass: keep the old API, deprecated, instead.

import Foundation
import Observation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation

// Example 1: a screen's model and its preview loop (the guide's TimerScreen, less CGImage).
@MainActor @Observable
final class TimerScreen {
  let camera: LiveCamera
  let model: PhotoTimerViewModel
  private(set) var preview: Frame?

  init(source: any CameraSource, sink: any PhotoSink) {
    let clock = ContinuousClock()
    camera = LiveCamera(source)
    let pipeline = CameraPipeline(source: camera, sink: sink, clock: clock)
    model = PhotoTimerViewModel(
      countdownSeconds: 5, services: pipeline.services(location: .disabled(reason: "off")))
  }

  func showPreviews() async {
    do {
      try await camera.start()
      let room = PreviewSize(width: 1280, height: 960)
      for try await frame in camera.previews(fitting: room, mirrored: true) {
        preview = frame
      }
    } catch {}
    await camera.close()
  }

  // What the guide's view reads and calls.
  func describe() -> [String] {
    var lines: [String] = []
    switch model.status {
    case .counting(let remaining): lines.append("\(remaining)")
    case .waiting: lines.append("waiting for the camera…")
    case .capturing: lines.append("capturing")
    case .captured(let photo): lines.append("\(photo.settings) · \(photo.filter)")
    case .failed(let failure): lines.append(failure.message)
    case .idle: break
    }
    for step in PreparationStep.allCases {
      switch model.reports[step]?.outcome {
      case .succeeded(let value)?: lines.append("✓ \(step.rawValue)  \(value)")
      case .failed(let reason)?, .dropped(let reason)?, .skipped(let reason)?:
        lines.append("– \(step.rawValue)  \(reason)")
      case nil: lines.append("… \(step.rawValue)")
      }
    }
    return lines
  }

  func buttons() {
    model.startTimer()
    model.takeNow()
    model.cancel()
  }
}

extension Frame {
  var rgbRowBytes: Int { bytesPerRow }
  var rgb: [UInt8] { Array(pixels) }
}

// Example 2: services of the app's own steps.
struct Webcam: Sendable {
  func settleAndMeter() async throws -> CameraSettings { fatalError() }
  func shoot(_ request: CaptureRequest) async throws -> URL? { nil }
  func close() async {}
}
struct GPS: Sendable { func placeOfFirstFix() async throws -> LocationTag { fatalError() } }
struct Analyser: Sendable { func suggest() async throws -> FilterSuggestion { fatalError() } }

func example2(webcam: Webcam, gps: GPS, analyser: Analyser) -> PhotoTimerServices {
  PhotoTimerServices(
    camera: CameraService(
      prepare: { try await webcam.settleAndMeter() },
      capture: { request in try await webcam.shoot(request) },
      release: { await webcam.close() }),
    location: Preparation(isRequired: false) { try await gps.placeOfFirstFix() },
    filter: Preparation(isRequired: false) { try await analyser.suggest() })
}

// Example 3: a session with the app's own advice on errors, and a time-lapse.
struct AppHint: Error {
  init(_ error: any Error, _ hint: String) {}
}

@MainActor
func example3(services: PhotoTimerServices) async {
  let session = PhotoTimerSession(
    configuration: PhotoTimerConfiguration(countdownSeconds: 3),
    services: services.mapErrors { error in
      error is GPSDError ? AppHint(error, "Settings ▸ GPS") : error
    },
    clock: ContinuousClock(), timeLapse: TimeLapse(interval: .seconds(10), count: 360))
  let result = await session.run { event in
    if case .timeLapseShot(let number, let total) = event { print("shot \(number) of \(total)") }
  }
  _ = result
}

// Example 4: naming a place offline.
func example4() throws {
  let geocoder = try ReverseGeocoder.bundled()
  _ = geocoder.describe(Coordinate(latitude: 37.7694, longitude: -122.4862))?.description
  _ = geocoder.describe(Coordinate(latitude: 51.5007, longitude: -0.1246))?.label
}

// Example 5: gpsd as the location step.
func example5(camera: CameraService, filter: Preparation<FilterSuggestion>) -> PhotoTimerServices {
  let location = GPSDLocationSource(endpoint: .standard, clock: ContinuousClock())
  return PhotoTimerServices(camera: camera, location: location.preparation(), filter: filter)
}

// Example 6: the scene camera into the Pictures folder.
@MainActor
func example6() throws -> PhotoTimerViewModel {
  let clock = ContinuousClock()
  let pipeline = CameraPipeline(
    source: SceneCamera(preset: .goldenHour, clock: clock),
    sink: PhotoStore(folder: PhotoStore.defaultFolder(), createsFolder: true), clock: clock)
  return PhotoTimerViewModel(
    services: pipeline.services(
      location: try ManualLocation(parsing: "37.7694,-122.4862").preparation()))
}

// Example 7: a webcam through ffmpeg.
func example7(folder: URL) {
  let clock = ContinuousClock()
  let camera = FFmpegCamera(input: "/dev/video0", format: "v4l2", clock: ContinuousClock())
  _ = CameraPipeline(source: camera, sink: PhotoStore(folder: folder), clock: clock)
}
