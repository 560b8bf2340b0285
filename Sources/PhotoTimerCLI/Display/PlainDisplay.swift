import PhotoTimer

/// One plain line per event, no escape codes: for pipes, logs and scripts.
final class PlainDisplay: RunDisplay {
  // NB: the engine awaits each event before the next, but from different threads; the lock
  // makes the reducer's state safe to touch from whichever one delivers.
  private let state = Locked(PhotoTimerState())
  /// Each step's live status, for what a wait at zero is for.
  private let statusOf: @Sendable (PreparationStep) -> String?

  init(status: @escaping @Sendable (PreparationStep) -> String? = { _ in nil }) {
    statusOf = status
  }

  func show(_ event: PhotoTimerEvent, base: Duration) {
    let lines = state.withLock { state -> [String] in
      let before = state.status
      state.apply(event)
      var lines: [String] = []
      if case .stepFinished(let report) = event.kind {
        lines.append("\(report.step) \(report.outcome) (\(seconds(report.elapsed)) s)")
      }
      if state.status != before || event.kind == .cancelled {
        if event.kind == .cancelled {
          lines.append("cancelled")
        } else if case .waiting(let steps) = state.status {
          lines.append(PhotoTimerStatus.waitingLine(for: steps, status: statusOf))
        } else {
          lines.append(state.status.description)
        }
      }
      return lines
    }
    let stamp = "+\((base + event.offset).formattedSeconds(fractionDigits: 3))s"
    StandardStream.output.write(lines.map { "\(stamp)  \($0)\n" }.joined())
  }

  func note(_ text: String) {
    StandardStream.output.write("\(text)\n")
  }

  func finish(_ result: PhotoTimerResult, timeline: Timeline) {}

  func close() {}

  private func seconds(_ duration: Duration) -> String {
    duration.formattedSeconds(fractionDigits: 1)
  }
}
