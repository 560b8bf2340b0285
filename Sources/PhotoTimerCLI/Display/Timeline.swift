import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// How the command shows a session: the live view, plain lines, or JSON Lines.
///
/// The command's one loop calls a display, in order, with the presentation of each moment;
/// the display draws it at once to its ``OutputSink``. Only that loop waits for a display:
/// the model and the engine never do, so a slow terminal cannot hold up the shutter.
protocol CommandDisplay: Sendable {
  /// The screen changed: `presentation` is what it shows now. `update` is the model's
  /// change behind it, if it was the model's; `time` is when, in seconds from the
  /// command's first count (an event's own time for a run's event).
  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) async
  /// The command ends with `result`: the last frame, then the photo's summary and
  /// `timeline`'s chart when it was taken; `photos` are every file the command saved.
  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline,
    photos: [URL]
  ) async
  /// Puts the terminal back as it was; safe to call more than once.
  ///
  /// - Returns: Why drawing failed, the first time it did, if it did.
  func close() async -> String?
  /// What a count that starts itself waits for now, or that everyone is ready, at `time`:
  /// for the output that has no screen to say it on (`--json`); the others show it in the
  /// presentation's status.
  func showReady(_ report: ScreenStage.ReadyReport, time: Duration) async
  /// What happened in a booth session or to a print, at `time`: an event or a line for the
  /// outputs without a screen; the live view says it in its status and note.
  func showEvent(_ event: any OutputEvent, time: Duration) async
}

extension CommandDisplay {
  /// Said in the status: nothing more to do.
  func showReady(_ report: ScreenStage.ReadyReport, time: Duration) async {}
  /// Said in the status and the note.
  func showEvent(_ event: any OutputEvent, time: Duration) async {}
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

extension Timeline {
  /// The chart of the bars and the shutter under the summary, `columns` wide at most.
  func chart(columns: Int, color: Bool) -> [String] {
    guard let end = bars.map(\.end).max(), end > .zero else { return [] }
    let width = max(20, min(columns - 30, 60))
    let scale = Double(width) / end.secondsValue
    var lines = ["", "  timeline (0 – \(end.formattedSeconds(fractionDigits: 1)) s)"]
    let order = ["count", "camera", "location", "filter"]
    let sorted = bars.sorted {
      (order.firstIndex(of: $0.label) ?? 9) < (order.firstIndex(of: $1.label) ?? 9)
    }
    for bar in sorted {
      let from = Int((bar.start.secondsValue * scale).rounded())
      let to = max(from + 1, Int((bar.end.secondsValue * scale).rounded()))
      let label = bar.label.padding(toLength: 9, withPad: " ", startingAt: 0)
      let blocks = String(repeating: "█", count: to - from)
      let code = bar.label == "count" ? "36" : "32"
      let body =
        String(repeating: " ", count: from) + (color ? "\u{1B}[\(code)m\(blocks)\u{1B}[0m" : blocks)
      lines.append(
        "  \(label) \(body) \(bar.end.formattedSeconds(fractionDigits: 1)) s \(bar.outcome)")
    }
    if let shutter {
      let at = Int((shutter.secondsValue * scale).rounded())
      lines.append("  " + String(repeating: " ", count: 10 + at) + "▲ shutter")
    }
    return lines
  }
}
