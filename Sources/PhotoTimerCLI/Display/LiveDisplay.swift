import Foundation
import PhotoTimer
import PhotoTimerPOSIX

/// The live view: a big count, the three preparations as a checklist with spinners, the
/// state at zero; after the run, a summary and a timeline chart.
///
/// Events only update the model and wake the drawing thread, so showing an event never holds
/// up the engine. The view is redrawn in place when something changed, and ten times a
/// second while a spinner turns.
final class LiveDisplay: RunDisplay {
  struct Model {
    /// The run as the library's reducer sees it: status, and each step that has ended.
    var run = PhotoTimerState()
    var countFrom = 0
    var note: String?
    var startedAt: ContinuousClock.Instant?
    /// Ticks not drawn yet: how late the engine published each (against its deadline) and
    /// when the display received it, for the frame log.
    var pendingTicks: [PendingTick] = []
  }

  struct PendingTick {
    var remaining: Int
    var late: Duration
    var received: ContinuousClock.Instant
  }

  private let title: String
  private let color: Bool
  private let beep: Bool
  private let statusOf: @Sendable (PreparationStep) -> String?
  private let frameLog: String?
  private let state = Locked(Model())
  private let doorbell: Doorbell?
  private let flags = Locked((stopped: false, drawnLines: 0))
  private let worker = Locked<ReaderThread?>(nil)
  private let terminal: Terminal
  private let clock = ContinuousClock()
  private let spinnerEpoch = ContinuousClock.now

  init(
    title: String, color: Bool, beep: Bool, terminal: Terminal,
    status: @escaping @Sendable (PreparationStep) -> String?,
    frameLog: String? = ProcessInfo.processInfo.environment["PHOTOTIMER_FRAME_LOG"]
  ) {
    self.title = title
    self.color = color
    self.beep = beep
    self.terminal = terminal
    self.statusOf = status
    self.frameLog = frameLog
    if let frameLog { _ = FileManager.default.createFile(atPath: frameLog, contents: nil) }
    doorbell = try? Doorbell()
    let thread = ReaderThread(name: "phototimer.display") { [weak self] in self?.drawLoop() }
    worker.withLock { $0 = thread }
  }

  func show(_ event: PhotoTimerEvent, base: Duration) {
    state.withLock { model in
      model.run.apply(event)
      switch event.kind {
      case .started(let seconds):
        model.countFrom = seconds
        model.startedAt = clock.now
      case .tick(let remaining):
        // The tick showing `remaining` is due (count − remaining) seconds after the start.
        let deadline = Duration.seconds(model.countFrom - remaining)
        model.pendingTicks.append(
          PendingTick(remaining: remaining, late: event.offset - deadline, received: clock.now))
      default:
        break
      }
    }
    if beep {
      switch event.kind {
      case .tick: StandardStream.output.write("\u{7}")
      case .shutter: StandardStream.output.write("\u{7}\u{7}")
      default: break
      }
    }
    wake()
  }

  func note(_ text: String) {
    state.withLock { $0.note = text }
    wake()
  }

  func finish(_ result: PhotoTimerResult, timeline: Timeline) async {
    await stopDrawing()
    draw(final: true)
    var lines: [String] = []
    if case .captured(let photo) = result {
      lines += summary(photo)
      lines += chart(timeline)
    }
    StandardStream.output.write(lines.map { $0 + "\n" }.joined())
  }

  func close() async {
    await stopDrawing()
    terminal.restore()
  }

  // MARK: - Drawing

  private func wake() {
    doorbell?.ring()
  }

  private func stopDrawing() async {
    requestStop()
    // NB: wait for the drawing thread to finish its frame, so nothing is drawn after this.
    await worker.withLock { $0 }?.join()
    doorbell?.close()
  }

  private func requestStop() {
    flags.withLock { $0.stopped = true }
    doorbell?.ring()
  }

