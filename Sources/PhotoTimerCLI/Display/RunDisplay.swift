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

/// Each preparation and the count on one time axis, for the summary chart.
struct Timeline: Sendable {
  struct Bar: Sendable, Equatable {
    var label: String
    var start: Duration
    var end: Duration
    var outcome: String
  }

  var bars: [Bar] = []
  var shutter: Duration?

  /// The count as a bar, and each step's report as a bar starting at `start`.
  mutating func record(_ event: PhotoTimerEvent, base: Duration, countStart: Duration) {
    switch event.kind {
    case .stepFinished(let report):
      let outcome =
        switch report.outcome {
        case .succeeded: "✓"
        case .failed: "✗"
        case .dropped: "dropped"
        case .skipped: "off"
        }
      let start = stepStarts[report.step] ?? base
      bars.removeAll { $0.label == report.step.rawValue }
      bars.append(
        Bar(
          label: report.step.rawValue, start: start, end: base + report.elapsed,
          outcome: outcome))
    case .shutter:
      shutter = base + event.offset
      bars.removeAll { $0.label == "count" }
      bars.insert(
        Bar(label: "count", start: countStart, end: base + event.offset, outcome: ""),
        at: 0)
    default:
      break
    }
  }

  /// Where each step started (they start with the run, or one after another in sequence).
  var stepStarts: [PreparationStep: Duration] = [:]
}
