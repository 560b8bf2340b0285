import Foundation
import PhotoTimer
import PhotoTimerSetup

/// One plain line per change of the presentation, no escape codes: for pipes, logs and
/// scripts. The words are the presentation's (``PhotoTimerPresentation``), as in the live
/// view and the window: the status line when it changes, a checklist row when its step ends,
/// the photo's summary when it is taken, each note when it appears.
actor PlainDisplay: CommandDisplay {
  private let sink: any OutputSink
  private var last = PhotoTimerPresentation(state: PhotoTimerState())
  private var failure = DrawFailure()
  /// The lines that open the output, the camera's name first; written with the first change.
  private var opening: [String]

  init(sink: any OutputSink, camera: CameraIdentity? = nil) {
    self.sink = sink
    opening = camera.map { ["camera: \($0)"] + ($0.fallbackLine.map { [$0] } ?? []) } ?? []
  }

  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) {
    var lines = opening
    opening = []
    if let note = presentation.note, note != last.note { lines.append(note) }
    var event: PhotoTimerEvent?
    if case .event(.run(let runEvent, _))? = update?.cause { event = runEvent }
    let stamp = "+\(time.formattedSeconds(fractionDigits: 3))s  "
    lines += Self.lines(from: last, to: presentation, event: event).map { stamp + $0 }
    last = presentation
    guard !lines.isEmpty else { return }
    failure.attempt { try sink.write(lines.map { $0 + "\n" }.joined()) }
  }

  /// What changed between two presentations, as lines: the step that ended (`event`), then
  /// the status when it changed (always at a cancel), then the photo's summary.
  static func lines(
    from before: PhotoTimerPresentation, to after: PhotoTimerPresentation,
    event: PhotoTimerEvent?
  ) -> [String] {
    var lines: [String] = []
    if case .stepFinished(let report)? = event?.kind,
      let row = after.checklist.first(where: { $0.step == report.step })
    {
      lines.append(line(for: row))
    }
    if after.status != before.status || event?.kind == .cancelled {
      lines.append(after.status.text)
    }
    if before.summary.isEmpty {
      lines += after.summary.map { "\($0.label): \($0.value)" + ($0.note.map { " (\($0))" } ?? "") }
    }
    return lines
  }

  /// One checklist row: `camera ✓ f/2.8 · 1/60s · ISO 400 (1.4 s)`.
  static func line(for row: PhotoTimerPresentation.Row) -> String {
    let mark = row.mark.symbol.map { " \($0)" } ?? ""
    return "\(row.label)\(mark) \(row.detail)" + (row.time.map { " (\($0))" } ?? "")
  }

  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline,
    photos: [URL]
  ) {}

  func close() -> String? { failure.message }

  /// `+4.210s  shot 1 kept: /home/me/Pictures/phototimer/IMG_….jpg`, `collage: …`.
  func showEvent(_ event: any OutputEvent, time: Duration) {
    let line = "+\(time.formattedSeconds(fractionDigits: 3))s  \(event.line)\n"
    failure.attempt { try sink.write(line) }
  }
}
