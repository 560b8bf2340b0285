import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

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

  /// `{"event":"session","t":0.4,"session":1,"state":"started","shots":4}`, `kept` and
  /// `retaken` with `shot` and `file`, `collage` with `file` (or `error`), and `session` with
  /// `"state":"complete"` or `"ended"` and `kept`; `print` with `print`, `job`, `state`
  /// and `file`, `printer` with `state`, `reasons` and its `trouble` and `step`.
  func showEvent(_ event: any OutputEvent, time: Duration) {
    let line = event.jsonLine(time: time)
    failure.attempt { try sink.write(line + "\n") }
  }

  /// `{"event":"ready","t":4.2,"state":"waiting","for":"hold still"}` while a count that
  /// starts itself waits (each time what it waits for changes), `"state":"ready"` when
  /// everyone is in and still (the `started` event follows), `"state":"unavailable"` with
  /// `"reason"` when it cannot watch.
  func showReady(_ report: ScreenStage.ReadyReport, time: Duration) {
    var object = JSONObject()
    object.add("event", "ready")
    object.add("t", time.secondsValue)
    switch report {
    case .state(.ready): object.add("state", "ready")
    case .state(.waiting(let words)):
      object.add("state", "waiting")
      object.add("for", words)
    case .unavailable(let reason):
      object.add("state", "unavailable")
      object.add("reason", reason)
    }
    failure.attempt { try sink.write(object.text + "\n") }
  }
}
