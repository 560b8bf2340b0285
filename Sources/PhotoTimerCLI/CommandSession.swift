import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerTerminal

/// One invocation: the library's session, shown on a display, driven by keys and signals.
///
/// The runs, restarts and time-lapse belong to ``PhotoTimerSession``; this type only wires
/// the terminal to it and turns its result into an exit status. When the screen holds the
/// camera (a preview, or `--frame`) it opens it before the first count and closes it when
/// the command ends: every run borrows the one open camera.
final class CommandSession: Sendable {
  /// How the invocation is shown, decided once from the options and the terminal.
  struct Screen: Equatable {
    var mode: CommandOptions.OutputMode
    /// How the preview is drawn, or `nil` for none.
    var preview: TerminalGraphics.Method?
    /// Whether previews are mirrored.
    var mirrored: Bool

    /// The screen for `options` on this terminal.
    ///
    /// The preview is on in the live view when the terminal takes 24-bit colour, colour is
    /// allowed (`NO_COLOR`, `--no-color`), the terminal is at least 40 × 16, there is a
    /// camera to watch, and `--no-preview` was not given. Webcams are mirrored unless
    /// `--no-mirror`.
    init(
      options: CommandOptions.RunOptions, environment: [String: String], interactive: Bool,
      size: (columns: Int, rows: Int), hasCamera: Bool
    ) {
      mode = options.json ? .json : (interactive ? .live : .plain)
      let graphics = TerminalGraphics(environment: environment)
      let wanted = mode == .live && options.preview && options.color && hasCamera
      preview = wanted && graphics.trueColor && ScreenLayout.fits(size) ? graphics.method : nil
      mirrored = options.mirror ?? options.camera.isWebcam
    }
  }

  /// Between counts with `--frame`: nobody waits, the loop waits for space, or space came
  /// before the loop waited.
  private enum FramingWait {
    case idle
    case waiting(CheckedContinuation<Bool, Never>)
    case pressed
  }

  private enum Phase {
    case framing
    case running(Task<PhotoTimerResult, Never>, PhotoTimerSession<ContinuousClock>)
  }

  private struct State {
    var phase = Phase.framing
    var signal: Int32?
    var stopped = false
    /// The framing loop's wait for space.
    var framing = FramingWait.idle
    /// Take-it-now and restart pressed after the count is on screen but before its task was
    /// recorded here (a moment, longer under load): applied once it is, never dropped.
    var early: [Key] = []
  }

  let options: CommandOptions.RunOptions
  let services: PhotoTimerServices
  let screen: Screen
  /// The camera the screen holds, or `nil` when each run opens its own.
  let camera: LiveCamera?
  private let state = Locked(State())

  init(
    options: CommandOptions.RunOptions, services: PhotoTimerServices, screen: Screen,
    camera: LiveCamera?
  ) {
    self.options = options
    self.services = services
    self.screen = screen
    self.camera = camera
  }

  /// Runs until a photo is taken, the run fails, or it is cancelled (with `--frame`: until
  /// quit); returns the exit status.
  func run() async -> ExitCode {
    let display = makeDisplay(screen.mode)
    let live = display as? LiveDisplay
    // NB: signals and keys are handled before anything starts, so one that arrives at any
    // instant cancels it; one that comes before the task exists is remembered.
    let watched = [
      SignalWatcher.Signal.interrupt, SignalWatcher.Signal.terminate, SignalWatcher.Signal.hangUp,
    ]
    let signals = try? SignalWatcher(signals: watched) { [self] number in
      stop(signal: number)
    }
    let keys = screen.mode == .live ? try? KeyReader { [self] key in pressed(key) } : nil
    if options.sequential {
      display.note("--sequential: one preparation after another, then the count")
    }
    var feed: Task<Void, Never>?
    var outcome: (result: PhotoTimerResult, timeline: Timeline, photos: Int)
    do {
      if let camera {
        try await camera.start()
        if let live, live.previewMethod != nil {
          feed = Task { await Self.feed(camera, to: live, mirrored: screen.mirrored) }
        }
      }
      outcome = options.frame ? await framingLoop(display, live) : await shoot(display)
    } catch {
      // NB: worded as the engine words a camera step that failed.
      let failure = PhotoTimerFailure(
        cause: .stepFailed(.camera), message: "camera failed: \(CommandAdvice.advise(error))")
      outcome = (.failed(failure), Timeline(), 0)
    }
    feed?.cancel()
    await feed?.value
    await display.finish(outcome.result, timeline: outcome.timeline)
    if case .failed(let failure) = outcome.result {
      StandardStream.error.write("error: \(failure.message)\n")
    }
    await camera?.close()
    await keys?.stop()
    await signals?.stop()
    await display.close()
    let signal = state.withLock { $0.signal }
    if options.frame, signal == nil {
      if outcome.photos > 0 { return .success }
      if case .failed = outcome.result { return .failure }
      return .cancelled
    }
    return ExitCode(outcome.result, signal: signal)
  }

