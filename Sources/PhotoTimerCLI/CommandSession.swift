import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerRemote
import PhotoTimerSetup

/// One invocation: the view model, driven by keys and signals, drawn by a display.
///
/// The command is a front end of ``PhotoTimerViewModel``, as the window is: one loop takes
/// every input in the order it happened (keys, signals, the model's changes, the camera
/// opening) and turns keys into the model's intents (start, take it now, restart, cancel)
/// and each change into a presentation the display draws. When the screen holds the camera
/// (a preview, or `--frame`) it opens it before the first count and closes it when the
/// command ends: every run borrows the one open camera.
@MainActor
final class CommandSession {

  let options: CommandOptions.RunOptions
  let screen: CommandScreen
  /// The screen's camera and its life: opening, feeding the previews, closing.
  let stage: ScreenStage
  /// The camera the screen holds, or `nil` when each run opens its own.
  var camera: LiveCamera? { stage.camera }
  /// The camera as every output names it.
  let identity: CameraIdentity
  let model: PhotoTimerViewModel
  let sink: any OutputSink
  private let keys: AsyncStream<Key>?
  var progress: CommandProgress
  /// The booth (`phototimer booth`) and printing (`--print`).
  let runners: FrontEndRunners
  /// The phone's remote, while it serves.
  private(set) var remote: RemoteLink?
  /// Whether the command frames between counts and goes on after each photo: `--frame`, a
  /// remote (the phone starts each count) or a count that starts itself.
  var keepsFraming: Bool { screen.frames }
  /// Where the loop's inputs go, while it runs.
  var input: AsyncStream<CommandInput>.Continuation?

  /// Creates the command's session.
  ///
  /// - Parameters:
  ///   - options: The run's options.
  ///   - services: The camera, location and filter.
  ///   - screen: How it is shown.
  ///   - camera: The camera the screen holds, if it holds one.
  ///   - identity: The camera as the output names it; by default from the options.
  ///   - sink: Where the display writes; standard output unless a test reads it.
  ///   - keys: The keys pressed; `nil` reads them from the terminal in the live view.
  ///   - clock: The clock the runs keep time on; tests pass a `TestClock`.
  ///   - ready: The count that starts itself on `camera` (`--start-when-ready`), if asked for.
  ///   - booth: The booth, for `phototimer booth`.
  ///   - printer: Printing, with `--print`.
  init(
    options: CommandOptions.RunOptions, services: PhotoTimerServices, screen: CommandScreen,
    camera: LiveCamera?, identity: CameraIdentity? = nil, ready: ReadyWatch? = nil,
    sink: any OutputSink = StandardOutputSink(), keys: AsyncStream<Key>? = nil,
    clock: any Clock<Duration> = ContinuousClock(), booth: BoothRunner? = nil,
    printer: PrintRunner? = nil
  ) {
    self.options = options
    self.screen = screen
    let identity = identity ?? ProgramSetup.identity(options, source: camera?.source)
    self.identity = identity
    self.sink = sink
    self.keys = keys
    stage = ScreenStage(clock: clock)
    model = stage.adopt(
      ScreenStage.Parts(camera: camera, services: services, identity: identity, ready: ready),
      options: options)
    model.timeLapse = options.interval.map { TimeLapse(interval: $0, count: options.count) }
    model.preparation = options.sequential ? .sequential : .concurrent
    // NB: the switch for a count that starts by itself is there only while framing, with a
    // camera on screen and the people step.
    var configuration = FrontEndSession.Configuration(
      frames: screen.frames, holdsCamera: camera != nil,
      autoStart: screen.frames && ready != nil ? options.startWhenReady : nil)
    configuration.booth = options.booth ? options.boothPlan : nil
    runners = FrontEndRunners(booth: booth, printer: printer)
    let session = FrontEndSession(configuration)
    progress = CommandProgress(
      session: session,
      record: CommandRecord(frames: screen.frames, sequential: options.sequential),
      shown: model.snapshot)
  }

  /// Runs until a photo is taken, the run fails, or it is cancelled (with `--frame`: until
  /// quit); returns the exit status.
  func run() async -> ExitCode {
    if let address = options.remote {
      do {
        remote = try RemoteLink(
          address: address, camera: identity.guestDescription, mirrored: screen.mirrored,
          seconds: options.seconds, guests: options.booth && options.guestLinks)
      } catch {
        StandardStream.error.write("error: \(CommandAdvice.advise(error))\n")
        return .failure
      }
    }
    if let remote { screen.announce(remote, to: sink) }
    // NB: the plain and JSON outputs say the fallback themselves; the live view's header says
    // it here.
    if screen.mode == .live, let fallback = identity.fallbackLine { model.post(note: fallback) }
    // NB: without a picture the view is text drawn under this line, which stays whole above it.
    if let noPicture = screen.noPicture { try? sink.write("  \(noPicture)\n\n") }
    let display = screen.display(sink, camera: identity, options: options, remote: remote)
    let (inputs, input) = AsyncStream.makeStream(of: CommandInput.self)
    self.input = input
    let listeners = CommandListeners(readsKeys: keys == nil && screen.mode == .live, into: input)
    runners.start { input.yield(.reported($0)) }
    let updates = model.updates()
    await withTaskGroup(of: Void.self) { group in
      CommandInput.forward(
        updates: updates, keys: keys, intents: remote?.intents, into: input, in: &group)
      if let remote { stage.show(on: remote) }
      if camera != nil {
        if let live = display as? LiveDisplay, live.previewMethod != nil { stage.screen = live }
        stage.report = { report in
          if let heard = CommandInput(report) { input.yield(heard) }
        }
        stage.open()
        // The camera opening, until it has.
        await draw(display)
      } else {
        apply(progress.session.begin(model: model.snapshot))
      }
      for await next in inputs {
        await handle(next, display: display)
        // NB: a booth's collage still being drawn is saved and said before the command ends;
        // so is a print on its way (until it is printed or the printer holds it).
        if progress.session.isOver, !runners.keepOpen(signalled: progress.record.signal != nil) {
          break
        }
      }
      group.cancelAll()
    }
    // NB: a count still running (a signal while framing's count ran) ends before the camera
    // closes: the run releases it first.
    if model.isSessionRunning { model.cancel() }
    await model.waitForRun()
    for event in await runners.finish() {
      await display.showEvent(event, time: progress.record.now)
    }
    await stage.stopFeeding()
    self.input = nil
    let last = model.presentation(isOver: true)
    remote?.hub.publish(last)
    await remote?.stop()
    let record = progress.record
    await display.finish(
      last, result: record.result, timeline: record.photoTimeline, photos: record.saved)
    if case .failed(let failure) = record.result {
      StandardStream.error.write("error: \(failure.message)\n")
    }
    await stage.close()
    await listeners.stop()
    if let problem = await display.close() {
      StandardStream.error.write("error: the output could not be written: \(problem)\n")
    }
    return runners.collageFailed ? .failure : record.exitCode
  }

