import PhotoTimer

/// How a run is shown: the live view, plain lines, or JSON Lines.
///
/// `show` must return at once: the engine awaits it, and a display must never hold up the
/// shutter.
protocol RunDisplay: Sendable {
  /// One event of the run, with the offset of its run's start from the first run's start
  /// (`base` is non-zero after a restart, or for the count after `--sequential`).
  func show(_ event: PhotoTimerEvent, base: Duration)
  /// Something happened outside the engine (a restart, a sequential step starting).
  func note(_ text: String)
  /// The run is over: show the summary.
  func finish(_ result: PhotoTimerResult, timeline: Timeline) async
  /// Put the terminal back as it was. Safe to call more than once.
  func close() async
}

/// Each preparation and the count on one time axis, for the summary chart: the photo's own
/// run (the last one after a restart; the first shot of a time-lapse).
struct Timeline: Sendable {
  struct Bar: Sendable, Equatable {
    var label: String
    var start: Duration
    var end: Duration
    var outcome: String
  }

  var bars: [Bar] = []
  var shutter: Duration?
  /// `--sequential`: each step starts where the one before ended, and the count after them.
  var sequential = false
  private var cursor: Duration = .zero
  private var frozen = false

  init(sequential: Bool = false) {
    self.sequential = sequential
  }

  /// Stops recording: later runs (a time-lapse's shots) are not charted.
  mutating func freeze() { frozen = true }

  /// Records one event of the run that started at `runStart`.
  mutating func record(_ event: PhotoTimerEvent, runStart: Duration) {
    guard !frozen else { return }
    switch event.kind {
    case .started:
      bars = []
      shutter = nil
      cursor = runStart
    case .stepFinished(let report):
      let outcome =
        switch report.outcome {
        case .succeeded: "✓"
        case .failed: "✗"
        case .dropped: "dropped"
        case .skipped: "off"
        }
      let end = runStart + report.elapsed
      let start = sequential ? cursor : runStart
      if sequential, case .skipped = report.outcome {} else if sequential { cursor = end }
      bars.removeAll { $0.label == report.step.rawValue }
      bars.append(Bar(label: report.step.rawValue, start: start, end: end, outcome: outcome))
    case .shutter:
      shutter = runStart + event.offset
      bars.removeAll { $0.label == "count" }
      bars.insert(
        Bar(
          label: "count", start: sequential ? cursor : runStart, end: runStart + event.offset,
          outcome: ""),
        at: 0)
    default:
      break
    }
  }
}