  /// One count (with its restarts, or a time-lapse) and its photo.
  private func shoot(_ display: any RunDisplay) async -> (PhotoTimerResult, Timeline, Int) {
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: options.seconds,
        preparation: options.sequential ? .sequential : .concurrent),
      services: services, clock: ContinuousClock(),
      timeLapse: options.interval.map { TimeLapse(interval: $0, count: options.count) })
    let timeline = Locked(Timeline(sequential: options.sequential))
    let task = Task {
      await session.run { event in
        switch event {
        case .run(let event, let runStart):
          timeline.withLock { $0.record(event, runStart: runStart) }
          display.show(event, base: runStart)
        case .restarted(let count):
          display.note("restarted (\(count))")
        case .timeLapseShot(let number, let total):
          timeline.withLock { $0.freeze() }
          display.note("time-lapse: shot \(number) of \(total)")
        case .timeLapseSkipped(let shots):
          let names =
            shots.count == 1
            ? "shot \(shots.lowerBound)" : "shots \(shots.lowerBound)–\(shots.upperBound)"
          display.note("time-lapse: \(names) skipped: the shot before ran past their time")
        }
      }
    }
    let (stoppedAlready, early) = state.withLock { state -> (Bool, [Key]) in
      state.phase = .running(task, session)
      defer { state.early = [] }
      return (state.stopped, state.early)
    }
    if stoppedAlready { task.cancel() }
    for key in early { pressed(key) }
    let result = await task.value
    state.withLock { $0.phase = .framing }
    var photos = 0
    if case .captured = result { photos = 1 }
    return (result, timeline.withLock { $0 }, photos)
  }

  /// `--frame`: the preview runs; each space starts a count; `c` goes back to framing; `q`
  /// or Esc while framing (or a signal at any time) ends it.
  private func framingLoop(
    _ display: any RunDisplay, _ live: LiveDisplay?
  ) async
    -> (PhotoTimerResult, Timeline, Int)
  {
    var photos = 0
    var last: (result: PhotoTimerResult, timeline: Timeline) = (.cancelled, Timeline())
    var framing = PhotoTimerPresentation.Framing(photos: 0)
    while true {
      live?.framing(framing)
      guard await nextCount() else { break }
      let (result, timeline, taken) = await shoot(display)
      photos += taken
      framing.problem = nil
      switch result {
      case .captured(let photo):
        last = (result, timeline)
        framing.photos = photos
        framing.lastFile = photo.file.map { $0.lastPathComponent } ?? "none"
      case .failed(let failure):
        // NB: a camera that stopped cannot frame the next shot: the command ends with it (a
        // DSLR's live view is only the preview: gphoto2 still takes the photos).
        if camera?.isFailed ?? false, options.camera != .gphoto2 {
          return (result, timeline, photos)
        }
        framing.problem = failure.message
      case .cancelled:
        break
      }
      if state.withLock({ $0.stopped }) { break }
    }
    return (last.result, last.timeline, photos)
  }

  /// Waits for space while framing: `true` to count, `false` to quit.
  private func nextCount() async -> Bool {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool? in
        if state.stopped { return false }
        if case .pressed = state.framing {
          state.framing = .idle
          return true
        }
        state.framing = .waiting(continuation)
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
  }

  /// Hands a framing waiter its answer, or remembers a space pressed before it waited.
  private func answerFraming(_ go: Bool) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      if !go { state.stopped = true }
      guard case .waiting(let waiter) = state.framing else {
        if go { state.framing = .pressed }
        return nil
      }
      state.framing = .idle
      return waiter
    }
    waiter?.resume(returning: go)
  }

  /// A key: what it does depends on whether a count runs.
  private func pressed(_ key: Key) {
    let running = state.withLock {
      state -> (Task<PhotoTimerResult, Never>, PhotoTimerSession<ContinuousClock>)? in
      if case .running(let task, let session) = state.phase { return (task, session) }
      return nil
    }
    switch (key, running) {
    case (.go, let (_, session)?): session.takeNow()
    case (.restart, let (_, session)?): session.restart()
    case (.cancel, let (task, _)?), (.quit, let (task, _)?):
      // NB: with --frame a cancelled count goes back to framing; without, it ends the command.
      if !options.frame { state.withLock { $0.stopped = true } }
      task.cancel()
    case (.go, nil) where options.frame: answerFraming(true)
    case (.go, nil), (.restart, nil):
      if !options.frame { state.withLock { $0.early.append(key) } }
    case (.quit, nil): answerFraming(false)
    case (.cancel, nil): if !options.frame { stop(signal: nil) }
    }
  }

  /// Ends everything: the count and (with `--frame`) the framing; `signal` is the signal
  /// that asked for it, if any.
  private func stop(signal: Int32?) {
    let task = state.withLock { state -> Task<PhotoTimerResult, Never>? in
      if let signal, state.signal == nil { state.signal = signal }
      state.stopped = true
      if case .running(let task, _) = state.phase { return task }
      return nil
    }
    task?.cancel()
    answerFraming(false)
  }

  /// Shows the camera's previews on the live view, the newest each time, re-asking for the
  /// terminal's size after a resize; ends when the camera closes or the task is cancelled.
  private static func feed(_ camera: LiveCamera, to display: LiveDisplay, mirrored: Bool) async {
    while !Task.isCancelled {
      guard let room = display.previewRoom else {
        // Too small for a picture: look again at the next frame.
        guard
          (try? await camera.previews(fitting: PreviewSize(width: 1, height: 1)).first { _ in true })
            != nil
        else { return }
        continue
      }
      do {
        for try await frame in camera.previews(fitting: room, mirrored: mirrored) {
          display.showPreview(frame)
          if display.previewRoom != room { break }
        }
        if camera.isClosed { return }
      } catch {
        if !(error is CancellationError) {
          display.note("no preview: \(CommandAdvice.advise(error))")
        }
        return
      }
    }
  }

  private func makeDisplay(_ mode: CommandOptions.OutputMode) -> any RunDisplay {
    switch mode {
    case .json: return JSONDisplay()
    case .plain: return PlainDisplay()
    case .live:
      return LiveDisplay(
        title: title, color: options.color, beep: options.beep ?? true, terminal: Terminal(),
        timeLapse: options.interval != nil, preview: screen.preview)
    }
  }

  private var title: String {
    switch options.camera {
    case .simulated: "simulation"
    case .scene(let preset): "scene camera (\(preset.name))"
    case .file(let path): "image file \((path as NSString).lastPathComponent)"
    case .ffmpeg(let input, _): "ffmpeg \(input)"
    case .v4l2(let path): "webcam \(path)"
    case .pipewire(let node): "PipeWire camera \(node ?? "(default)")"
    case .gphoto2: "gphoto2"
    case .auto: "scene camera (daylight)"
    }
  }
}