  /// Draws at once, then whenever something changed, and ten times a second while a
  /// spinner turns.
  private func drawLoop() {
    guard let doorbell else { return }
    while !flags.withLock({ $0.stopped }) {
      draw(final: false)
      let animating = state.withLock { model in
        if model.isPreparing || model.run.status == .capturing { return true }
        if case .waiting = model.run.status { return true }
        return false
      }
      _ = doorbell.wait(timeout: animating ? .milliseconds(100) : nil)
    }
  }

  private var spinner: String {
    let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    let now = ContinuousClock.now.duration(to: spinnerEpoch)
    let tenths = abs(
      now.components.seconds * 10 + now.components.attoseconds / 100_000_000_000_000_000)
    return frames[Int(tenths % Int64(frames.count))]
  }

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private func draw(final: Bool) {
    let (model, ticks) = state.withLock { model -> (Model, [PendingTick]) in
      defer { model.pendingTicks = [] }
      return (model, model.pendingTicks)
    }
    let width = Terminal.size.columns
    var lines: [String] = []
    lines.append(
      paint("phototimer", "1") + "  ·  " + title
        + (model.note.map { "  ·  \($0)" } ?? "")
        + (final ? "" : paint("   c cancel · space take it now · r restart", "2")))
    lines.append("")
    switch model.run.status {
    case .counting(let remaining):
      for row in BigDigits.rows(remaining) {
        lines.append(
          String(repeating: " ", count: max(0, (width - row.count) / 2)) + paint(row, "1;36"))
      }
    case .waiting(let steps):
      lines.append(contentsOf: [
        "", "", "  \(spinner) waiting for \(steps.map(\.rawValue).joined(separator: ", "))…", "",
        "",
      ])
    case .capturing:
      lines.append(contentsOf: ["", "", "  \(spinner) capturing…", "", ""])
    case .captured:
      lines.append(contentsOf: ["", "", "  " + paint("✓ captured", "1;32"), "", ""])
    case .failed(let failure):
      lines.append(contentsOf: ["", "", "  " + paint("✗ \(failure.message)", "1;31"), "", ""])
    case .idle:
      lines.append(contentsOf: [
        "", "", "  " + (model.startedAt == nil ? "starting…" : "cancelled"), "", "",
      ])
    }
    lines.append("")
    for step in PreparationStep.allCases {
      let name = step.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
      switch model.line(for: step) {
      case .running where final:
        lines.append("  \(paint("–", "33")) \(name) \(paint("stopped", "2"))")
      case .running:
        let status = statusOf(step) ?? "working…"
        lines.append("  \(paint(spinner, "36")) \(name) \(paint(status, "2"))")
      case .done(let report):
        let time = "\(report.elapsed.formattedSeconds(fractionDigits: 1)) s"
        switch report.outcome {
        case .succeeded(let value):
          lines.append("  \(paint("✓", "32")) \(name) \(value)  \(paint(time, "2"))")
        case .failed(let reason):
          lines.append("  \(paint("✗", "31")) \(name) \(reason)  \(paint(time, "2"))")
        case .dropped(let reason):
          lines.append("  \(paint("–", "33")) \(name) \(reason)  \(paint(time, "2"))")
        case .skipped(let reason):
          lines.append("  \(paint("·", "2")) \(name) \(paint(reason, "2"))")
        }
      case .notStarted:
        lines.append("  \(paint("·", "2")) \(name)")
      }
    }
    let clipped = lines.map { Self.clip($0, to: width) }
    var text = ""
    let previous = flags.withLock { $0.drawnLines }
    if previous > 0 { text += "\u{1B}[\(previous)F" }
    text += clipped.map { $0 + "\u{1B}[K\n" }.joined()
    text += "\u{1B}[J"
    flags.withLock { $0.drawnLines = clipped.count }
    StandardStream.output.write(text)
    if let frameLog, !ticks.isEmpty {
      // Each line: the count shown, then its deadline and the moment it was on screen, both
      // in seconds from the start (on screen = deadline + engine's lateness + drawing delay).
      let drawn = clock.now
      let entries = ticks.map { tick in
        let deadline = Duration.seconds(model.countFrom - tick.remaining)
        let onScreen = deadline + tick.late + tick.received.duration(to: drawn)
        return "\(tick.remaining) \(deadline.formattedSeconds(fractionDigits: 6)) "
          + "\(onScreen.formattedSeconds(fractionDigits: 6))\n"
      }
      if let handle = FileHandle(forWritingAtPath: frameLog) {
        handle.seekToEndOfFile()
        handle.write(Data(entries.joined().utf8))
        try? handle.close()
      }
    }
  }

