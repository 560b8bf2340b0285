import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup

/// The window's runner: it owns the screen's camera and model (``ScreenStage``), hands the
/// front-end machine every intent and carries out what it decides, and has the screen draw it.
///
/// The model (an unchanged ``PhotoTimerViewModel``) is observed: every change of its state
/// renders once, on the main actor, which is the GTK thread. Nothing here reads a file, a
/// socket or a process on the main thread: the camera, the services and the photo's
/// decoding are built and run off it. Every task it starts is stored and ends with it
/// (``close()``).
@MainActor
final class WindowController {
  /// What the window shows and says.
  let screen: WindowScreen
  var views: WindowViews { screen.views }
  /// The options a run uses, as the window's choices leave them.
  let preferences: WindowPreferences
  var options: CommandOptions.RunOptions {
    get { preferences.options }
    set { preferences.options = newValue }
  }
  var tracer: WindowTracer? { screen.tracer }

  /// The screen's camera and its life: the camera, the model over services built on it, the
  /// previews fed to the window and the phone, each rebuild.
  let stage = ScreenStage()
  /// The model over the current camera's services.
  var model: PhotoTimerViewModel? { stage.model }
  /// Work of the window's own (finding the cameras, decoding the photo), ended on close.
  let chores = Chores()
  var pages: WindowPages { screen.pages }
  /// Whether the window is closing (the machine is over): nothing new starts.
  var closing: Bool { session.isOver }
  var remote: WindowRemote { screen.remote }
  /// The bar's and the camera menu's choices, carried out.
  let choices: WindowChoices
  /// The faces followed in the picture now (the stage's).
  private(set) var faces: [FaceMark] = []
  /// What may happen next: the one front-end machine the command runs too. The window frames
  /// between counts, and shows a camera that fails instead of ending.
  var session: FrontEndSession

  /// The booth (`--booth`) and printing (`--print`).
  let runners: FrontEndRunners
  /// The camera being opened again after it failed (a booth's).
  var reopening: Task<Void, Never>?
  /// When the window started: the time axis of the booth's events.
  let started = ContinuousClock.now

  init(
    views: WindowViews, options: CommandOptions.RunOptions, settings: WindowSettings,
    store: SettingsStore, trace: Trace?, booth: BoothRunner? = nil, printer: PrintRunner? = nil,
    leave: @escaping @MainActor () -> Void = {}
  ) {
    runners = FrontEndRunners(booth: booth, printer: printer)
    session = FrontEndSession(.window(options, booth: booth != nil))
    preferences = WindowPreferences(options: options, settings: settings, store: store)
    screen = WindowScreen(
      views: views, mirrored: options.mirror ?? options.camera.driver.mirrored(options.camera),
      beeps: options.beep ?? true, stage: stage, chores: chores,
      tracer: trace.map(WindowTracer.init))
    choices = WindowChoices(preferences: preferences, screen: screen)
    pages.changed = { [weak self] in self?.render() }
    choices.rebuild = { [weak self] in self?.rebuild() }
    choices.countdown = { [weak self] in self?.model?.countdownSeconds = $0 }
    choices.autoStart = { [weak self] in self?.ask(.autoStart, choice: .init(on: $0)) }
    stage.screen = screen.feed
    stage.report = { [weak self] in self?.staged($0) }
    if let tracer { views.remote.popoverShown = tracer.popover }
    if booth != nil {
      screen.openBooth(kiosk: options.fullscreen, idle: options.idle, leave: leave)
    }
  }

  /// Renders the first frame, then opens the camera and looks for the others.
  func begin() {
    chores.start { [runners] in
      // NB: checked before the window opened; here the paper is kept and its note said.
      try? await runners.printer?.check()
      runners.start { [weak self] in self?.reported($0) }
    }
    render()
    tracer?.probeMainActor(chores)
    chores.start { [self] in
      if await preferences.resolveAuto() {
        choices.cameraChanged()
        views.cameras.current = options.camera
        views.cameras.show([options.camera])
      }
      rebuild()
      if options.remote != nil { await setRemote(true) }
      await views.cameras.discover(first: options.camera) { [weak self] in self?.closing == false }
    }
  }

  // MARK: - Intents

  /// Performs the window's action `name` (a button, a key).
  func perform(_ name: WindowActions.Name) {
    switch name {
    // NB: the window closes itself (it owns the controller).
    case .intent(.quit): break
    case .intent(let action): ask(action)
    case .back: pages.showPreview()
    case .openFolder: views.photo.openFolder()
    }
  }

  /// Asks the front-end machine for an intent (a button, a key, the phone, the switch) and
  /// carries out its effects.
  ///
  /// - Returns: The machine's reply (a refusal says why: the phone is told).
  @discardableResult
  func ask(
    _ action: PhotoTimerPresentation.Action,
    choice: FrontEndSession.Choice = FrontEndSession.Choice()
  ) -> FrontEndSession.Reply {
    session.printing = runners.printing
    let reply = session.ask(action, choice: choice, model: snapshot)
    if case .refused(let reason) = reply { tracer?.refused(reason) }
    apply(reply.effects)
    render()
    return reply
  }

