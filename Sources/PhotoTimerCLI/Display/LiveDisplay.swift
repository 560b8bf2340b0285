import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerTerminal

/// The live view: a big count, the three preparations as a checklist with spinners, the
/// state at zero; after the run, a summary and a timeline chart.
///
/// Events only update the model and wake the drawing thread, so showing an event never holds
/// up the engine. The view is redrawn in place when something changed, and ten times a
/// second while a spinner turns.
///
/// With a preview (``PreviewMethod``) the view fills the alternate screen: the live picture
/// sized to the terminal with the count drawn over it, the checklist below. Each frame
/// rewrites only the cells that changed; a resize clears and redraws. When the view is
/// done it goes back to the normal screen and leaves the text view and summary there.
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
    /// The newest preview, scaled to the room it was asked for.
    var preview: Frame?
    /// Framing (`--frame`): the count waits for space; what to say.
    var framing: PhotoTimerPresentation.Framing?
    /// The session is a time-lapse: a photo is followed by the next shot.
    var timeLapse = false

    /// What the screen shows now; `isOver` once the command is ending.
    func presentation(isOver: Bool = false) -> PhotoTimerPresentation {
      var betweenShots = false
      if timeLapse, case .captured = run.status { betweenShots = true }
      return PhotoTimerPresentation(
        state: run,
        context: .init(
          cameraStarting: startedAt == nil && framing == nil, hasRun: startedAt != nil,
          isOver: isOver, framing: framing, note: note, betweenShots: betweenShots))
    }
  }

  struct PendingTick {
    var remaining: Int
    var late: Duration
    var received: ContinuousClock.Instant
  }

  private let title: String
  private let color: Bool
  private let beep: Bool
  private let frameLog: String?
  private let state: Locked<Model>
  private let doorbell: Doorbell?
  private let flags = Locked((stopped: false, drawnLines: 0))
  /// How the preview is drawn, or `nil` for the text view.
  let previewMethod: TerminalGraphics.Method?
  /// What is on the alternate screen (the drawing thread's alone).
  private let screen = Locked(ScreenState())
  private let worker = Locked<ReaderThread?>(nil)
  private let terminal: Terminal
  private let clock = ContinuousClock()
  private let spinnerEpoch = ContinuousClock.now

  init(
    title: String, color: Bool, beep: Bool, terminal: Terminal, timeLapse: Bool = false,
    preview: TerminalGraphics.Method? = nil,
    frameLog: String? = ProcessInfo.processInfo.environment["PHOTOTIMER_FRAME_LOG"]
  ) {
    self.previewMethod = preview
    var model = Model()
    model.timeLapse = timeLapse
    state = Locked(model)
    if preview != nil { terminal.enterAlternateScreen() }
    self.title = title
    self.color = color
    self.beep = beep
    self.terminal = terminal
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
        model.framing = nil
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
    terminal.leaveAlternateScreen()
    // The last run, as the text view shows it.
    state.withLock { $0.framing = nil }
    draw(final: true)
    var lines: [String] = []
    if case .captured = result {
      lines += text(state.withLock { $0 }, final: true).summary()
      lines += chart(timeline)
    }
    StandardStream.output.write(lines.map { $0 + "\n" }.joined())
  }

  /// Framing: the preview runs, the count waits for space.
  func framing(_ framing: PhotoTimerPresentation.Framing) {
    state.withLock { model in
      model.framing = framing
      model.note = nil
    }
    wake()
  }

  /// A newer preview frame.
  func showPreview(_ frame: Frame) {
    state.withLock { $0.preview = frame }
    wake()
  }

  /// The room the preview is drawn in now, in pixels (from the terminal's size), or `nil`
  /// when the terminal is too small for one.
  var previewRoom: PreviewSize? {
    guard let previewMethod else { return nil }
    let layout = ScreenLayout(size: Terminal.size)
    guard let cells = layout.preview else { return nil }
    switch previewMethod {
    case .halfBlocks: return PreviewSize(width: cells.columns, height: cells.rows * 2)
    // NB: kitty scales the picture to the cells, and each frame is sent whole (base64): four
    // pixels across a cell, eight down, at most 640 × 480 (about 0.8 MB a frame).
    case .kitty:
      return PreviewSize(width: min(cells.columns * 4, 640), height: min(cells.rows * 8, 480))
    }
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
      let animating = state.withLock { $0.presentation().isAnimating }
      _ = doorbell.wait(timeout: animating ? .milliseconds(100) : nil)
    }
  }

  private func draw(final: Bool) {
    let (model, ticks) = state.withLock { model -> (Model, [PendingTick]) in
      defer { model.pendingTicks = [] }
      return (model, model.pendingTicks)
    }
    if previewMethod != nil, !final {
      drawScreen(model)
    } else {
      drawText(model, final: final)
    }
    logTicks(ticks, model: model)
  }

  /// The presentation's words for `model`, with the spinner's frame for now.
  private func text(_ model: Model, final: Bool) -> ScreenText {
    let turned = spinnerEpoch.duration(to: .now)
    let tenths =
      turned.components.seconds * 10 + turned.components.attoseconds / 100_000_000_000_000_000
    return ScreenText(
      presentation: model.presentation(isOver: final), title: title, color: color,
      spinner: ScreenText.spinner(tenths: tenths))
  }

  /// The full-screen view: header, preview with the count over it, status, checklist; only
  /// what changed is written.
  private func drawScreen(_ model: Model) {
    let size = Terminal.size
    let layout = ScreenLayout(size: size)
    var out: [UInt8] = []
    let words = text(model, final: false)
    var texts: [Int: String] = [1: words.header(), layout.statusRow: words.statusLine()]
    for (offset, line) in words.checklist().enumerated() {
      texts[layout.checklistRow + offset] = line
    }
    screen.withLock { screen in
      if screen.size.map({ $0 != size }) ?? true {
        // A new size: start from a clear screen.
        out += Array("\u{1B}[0m\u{1B}[2J".utf8)
        if previewMethod == .kitty { out += KittyGraphics.delete(id: 1) }
        screen = ScreenState()
        screen.size = size
      }
      if let cells = layout.preview, var frame = model.preview {
        let pictureRows = previewMethod == .kitty ? cells.rows : (frame.height + 1) / 2
        let pictureColumns =
          previewMethod == .kitty
          ? min(
            cells.columns, Int(Double(frame.width) / Double(frame.height) * Double(cells.rows) * 2))
          : frame.width
        // NB: a frame scaled for the size before a resize does not fit: wait for the next.
        if pictureColumns <= cells.columns, pictureRows <= cells.rows {
          if let count = words.presentation.count { CountOverlay.draw(count, on: &frame) }
          let row = cells.row + (cells.rows - pictureRows) / 2
          let column = 1 + (size.columns - pictureColumns) / 2
          let box = [row, column, pictureColumns, pictureRows]
          if screen.pictureBox != box {
            if let old = screen.pictureBox {
              for line in old[0]..<(old[0] + old[3]) {
                out += Array("\u{1B}[\(line);1H\u{1B}[2K".utf8)
              }
            }
            screen.canvas = TerminalCanvas(row: row, column: column)
            screen.pictureBox = box
          }
          switch previewMethod {
          case .kitty:
            out += Array("\u{1B}[\(row);\(column)H".utf8)
            out += KittyGraphics.image(frame, id: 1, columns: pictureColumns, rows: pictureRows)
          case .halfBlocks, nil:
            out += screen.canvas.draw(HalfBlockPicture(frame)).text
          }
        }
      }
      for (row, text) in texts.sorted(by: { $0.key < $1.key }) where screen.rows[row] != text {
        out += Array("\u{1B}[\(row);1H\(Self.clip(text, to: size.columns))\u{1B}[0m\u{1B}[K".utf8)
        screen.rows[row] = text
      }
    }
    if !out.isEmpty { StandardStream.output.write(bytes: out) }
  }

  private func drawText(_ model: Model, final: Bool) {
    let width = Terminal.size.columns
    let words = text(model, final: final)
    let lines = [words.header(), ""] + words.bigStatus(width: width) + [""] + words.checklist()
    let clipped = lines.map { Self.clip($0, to: width) }
    var text = ""
    let previous = flags.withLock { $0.drawnLines }
    if previous > 0 { text += "\u{1B}[\(previous)F" }
    text += clipped.map { $0 + "\u{1B}[K\n" }.joined()
    text += "\u{1B}[J"
    flags.withLock { $0.drawnLines = clipped.count }
    StandardStream.output.write(text)
  }

  /// Appends the ticks drawn to the frame log, if one is kept.
  private func logTicks(_ ticks: [PendingTick], model: Model) {
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

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
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