  /// Cuts a line to `width` visible characters (escape sequences do not count).
  static func clip(_ line: String, to width: Int) -> String {
    var visible = 0
    var result = ""
    var inEscape = false
    for character in line {
      if inEscape {
        result.append(character)
        if character.isLetter { inEscape = false }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        result.append(character)
        continue
      }
      guard visible < width - 1 else { continue }
      result.append(character)
      visible += 1
    }
    return result
  }

  // MARK: - Summary

  private func summary(_ photo: CapturedPhoto) -> [String] {
    var lines = [""]
    lines.append("  file      \(photo.file?.path ?? "none (simulation)")")
    lines.append(
      "  settings  \(photo.settings)" + (photo.settingsNote.map { paint(" (\($0))", "2") } ?? ""))
    lines.append(
      "  place     \(photo.location?.name ?? "none — \(photo.locationUnavailableReason ?? "off")")")
    lines.append("  look      \(photo.filter)")
    lines.append(
      "  shutter   \(photo.shutterOffset.formattedSeconds(fractionDigits: 2)) s after the start"
    )
    return lines
  }

  private func chart(_ timeline: Timeline) -> [String] {
    guard let end = timeline.bars.map(\.end).max(), end > .zero else { return [] }
    let width = max(20, min(Terminal.size.columns - 30, 60))
    let scale = Double(width) / end.seconds
    var lines = ["", "  timeline (0 – \(end.formattedSeconds(fractionDigits: 1)) s)"]
    let order = ["count", "camera", "location", "filter"]
    let bars = timeline.bars.sorted {
      (order.firstIndex(of: $0.label) ?? 9) < (order.firstIndex(of: $1.label) ?? 9)
    }
    for bar in bars {
      let from = Int((bar.start.seconds * scale).rounded())
      let to = max(from + 1, Int((bar.end.seconds * scale).rounded()))
      let label = bar.label.padding(toLength: 9, withPad: " ", startingAt: 0)
      let body =
        String(repeating: " ", count: from)
        + paint(String(repeating: "█", count: to - from), bar.label == "count" ? "36" : "32")
      lines.append(
        "  \(label) \(body) \(bar.end.formattedSeconds(fractionDigits: 1)) s \(bar.outcome)")
    }
    if let shutter = timeline.shutter {
      let at = Int((shutter.seconds * scale).rounded())
      lines.append("  " + String(repeating: " ", count: 10 + at) + "▲ shutter")
    }
    return lines
  }
}

extension LiveDisplay.Model {
  /// What the checklist shows for a step.
  enum Line {
    case notStarted
    case running
    case done(StepReport)
  }

  /// A step with a report has ended; before that it runs once the run has started.
  func line(for step: PreparationStep) -> Line {
    if let report = run.reports[step] { return .done(report) }
    return startedAt == nil ? .notStarted : .running
  }

  /// Whether a spinner turns: a step still runs during the count or the wait.
  var isPreparing: Bool {
    guard startedAt != nil else { return false }
    switch run.status {
    case .counting, .waiting:
      return PreparationStep.allCases.contains { run.reports[$0] == nil }
    default:
      return false
    }
  }
}
