import PhotoTimer

/// One plain line per change of the presentation, no escape codes: for pipes, logs and
/// scripts. The words are the presentation's (``PhotoTimerPresentation``), as in the live
/// view and the window: the status line when it changes, a checklist row when its step ends,
/// the photo's summary when it is taken.
final class PlainDisplay: RunDisplay {
  // NB: the engine awaits each event before the next, but from different threads; the lock
  // makes the reducer's state safe to touch from whichever one delivers.
  private let state = Locked(PhotoTimerState())

  func show(_ event: PhotoTimerEvent, base: Duration) {
    let lines = state.withLock { state -> [String] in
      let before = PhotoTimerPresentation(state: state, context: .init(hasRun: true, isOver: true))
      state.apply(event)
      let after = PhotoTimerPresentation(state: state, context: .init(hasRun: true, isOver: true))
      return Self.lines(from: before, to: after, event: event)
    }
    let stamp = "+\((base + event.offset).formattedSeconds(fractionDigits: 3))s"
    StandardStream.output.write(lines.map { "\(stamp)  \($0)\n" }.joined())
  }

  /// What changed between two presentations, as lines: each step that ended, then the
  /// status when it changed (always at a cancel), then the photo's summary.
  static func lines(
    from before: PhotoTimerPresentation, to after: PhotoTimerPresentation,
    event: PhotoTimerEvent
  ) -> [String] {
    var lines: [String] = []
    if case .stepFinished(let report) = event.kind,
      let row = after.checklist.first(where: { $0.step == report.step })
    {
      lines.append(line(for: row))
    }
    if after.status != before.status || event.kind == .cancelled {
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

  func note(_ text: String) {
    StandardStream.output.write("\(text)\n")
  }

  func finish(_ result: PhotoTimerResult, timeline: Timeline) {}

  func close() {}
}