  /// Carries out what the front-end machine decided.
  func apply(_ effects: [FrontEndSession.Effect]) {
    stage.carryOut(
      effects, on: model,
      counted: { again in
        progress.record.countStarts()
        if options.sequential, !again {
          model.post(note: "--sequential: one preparation after another, then the count")
        }
      },
      // NB: the loop ends once the machine is over (``run()``).
      heard: { [input] in input?.yield(.ready($0)) },
      booth: { [self, input] in
        runners.booth?.carryOut(
          $0, photo: model.snapshot.photo, faces: progress.faces, controls: .init(stage)
        ) {
          input?.yield(.reviewEnded($0))
        }
      }, printer: runners.printer)
  }

  /// One input: what it does to the model and to the screen.
  private func handle(_ next: CommandInput, display: any CommandDisplay) async {
    switch next {
    case .update(let update):
      await draw(display, after: update, time: handled(update))
      return
    case .key(let key):
      pressed(key)
    case .signal(let number):
      if progress.record.signal == nil { progress.record.signal = number }
      apply(progress.session.signal(model: model.snapshot))
    case .cameraOpened(let problem?):
      apply(progress.cameraFailed(problem))
      return
    case .cameraOpened(nil):
      apply(progress.session.cameraOpened(model: model.snapshot))
    case .previewStopped(let problem):
      model.post(note: "no preview: \(problem)")
      return
    case .remote(let command):
      command.answer(asked)
    case .ready(let report):
      guard progress.session.hears(model: model.snapshot) else { return }
      await display.showReady(report, time: progress.record.now)
      apply(progress.session.heard(report.word, model: model.snapshot))
    case .faces(let marks):
      guard marks != progress.faces else { return }
      progress.faces = marks
    case .reviewEnded(let shot):
      apply(progress.session.reviewEnded(shot: shot, model: model.snapshot))
    case .reported(let report):
      await reported(report, display: display)
    }
    if !progress.session.isOver { await draw(display) }
  }

  /// Draws the model as the loop has it (``CommandProgress/shown``) on the screen and the
  /// phone, after the model's `update` or an input of the command's own.
  private func draw(
    _ display: any CommandDisplay, after update: PhotoTimerViewModel.Update? = nil,
    time: Duration? = nil
  ) async {
    let time = time ?? progress.record.now
    await display.show(presentation(progress.shown), after: update, time: time)
    remote?.publish(
      presentation(progress.shown, for: .phone), after: update, time: time,
      camera: identity.forGuests)
  }

  func presentation(
    _ snapshot: PhotoTimerViewModel.Snapshot,
    for audience: PhotoTimerPresentation.Audience = .keyboard
  ) -> PhotoTimerPresentation {
    progress.presentation(snapshot, for: audience, printing: runners.printing)
  }

  /// A change of the model: handled (``CommandProgress/handle(_:cameraGone:)``), its photo
  /// offered to the printer. Returns when it happened, on the command's time axis.
  private func handled(_ update: PhotoTimerViewModel.Update) -> Duration {
    // NB: a camera that stopped cannot frame the next shot: the command ends with it (a
    // DSLR's live view is only the preview: gphoto2 still takes the photos).
    let gone = camera?.isFailed ?? false && !options.camera.kind.shootsItself
    let (time, saved, effects) = progress.handle(update, cameraGone: gone)
    if let saved { runners.saved(saved.path) }
    apply(effects)
    return time
  }

  /// Passes `report` on (the guests' link, the phones, the event's log) and shows it: each
  /// event's line, its notice (a print's, else where printing is now), each collage saved.
  private func reported(_ report: FrontEndRunners.Report, display: any CommandDisplay) async {
    let time = progress.record.now
    let passed = runners.pass(report, remote: remote, time: time)
    for problem in passed.problems { model.post(note: problem) }
    for event in passed.events {
      if let collage = event as? BoothEvent, case .collage(_, let file, _, _) = collage {
        model.post(note: "collage saved: \(file)")
      }
      let words = event is PrintEvent ? runners.printer?.desk.words : nil
      if let notice = event.notice ?? words { model.post(note: notice) }
      await display.showEvent(event, time: time)
    }
    runners.print(passed)
  }
}
