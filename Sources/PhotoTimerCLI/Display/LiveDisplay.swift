import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerRemote
import PhotoTimerTerminal

/// The live view: a big count, the three preparations as a checklist with spinners, the
/// state at zero; after the run, a summary and a timeline chart.
///
/// Each call draws at once, through ``LiveFrames``, to the sink; the only periodic work is
/// the spinner, which turns ten times a second while the presentation animates
/// (``PhotoTimerPresentation/isAnimating``) and stops when it does not.
///
/// With a preview (``TerminalGraphics/Method``) the view fills the alternate screen: the
/// live picture sized to the terminal with the count drawn over it, the checklist below.
/// When the view is done it goes back to the normal screen and leaves the text view and
/// summary there.
actor LiveDisplay: CommandDisplay {
  /// A tick shown: how late the engine published it and when the display got it.
  private struct PendingTick {
    var remaining: Int
    var late: Duration
    var received: ContinuousClock.Instant
  }

  private let title: String
  private let color: Bool
  private let beep: Bool
  private let sink: any OutputSink
  private let terminal: Terminal?
  private let size: @Sendable () -> (columns: Int, rows: Int)
  private let frameLog: FileHandle?
  /// How the preview is drawn, or `nil` for the text view.
  nonisolated let previewMethod: TerminalGraphics.Method?
  private var frames: LiveFrames
  private var presentation = PhotoTimerPresentation(
    state: PhotoTimerState(), context: .init(cameraStarting: true))
  private var preview: Frame?
  private var countFrom = 0
  private var spinner: Task<Void, Never>?
  private var failure = DrawFailure()
  private var finished = false
  private let clock = ContinuousClock()
  /// The spinner's clock, and how many tenths it has turned.
  private let spinnerClock: any Clock<Duration>
  private var turns: Int64 = 0

  /// Creates the live view.
  ///
  /// - Parameters:
  ///   - title: What the camera is, for the header.
  ///   - color: Whether to paint with SGR codes.
  ///   - beep: Whether to ring the bell on each tick and twice at the shutter.
  ///   - sink: Where the frames go.
  ///   - terminal: The terminal to switch to the alternate screen and restore; `nil` in tests.
  ///   - preview: How the preview is drawn, or `nil` for the text view.
  ///   - code: The remote's QR code, drawn over the picture while nothing counts.
  ///   - size: The terminal's size now.
  ///   - frameLog: A file to append each tick's deadline and on-screen time to.
  ///   - spinnerClock: The clock the spinner turns on; tests pass one they advance.
  init(
    title: String, color: Bool, beep: Bool, sink: any OutputSink, terminal: Terminal?,
    preview: TerminalGraphics.Method? = nil, code: QRCode? = nil,
    size: @escaping @Sendable () -> (columns: Int, rows: Int) = { Terminal.size },
    frameLog: String? = ProcessInfo.processInfo.environment["PHOTOTIMER_FRAME_LOG"],
    spinnerClock: any Clock<Duration> = ContinuousClock()
  ) {
    self.spinnerClock = spinnerClock
    previewMethod = preview
    frames = LiveFrames(method: preview)
    frames.code = code
    if preview != nil { terminal?.enterAlternateScreen() }
    self.title = title
    self.color = color
    self.beep = beep
    self.sink = sink
    self.terminal = terminal
    self.size = size
    if let frameLog, FileManager.default.createFile(atPath: frameLog, contents: nil) {
      self.frameLog = FileHandle(forWritingAtPath: frameLog)
    } else {
      self.frameLog = nil
    }
  }

  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) {
    guard !finished else { return }
    self.presentation = presentation
    var ticks: [PendingTick] = []
    if case .event(.run(let event, _))? = update?.cause {
      switch event.kind {
      case .started(let seconds):
        countFrom = seconds
      case .tick(let remaining):
        // The tick showing `remaining` is due (count − remaining) seconds after the start.
        let deadline = Duration.seconds(countFrom - remaining)
        ticks.append(
          PendingTick(
            remaining: remaining, late: event.offset - deadline,
            received: update?.published ?? clock.now))
        if beep { failure.attempt { try sink.write("\u{7}") } }
      case .shutter:
        if beep { failure.attempt { try sink.write("\u{7}\u{7}") } }
      default:
        break
      }
    }
    draw()
    log(ticks)
    animate(presentation.isAnimating)
  }

  /// A newer preview frame.
  func show(preview frame: Frame) {
    guard !finished else { return }
    preview = frame
    draw()
  }

  /// The room the preview is drawn in now, in pixels (from the terminal's size), or `nil`
  /// when the terminal is too small for one.
  nonisolated var previewRoom: PreviewSize? {
    LiveFrames.previewRoom(method: previewMethod, size: size())
  }

  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline
  ) {
    guard !finished else { return }
    finished = true
    animate(false)
    terminal?.leaveAlternateScreen()
    // The last run, as the text view shows it.
    let words = text(presentation)
    var bytes = frames.text(words, width: size().columns)
    if case .captured = result {
      let lines = words.summary() + timeline.chart(columns: size().columns, color: color)
      bytes += Array(lines.map { $0 + "\n" }.joined().utf8)
    }
    failure.attempt { try sink.write(bytes) }
  }

  func close() -> String? {
    finished = true
    animate(false)
    terminal?.restore()
    try? frameLog?.close()
    return failure.message
  }

  // MARK: - Drawing

  private func draw() {
    let words = text(presentation)
    let bytes =
      previewMethod != nil
      ? frames.screen(words, preview: preview, size: size())
      : frames.text(words, width: size().columns)
    if !bytes.isEmpty { failure.attempt { try sink.write(bytes) } }
  }

  /// Turns the spinner while something animates: a redraw every tenth of a second.
  private func animate(_ on: Bool) {
    if on, spinner == nil {
      spinner = Task { [weak self, spinnerClock] in
        while (try? await spinnerClock.sleep(for: .milliseconds(100))) != nil {
          guard let self else { return }
          await self.turn()
        }
      }
    } else if !on {
      spinner?.cancel()
      spinner = nil
    }
  }

  /// The spinner's next frame.
  private func turn() {
    turns += 1
    draw()
  }

  /// The presentation's words, with the spinner's frame for now.
  private func text(_ presentation: PhotoTimerPresentation) -> ScreenText {
    ScreenText(
      presentation: presentation, title: title, color: color,
      spinner: ScreenText.spinner(tenths: turns))
  }

  /// Appends the ticks just drawn to the frame log, if one is kept.
  private func log(_ ticks: [PendingTick]) {
    guard let frameLog, !ticks.isEmpty else { return }
    // Each line: the count shown, then its deadline and the moment it was on screen, both in
    // seconds from the start (on screen = deadline + engine's lateness + drawing delay).
    let drawn = clock.now
    let entries = ticks.map { tick in
      let deadline = Duration.seconds(countFrom - tick.remaining)
      let onScreen = deadline + tick.late + tick.received.duration(to: drawn)
      return "\(tick.remaining) \(deadline.formattedSeconds(fractionDigits: 6)) "
        + "\(onScreen.formattedSeconds(fractionDigits: 6))\n"
    }
    frameLog.write(Data(entries.joined().utf8))
  }
}
