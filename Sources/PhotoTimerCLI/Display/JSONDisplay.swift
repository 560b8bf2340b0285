import Foundation
import PhotoTimer

/// JSON Lines: one object per event, each with `"event"` and `"t"` (seconds since the start).
///
/// The schema is documented in the README.
actor JSONDisplay: CommandDisplay {
  private let sink: any OutputSink
  private let camera: CameraIdentity?
  private var failure = DrawFailure()

  init(sink: any OutputSink, camera: CameraIdentity? = nil) {
    self.sink = sink
    self.camera = camera
  }

  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) {
    guard let line = update?.jsonLine(time: time, camera: camera) else { return }
    failure.attempt { try sink.write(line + "\n") }
  }

  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline,
    photos: [URL]
  ) {}

  func close() -> String? { failure.message }
}
