import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerRemote
import PhotoTimerSetup
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
/// At the shutter the picture flashes white for a moment; the photo, once saved, takes the
/// picture's place for a few seconds (until the next count, when framing goes on). When the
/// view is done it goes back to the normal screen and leaves there the photo, drawn in half
/// blocks, above its summary and timeline (the text view and summary without a picture).
actor LiveDisplay: CommandDisplay, PreviewTarget {
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
  /// Whether previews are mirrored.
  nonisolated let previewMirrored: Bool
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
  /// The picture is white for a moment after the shutter.
  private var flashing = false
  private var flashTask: Task<Void, Never>?
  /// The photo just taken, scaled for the screen, and whether it is shown in the picture's
  /// place now.
  private var photo: Frame?
  private var photoShown = false
  private var photoTask: Task<Void, Never>?
  private var photoHold: Task<Void, Never>?

  /// How long the flash lasts.
  static let flashLength = Duration.milliseconds(150)
  /// How long the photo stays in the picture's place while framing goes on.
  static let photoLength = Duration.seconds(3)
  /// How long a booth's collage, with its guests' QR code, stays in the picture's place
  /// (unless the next count starts first).
  static let collageLength = Duration.seconds(30)

  /// Creates the live view.
  ///
  /// - Parameters:
  ///   - title: What the camera is, for the header.
  ///   - color: Whether to paint with SGR codes.
  ///   - beep: Whether to ring the bell on each tick and twice at the shutter.
  ///   - sink: Where the frames go.
  ///   - terminal: The terminal to switch to the alternate screen and restore; `nil` in tests.
  ///   - preview: How the preview is drawn, or `nil` for the text view.
  ///   - mirrored: Whether previews are mirrored.
  ///   - code: The remote's QR code, drawn over the picture while nothing counts.
  ///   - size: The terminal's size now.
  ///   - frameLog: A file to append each tick's deadline and on-screen time to.
  ///   - spinnerClock: The clock the spinner turns on; tests pass one they advance.
  init(
    title: String, color: Bool, beep: Bool, sink: any OutputSink, terminal: Terminal?,
    preview: TerminalGraphics.Method? = nil, mirrored: Bool = false, code: QRCode? = nil,
    size: @escaping @Sendable () -> (columns: Int, rows: Int) = { Terminal.size },
    frameLog: String? = ProcessInfo.processInfo.environment["PHOTOTIMER_FRAME_LOG"],
    spinnerClock: any Clock<Duration> = ContinuousClock()
  ) {
    self.spinnerClock = spinnerClock
    previewMethod = preview
    previewMirrored = mirrored
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
        // NB: a new count frames on the live picture again.
        photoShown = false
        frames.guest = nil
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
        if previewMethod != nil { flash() }
      case .captured(let taken):
        if previewMethod != nil, let file = taken.file { load(file) }
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
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline,
    photos: [URL]
  ) async {
    guard !finished else { return }
    finished = true
    animate(false)
    flashTask?.cancel()
    photoHold?.cancel()
    // NB: the photo being decoded is waited for: it is what this screen shows.
    await photoTask?.value
    terminal?.leaveAlternateScreen()
    let words = text(presentation)
    let columns = size().columns
    var lines: [String]
    if case .captured = result, previewMethod != nil, let photo {
      // The captured photo, above its facts: the summary names its file.
      lines = [words.header(width: columns), ""] + Self.picture(photo, columns: columns)
    } else {
      // The last run, as the text view shows it (its checklist, not a guests' code).
      frames.guest = nil
      failure.attempt { try sink.write(frames.text(words, width: columns)) }
      lines = []
    }
    if case .captured = result {
      lines += words.summary() + Self.session(photos, columns: columns)
      lines += timeline.chart(columns: columns, color: color)
    }
    if !lines.isEmpty {
      failure.attempt { try sink.write(Array(lines.map { $0 + "\n" }.joined().utf8)) }
    }
  }

  /// The photo in half blocks, centred in `columns`, in 24-bit colour.
  static func picture(_ photo: Frame, columns: Int) -> [String] {
    HalfBlockPicture(photo).lines(indent: max(0, (columns - photo.width) / 2))
  }

  /// Every photo of the session, when there was more than one: the summary above is the
  /// last one's.
  static func session(_ photos: [URL], columns: Int) -> [String] {
    guard photos.count > 1, let folder = photos.last?.deletingLastPathComponent().path else {
      return []
    }
    let names = photos.map(\.lastPathComponent).joined(separator: ", ")
    return [
      "  " + "photos".padding(toLength: 9, withPad: " ", startingAt: 0)
        + " \(photos.count) this session, in \(folder): \(names)"
    ]
  }

  func close() -> String? {
    finished = true
    animate(false)
    flashTask?.cancel()
    photoHold?.cancel()
    photoTask?.cancel()
    terminal?.restore()
    try? frameLog?.close()
    return failure.message
  }

  // MARK: - Drawing

  private func draw() {
    let words = text(presentation)
    let bytes =
      previewMethod != nil
      ? frames.screen(
        words, preview: picture(), faces: showsLivePicture ? presentation.faces : [],
        mirrored: previewMirrored, size: size())
      : frames.text(words, width: size().columns, height: size().rows)
    if !bytes.isEmpty { failure.attempt { try sink.write(bytes) } }
  }

  /// What the picture's place shows now: white during the flash, the photo just taken while
  /// it is shown, else the newest preview.
  private func picture() -> Frame? {
    if flashing, let preview {
      var white = Frame(width: preview.width, height: preview.height)
      white.pixels = [UInt8](repeating: 255, count: white.pixels.count)
      return white
    }
    if showsPhoto { return photo }
    return preview
  }

  /// Whether the picture's place shows the live preview now (not the flash, not the photo):
  /// the faces are outlined over it only then.
  private var showsLivePicture: Bool { preview != nil && !flashing && !showsPhoto }

  /// Whether the photo just taken is shown in the picture's place now: while it is held and
  /// still fits the picture's room (the terminal may have shrunk since).
  private var showsPhoto: Bool {
    guard photoShown, let photo, preview != nil,
      let room = LiveFrames.previewRoom(method: .halfBlocks, size: size())
    else { return false }
    return photo.width <= room.width && photo.height <= room.height
  }

  /// The shutter's flash: white at once, the picture again after ``flashLength``.
  private func flash() {
    flashing = true
    flashTask?.cancel()
    flashTask = Task { [weak self, spinnerClock] in
      guard (try? await spinnerClock.sleep(for: Self.flashLength)) != nil else { return }
      await self?.endFlash()
    }
  }

  private func endFlash() {
    flashing = false
    draw()
  }

  /// Decodes the saved photo off the pool, scaled to the picture's room, and shows it; a
  /// collage is shown with its guests' `code` beside it, for ``collageLength``.
  private func load(_ file: URL, collage: Bool = false, code: QRCode? = nil) {
    guard let room = LiveFrames.previewRoom(method: .halfBlocks, size: size()) else { return }
    photoTask?.cancel()
    photoTask = Task { [weak self] in
      let decoded = try? await OffPool.run { _ -> Frame in
        let bytes = try [UInt8](Data(contentsOf: file))
        let frame = try JPEGCodec.decode(bytes, path: file.path, minimumWidth: room.width)
        return collage
          ? GuestCard.frame(collage: frame, code: code, room: room) : frame.scaled(toFit: room)
      }
      guard let decoded else { return }
      await self?.show(photo: decoded, for: collage ? Self.collageLength : Self.photoLength)
    }
  }

  /// A booth's collage: shown in the picture's place with its guests' QR code (in the text
  /// view, the code under the checklist) until the next count.
  func showEvent(_ event: any OutputEvent, time: Duration) {
    guard !finished, case .collage(_, let file, _, let guest)? = event as? BoothEvent else {
      return
    }
    let code = guest.flatMap { QRCode(encoding: $0) }
    frames.guest = guest.map { LiveFrames.GuestLink(link: $0, code: code) }
    if previewMethod != nil {
      load(URL(fileURLWithPath: file), collage: true, code: code)
    } else {
      draw()
    }
  }

  /// Waits until the flash under way has ended and the picture is drawn again (for tests).
  func flashEnded() async {
    await flashTask?.value
  }

  /// Waits until the photo being loaded is shown (for tests).
  func photoLoaded() async {
    await photoTask?.value
  }

  private func show(photo frame: Frame, for length: Duration = photoLength) {
    guard !finished else {
      photo = frame
      return
    }
    photo = frame
    photoShown = true
    draw()
    photoHold?.cancel()
    photoHold = Task { [weak self, spinnerClock] in
      guard (try? await spinnerClock.sleep(for: length)) != nil else { return }
      await self?.hidePhoto(frame)
    }
  }

  private func hidePhoto(_ frame: Frame) {
    guard photo == frame, photoShown else { return }
    photoShown = false
    // NB: the collage's card gone, its guests' link goes with it: the picture's place and the
    // remote's own code are back.
    if previewMethod != nil { frames.guest = nil }
    draw()
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
