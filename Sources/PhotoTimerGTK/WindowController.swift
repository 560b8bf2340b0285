import CGTK
import Foundation
import Observation
import PhotoTimer
import PhotoTimerImaging
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
  /// The widgets the controller fills.
  struct Views {
    var window: Widget
    var preview: PreviewArea
    var controls: ControlBar
    var cameras: CameraMenu
    var photo: PhotoPage
    var actions: WindowActions
    var remote: RemotePanel
  }

  let views: Views
  var options: CommandOptions.RunOptions
  var settings: WindowSettings
  let store: SettingsStore
  let trace: Trace?
  let sound: ShutterSound

  // The run: the camera the screen holds, and the model over services built on it.
  var camera: LiveCamera?
  var model: PhotoTimerViewModel?
  /// The camera as the phone's events name it; why it stands in for `auto`'s, if it does.
  var identity: CameraIdentity?
  var fallback: String?
  private var feed: Task<Void, Never>?
  private var events: Task<Void, Never>?
  private var rebuilding: Task<Void, Never>?
  /// Work of the window's own (finding the cameras, decoding the photo), ended on close.
  let chores = Chores()
  var problem: String?
  var closing = false
  // The phone as remote, while it serves: the server, its intents, the preview it is fed.
  var remote: RemoteLink?
  var remoteIntents: Task<Void, Never>?
  var remoteFeed: Task<Void, Never>?

  // What is shown.
  var mirrored: Bool
  private var previewLook: Look?
  var showingPhoto = false
  /// The run the remote's popover was last closed for: it closes once when a count starts
  /// (a count started from the phone must not be hidden under it), and may be opened again.
  private var popoverClosedForRun = false
  var savedLocation: CommandOptions.LocationChoice?
  // What the trace has seen.
  private var runStart: ContinuousClock.Instant?
  private var countShown: Int?
  private var firstFrameTraced = false
  private var statusTraced: String?

  init(
    views: Views, options: CommandOptions.RunOptions, settings: WindowSettings,
    store: SettingsStore, trace: Trace?
  ) {
    self.views = views
    self.options = options
    self.settings = settings
    self.store = store
    self.trace = trace
    sound = ShutterSound(enabled: options.beep ?? true)
    mirrored = options.mirror ?? options.camera.kind.mirrored(options.camera)
  }

  /// Renders the first frame, then opens the camera and looks for the others.
  func begin() {
    render()
    if let trace { probeMainActor(trace) }
    chores.start { [self] in
      if options.camera.isAuto {
        // NB: asks the system (and gphoto2 when a still camera is plugged in), off the main
        // thread.
        options.camera = await ProgramSetup.resolveAuto()
        if options.camera.scenePreset != nil { fallback = ProgramSetup.noCameraFound }
        if options.mirror == nil { mirrored = options.camera.kind.mirrored(options.camera) }
        views.controls.setMirror(mirrored)
        views.cameras.current = options.camera
        views.cameras.show([options.camera])
      }
      rebuild()
      if options.remote != nil { await setRemote(true) }
      await discoverCameras()
    }
  }

  /// For the trace: a main-actor task started from GTK's callback runs on the GTK thread, and
  /// its sleep wakes on time, before anything else keeps the loop busy.
  private func probeMainActor(_ trace: Trace) {
    chores.start {
      trace.record("main-thread", Thread.isMainThread ? 1 : 0)
      let before = ContinuousClock.now
      try? await Task.sleep(for: .milliseconds(100))
      trace.record("main-sleep", before.advanced(by: .milliseconds(100)).duration(to: .now))
      trace.record("main-thread", Thread.isMainThread ? 1 : 0)
    }
  }

  // MARK: - The camera and the services

  /// Rebuilds the camera, the services and the model from `options`, after the old ones
  /// have stopped; rebuilds queue behind each other.
  func rebuild() {
    let previous = rebuilding
    rebuilding = Task {
      await previous?.value
      await self.rebuildNow()
    }
  }

  private func rebuildNow() async {
    await tearDown()
    guard !closing else { return }
    // NB: no stale picture of the camera that was: black until the new one's first frame.
    views.preview.clear()
    problem = nil
    render()
    let options = options
    let fallback = fallback
    let built = await Task.detached {
      () -> Result<(LiveCamera?, PhotoTimerServices, CameraIdentity), any Error> in
      do {
        let source = try await ProgramSetup.cameraSource(options)
        let live = source.map { LiveCamera($0) }
        let services = try ProgramSetup.makeServices(options, camera: live ?? source)
        let identity = ProgramSetup.identity(options, source: source, fallback: fallback)
        return .success((live, services.mapErrors(CommandAdvice.advise), identity))
      } catch {
        return .failure(error)
      }
    }.value
    switch built {
    case .failure(let error):
      problem = "\(CommandAdvice.advise(error))"
      render()
    case .success(let (camera, services, identity)):
      self.identity = identity
      await showSizes()
      guard !closing else {
        await camera?.close()
        return
      }
      let model = PhotoTimerViewModel(
        countdownSeconds: options.seconds, services: services,
        cameraWaitLimit: .seconds(options.cameraWait))
      self.camera = camera
      self.model = model
      observe(model)
      events = Task { [weak self] in
        for await event in model.events() { self?.handle(event, of: model) }
      }
      if let camera { feed = Task { [weak self] in await self?.runFeed(camera) } }
      startRemoteFeed()
      render()
    }
  }

  /// Stops the run and closes the camera: no process, socket or partial file is left.
  private func tearDown() async {
    let model = model
    let camera = camera
    self.model = nil
    self.camera = nil
    model?.cancel()
    await model?.waitForRun()
    feed?.cancel()
    events?.cancel()
    remoteFeed?.cancel()
    await camera?.close()
    await feed?.value
    await events?.value
    feed = nil
    events = nil
  }

  /// Shows the camera's frames, newest only, scaled to the preview's size off the main
  /// thread, with the suggested look once the filter step chose it.
  private func runFeed(_ camera: LiveCamera) async {
    let opening = ContinuousClock.now
    do {
      try await camera.start()
    } catch {
      if !(error is CancellationError), !camera.isClosed {
        problem = "camera: \(CommandAdvice.advise(error))"
        render()
      }
      return
    }
    while !Task.isCancelled {
      let room = views.preview.room
      let mirrored = mirrored
      do {
        for try await frame in camera.previews(fitting: room, mirrored: mirrored) {
          // NB: the look runs off the main thread (on the shared queue, no thread per frame);
          // the main thread only hands the bytes to GTK. RGB as it is: converting to cairo's
          // BGRA ourselves measured slower (BENCHMARKS.md).
          var shown = frame
          if let look = previewLook {
            shown = await OffPool.quick {
              var copy = frame
              look.applyInPlace(to: &copy)
              return copy
            }
          }
          guard !Task.isCancelled else { return }
          views.preview.show(shown)
          if let trace {
            trace.record("frame", opening.advanced(by: frame.timestamp).duration(to: .now))
            if !firstFrameTraced {
              firstFrameTraced = true
              trace.record("first-frame", Trace.monotonicNanoseconds)
            }
          }
          if views.preview.room != room || self.mirrored != mirrored { break }
        }
        if camera.isClosed { return }
      } catch {
        if !(error is CancellationError), !camera.isClosed {
          problem = "no preview: \(CommandAdvice.advise(error))"
          render()
        }
        return
      }
    }
  }

  // MARK: - Observation

  /// Renders once per change of the model's state, on the main actor.
  private func observe(_ model: PhotoTimerViewModel) {
    withObservationTracking {
      _ = model.state
      _ = model.note
      _ = model.isSessionRunning
    } onChange: { [weak self] in
      Task { @MainActor [weak self] in
        guard let self, self.model === model else { return }
        self.render()
        self.observe(model)
      }
    }
  }

  private func handle(_ event: PhotoTimerEvent, of model: PhotoTimerViewModel) {
    guard self.model === model else { return }
    publishToRemote(event, of: model)
    switch event.kind {
    case .shutter:
      views.preview.flash()
      sound.play()
    case .captured(let photo):
      showPhoto(photo)
    default: break
    }
  }

  /// What the window shows now, in the words of `audience` (the phone's page reads the same
  /// moment in its own words).
  func presentation(for audience: PhotoTimerPresentation.Audience) -> PhotoTimerPresentation {
    guard let model else {
      return PhotoTimerPresentation(
        state: PhotoTimerState(), context: .init(cameraStarting: true, audience: audience))
    }
    return model.presentation(problem: problem, isOver: closing, audience: audience)
  }

  /// Everything on screen from the model's presentation.
  func render() {
    let status = model?.status ?? .idle
    let running = status.isRunning
    let shown = presentation(for: .keyboard)
    remote?.hub.publish(presentation(for: .phone))
    let content = WindowContent(shown)
    if running, !popoverClosedForRun { views.remote.closePopover() }
    popoverClosedForRun = running
    views.preview.render(content)
    views.controls.render(content, running: running)
    // The actions: what the presentation says can be done now (the buttons follow them).
    // NB: quit stays enabled: closing the window is always possible (it cancels a run).
    let actions = views.actions
    for action in PhotoTimerPresentation.Action.allCases where action != .quit {
      actions.setEnabled(.intent(action), content.allowed.contains(action))
    }
    actions.setEnabled(.back, showingPhoto && !running)
    actions.setEnabled(.openFolder, views.photo.photo?.file != nil)

    // The suggested look, live on the preview while the run lasts.
    if running, case .succeeded(.filter(let suggestion))? = model?.reports[.filter]?.outcome {
      if previewLook?.filter != suggestion.filter { previewLook = Look(suggestion.filter) }
    } else if !running {
      previewLook = nil
    }
    if let trace { traceRender(trace, status: status) }
  }

  /// What the trace records of a render: each tick's lateness as its label is set, and each
  /// new status (once the model exists: "status idle" means ready for space).
  private func traceRender(_ trace: Trace, status: PhotoTimerStatus) {
    if case .counting(let remaining) = status, remaining > 0 {
      if countShown != remaining, let runStart, let model {
        let deadline = runStart.advanced(by: .seconds(model.countdownSeconds - remaining))
        if deadline <= .now { trace.record("tick", deadline.duration(to: .now)) }
      }
      countShown = remaining
    } else {
      countShown = nil
    }
    if model != nil, statusTraced != status.description {
      statusTraced = status.description
      trace.record("status", status.description)
    }
  }

  /// A count starts now (for the trace's tick lateness).
  func countStarts() {
    runStart = .now
  }

  // MARK: - Closing

  /// Cancels the run, closes the camera, writes the settings and ends every task: nothing
  /// is left running when it returns.
  func close() async {
    closing = true
    views.controls.showStatus("Closing…")
    await rebuilding?.value
    await tearDown()
    await stopRemote()
    await chores.end()
    await store.close()
    trace?.flush()
  }
}
