import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The window's controller: it owns the camera, the model over services built on it, the
/// preview feed and the settings, turns the user's intents into the model's, and renders the
/// model's presentation into the views.
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
  var mirrored: Bool {
    get { screen.feed.mirrored }
    set { screen.feed.mirrored = newValue }
  }
  /// The faces followed in the picture now (the stage's).
  private(set) var faces: [FaceMark] = []
  /// What may happen next: the one front-end machine the command runs too. The window frames
  /// between counts, and shows a camera that fails instead of ending.
  var session: FrontEndSession

  /// The booth (`--booth`): its sessions' shots, reviews and collages.
  let booth: BoothRunner?
  /// Printing (`--print`): the print desk's effects, each job followed, the printer watched.
  let printer: PrintRunner?
  /// The camera being opened again after it failed (a booth's).
  var reopening: Task<Void, Never>?
  /// The problem the trace last recorded.
  private var tracedProblem: String?
  /// The booth's screen: its big Start, its idle turn, its way out.
  private(set) var boothScreen: BoothScreen?
  /// When the window started: the time axis of the booth's events.
  let started = ContinuousClock.now

  init(
    views: WindowViews, options: CommandOptions.RunOptions, settings: WindowSettings,
    store: SettingsStore, trace: Trace?, booth: BoothRunner? = nil, printer: PrintRunner? = nil,
    leave: @escaping @MainActor () -> Void = {}
  ) {
    self.booth = booth
    self.printer = printer
    var configuration = FrontEndSession.Configuration(
      frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: nil)
    configuration.booth = booth != nil ? options.boothPlan : nil
    // NB: a booth runs all evening: a camera unplugged and plugged back in resumes by itself.
    configuration.reopensCamera = booth != nil ? .seconds(3) : nil
    session = FrontEndSession(configuration)
    preferences = WindowPreferences(options: options, settings: settings, store: store)
    screen = WindowScreen(
      views: views, mirrored: options.mirror ?? options.camera.driver.mirrored(options.camera),
      beeps: options.beep ?? true, stage: stage, chores: chores,
      tracer: trace.map(WindowTracer.init))
    pages.changed = { [weak self] in self?.render() }
    stage.screen = screen.feed
    stage.report = { [weak self] in self?.staged($0) }
    if let tracer { views.remote.popoverShown = tracer.popover }
    booth?.report = { [weak self] in self?.boothHappened($0) }
    printer?.report = { [weak self] in self?.printHappened($0) }
    if booth != nil {
      boothScreen = BoothScreen(
        preview: views.preview, actions: views.actions, pages: screen.pages, tracer: tracer,
        kiosk: options.fullscreen, idle: options.idle, leave: leave)
    }
  }

  /// Renders the first frame, then opens the camera and looks for the others.
  func begin() {
    if let printer {
      chores.start {
        // NB: checked before the window opened; here the paper is kept and its note said.
        try? await printer.check()
        printer.start()
      }
    }
    render()
    tracer?.probeMainActor(chores)
    chores.start { [self] in
      if await preferences.resolveAuto() {
        cameraChanged()
        views.cameras.current = options.camera
        views.cameras.show([options.camera])
      }
      rebuild()
      if options.remote != nil { await setRemote(true) }
      await views.cameras.discover(first: options.camera) { [weak self] in self?.closing == false }
    }
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
    remote.publish(event, of: model, camera: stage.identity?.forGuests)
    if case .shutter = event.kind { screen.shutter() }
    if case .captured(let photo) = event.kind {
      pages.showPhoto(photo)
      // NB: a booth prints its collage, not its shots.
      if booth == nil, let file = photo.file { printer?.offer(file.path) }
    }
  }

  /// What the window shows now, in the words of `audience` (the phone's page reads the same
  /// moment in its own words).
  func presentation(for audience: PhotoTimerPresentation.Audience) -> PhotoTimerPresentation {
    session.printing = printer?.desk.controls
    return session.presentation(of: snapshot, audience: audience, faces: faces)
  }

  /// The model now, or an idle one while none is built.
  var snapshot: PhotoTimerViewModel.Snapshot { model?.snapshot ?? PhotoTimerViewModel.Snapshot() }

  /// Everything on screen from the model's presentation.
  func render() {
    screen.draw(
      presentation(for: .keyboard), phone: presentation(for: .phone), model: model,
      ready: model != nil && !session.cameraStarting)
    boothScreen?.render()
    if session.problem != tracedProblem {
      tracedProblem = session.problem
      tracer?.problem(session.problem)
    }
  }

  // MARK: - Closing

  /// Cancels the run, closes the camera, writes the settings and ends every task: nothing
  /// is left running when it returns.
  func close() async {
    pages.close()
    reopening?.cancel()
    boothScreen?.close()
    session.close()
    views.controls.showStatus("Closing…")
    await stage.close()
    // NB: a collage being drawn is saved before the window goes.
    await booth?.finish()
    for event in await printer?.finish() ?? [] {
      try? FileHandle.standardOutput.write(contentsOf: Data((event.line + "\n").utf8))
    }
    await remote.stop()
    await chores.end()
    await preferences.close()
    tracer?.flush()
  }
}
