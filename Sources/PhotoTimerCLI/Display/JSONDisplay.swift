import PhotoTimer

/// JSON Lines: one object per event, each with `"event"` and `"t"` (seconds since the start).
///
/// The schema is documented in the README.
actor JSONDisplay: CommandDisplay {
  private let sink: any OutputSink
  private var failure = DrawFailure()

  init(sink: any OutputSink) {
    self.sink = sink
  }

  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) {
    let line: String
    switch update?.cause {
    case .event(.run(let event, _))?:
      line = event.jsonLine(time: time, activity: update?.snapshot.state.activity ?? [:])
    case .cancelled?:
      // NB: the command cancelled the run: its own `cancelled` event belongs to a run the
      // model has let go, so the cancel is written here, when it was asked for.
      line = PhotoTimerEvent(offset: .zero, kind: .cancelled).jsonLine(time: time)
    default:
      return
    }
    failure.attempt { try sink.write(line + "\n") }
  }

  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline
  ) {}

  func close() -> String? { failure.message }
}