  /// Carries out what the front-end machine decided; the window ends when it is closed
  /// (``close()``).
  func apply(_ effects: [FrontEndSession.Effect]) {
    let model = model
    stage.carryOut(
      effects, on: model,
      // NB: a count that starts closes the Remote popover: a count started from the phone is
      // never hidden under it.
      counted: { [self] _ in
        pages.showPreview()
        views.remote.closePopover()
        tracer?.countStarts()
      },
      heard: { [weak self] report in
        guard let self, let model, self.model === model else { return }
        self.apply(self.session.heard(report.word, model: model.snapshot))
        self.render()
      },
      booth: { [self] effect in
        runners.booth?.carryOut(
          effect, photo: snapshot.photo, faces: faces, controls: .init(stage)
        ) { [weak self] shot in
          guard let self else { return }
          apply(session.reviewEnded(shot: shot, model: snapshot))
          render()
        }
      },
      reopen: { [self] delay in
        reopening?.cancel()
        reopening = Task { [weak self] in
          guard (try? await Task.sleep(for: delay)) != nil, let self, !closing else { return }
          rebuild()
        }
      }, printer: runners.printer)
  }

  /// What the booth or printing reports: passed on (the guests' link, the phones, the
  /// event's log) and shown; printing's drawn again (the status says where printing is).
  func reported(_ report: FrontEndRunners.Report) {
    let passed = runners.pass(report, remote: remote.link, time: started.duration(to: .now))
    screen.show(passed)
    runners.print(passed)
    if case .print = report { render() }
  }

  // MARK: - The camera and the services

  /// Rebuilds the camera, the services and the model from `options`, after the old ones
  /// have stopped; rebuilds queue behind each other.
  func rebuild() {
    guard !closing else { return }
    stage.rebuild(options, fallback: preferences.fallback)
    let camera = options.camera
    chores.start { [self] in
      await views.controls.showSizes(of: camera, current: options.resolution) { [weak self] in
        self?.closing == false && self?.options.camera == camera
      }
    }
  }

  /// What the stage says: a rebuild under way, its model, the camera opened or why not.
  private func staged(_ report: ScreenStage.Report) {
    switch report {
    case .building:
      // NB: no stale picture of the camera that was: black until the new one's first frame.
      views.preview.clear()
      apply(session.cameraBuilding())
      faces = []
    case .buildFailed(let error):
      apply(session.cameraFailed("\(CommandAdvice.advise(error))"))
    case .built(let model):
      tracer?.cameraOpening()
      apply(session.cameraBuilt(switchAvailable: stage.ready != nil, on: options.startWhenReady))
      observe(model)
      stage.keep { [weak self] model in
        for await event in model.events() { self?.handle(event, of: model) }
      }
    case .opened:
      apply(session.cameraOpened(model: snapshot))
    case .cameraFailed(let error):
      apply(session.cameraFailed("camera: \(CommandAdvice.advise(error))"))
    case .previewStopped(let error):
      apply(session.cameraFailed("no preview: \(CommandAdvice.advise(error))"))
    case .faces(let marks):
      guard marks != faces else { return }
      faces = marks
      tracer?.faces(marks.count)
    }
    render()
  }

  // MARK: - Observation

  /// Renders once per change of the model's state, on the main actor, while it is the
  /// window's model, and tells the machine (a session that ended has the count that starts
  /// itself wait for the next group).
  private func observe(_ model: PhotoTimerViewModel) {
    model.observeChanges { [weak self] in
      guard let self, self.model === model else { return false }
      // NB: the machine hears the change before the window is drawn: drawn first, the buttons
      // and keys kept what the machine allowed before it heard (a booth's Retake stayed off
      // through the whole review).
      apply(session.modelChanged(snapshot, cameraGone: stage.camera?.isFailed ?? false))
      render()
      return true
    }
  }

  private func handle(_ event: PhotoTimerEvent, of model: PhotoTimerViewModel) {
    guard self.model === model else { return }
    let saved = screen.show(event, of: model, camera: stage.identity?.forGuests)
    if let saved { runners.saved(saved.path) }
  }

  /// What the window shows now, in the words of `audience` (the phone's page reads the same
  /// moment in its own words).
  func presentation(for audience: PhotoTimerPresentation.Audience) -> PhotoTimerPresentation {
    session.printing = runners.printing
    return session.presentation(of: snapshot, audience: audience, faces: faces)
  }

  /// The model now, or an idle one while none is built.
  var snapshot: PhotoTimerViewModel.Snapshot { model?.snapshot ?? PhotoTimerViewModel.Snapshot() }

  /// Everything on screen from the model's presentation.
  func render() {
    screen.draw(
      presentation(for: .keyboard), phone: presentation(for: .phone), model: model,
      ready: model != nil && !session.cameraStarting)
    screen.booth?.render()
    screen.trace(problem: session.problem)
  }

  // MARK: - Closing

  /// Cancels the run, closes the camera, writes the settings and ends every task: nothing
  /// is left running when it returns.
  func close() async {
    pages.close()
    reopening?.cancel()
    screen.booth?.close()
    session.close()
    views.controls.showStatus("Closing…")
    await stage.close()
    // NB: a collage being drawn is saved before the window goes.
    for event in await runners.finish() {
      try? FileHandle.standardOutput.write(contentsOf: Data((event.line + "\n").utf8))
    }
    await remote.stop()
    await chores.end()
    await preferences.close()
    tracer?.flush()
  }

  // MARK: - The phone

  /// Turns the remote on or off. A phone's intent is allowed only when the window's
  /// presentation allows it now (the same gate as its buttons and keys), refused with its
  /// reason otherwise.
  func setRemote(_ on: Bool) async {
    guard on else { return await remote.stop(shown: true) }
    guard !closing else { return }
    remote.start(for: options, mirrored: screen.feed.mirrored, booth: runners.booth != nil) {
      [weak self] in
      guard let self else { return .refused("the window is closing") }
      return RemoteLink.answer($0, shown: presentation(for: .phone)) { ask($0, choice: $1) }
    }
    render()
  }
}
