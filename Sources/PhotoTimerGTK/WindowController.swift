import CGTK
import Foundation
import Observation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
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
  /// What the trace records, when there is one.
  let tracer: WindowTracer?
  let sound: ShutterSound

  /// The screen's camera and its life: the camera, the model over services built on it, the
  /// previews fed to the window and the phone, each rebuild.
  let stage = ScreenStage()
  /// The camera the screen holds now.
  var camera: LiveCamera? { stage.camera }
  /// The model over the current camera's services.
  var model: PhotoTimerViewModel? { stage.model }
  /// The camera as the phone's events name it.
  var identity: CameraIdentity? { stage.identity }
  /// Why the camera stands in for `auto`'s, if it does.
  var fallback: String?
  /// Work of the window's own (finding the cameras, decoding the photo), ended on close.
  let chores = Chores()
  /// What the window shows: the preview, or the photo just taken; or it is closing.
  enum Page {
    case preview
    case photo
    case closing
  }
  var page = Page.preview
  /// Whether the window is closing: nothing new starts.
  var closing: Bool { page == .closing }
  // The phone as remote, while it serves: the server, and the intents that come from it.
  var remote: RemoteLink?
  var remoteIntents: Task<Void, Never>?

  // What is shown.
  var mirrored: Bool
  private var previewLook: Look?
  /// The faces followed in the picture now (the stage's), and the ones the last render
  /// outlines over the preview.
  private var faces: [FaceMark] = []
  private var outlinedFaces: [FaceMark] = []
  /// What may happen next: the one front-end machine the command runs too. The window frames
  /// between counts, and shows a camera that fails instead of ending.
  var session = FrontEndSession(
    .init(frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: nil))
  /// Whether the model ran a count when it last changed (``modelChanged()``).
  private var wasRunning = false
  var savedLocation: CommandOptions.LocationChoice?

  init(
    views: Views, options: CommandOptions.RunOptions, settings: WindowSettings,
    store: SettingsStore, trace: Trace?
  ) {
    self.views = views
    self.options = options
    self.settings = settings
    self.store = store
    self.trace = trace
    tracer = trace.map(WindowTracer.init)
    sound = ShutterSound(enabled: options.beep ?? true)
    mirrored = options.mirror ?? options.camera.driver.mirrored(options.camera)
    stage.screen = self
    stage.report = { [weak self] in self?.staged($0) }
    if let trace { views.remote.popoverShown = { trace.record("popover", $0 ? 1 : 0) } }
  }

  /// Renders the first frame, then opens the camera and looks for the others.
  func begin() {
    render()
    tracer?.probeMainActor(chores)
    chores.start { [self] in
      if options.camera.isAuto {
        // NB: asks the system (and gphoto2 when a still camera is plugged in), off the main
        // thread.
        options.camera = await ProgramSetup.resolveAuto()
        if options.camera.scenePreset != nil { fallback = ProgramSetup.noCameraFound }
        if options.mirror == nil { mirrored = options.camera.driver.mirrored(options.camera) }
        views.controls.setMirror(mirrored)
        views.cameras.current = options.camera
        views.cameras.show([options.camera])
      }
      rebuild()
      if options.remote != nil { await setRemote(true) }
      await discoverCameras()
    }
  }

  // MARK: - The camera and the services

  /// Rebuilds the camera, the services and the model from `options`, after the old ones
  /// have stopped; rebuilds queue behind each other.
  func rebuild() {
    guard !closing else { return }
    stage.rebuild(options, fallback: fallback)
    chores.start { [self] in await showSizes() }
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
      // NB: the switch keeps its state from camera to camera, where there is one.
      let on = session.autoStart ?? options.startWhenReady
      session = FrontEndSession(
        .init(
          frames: true, holdsCamera: true, endsOnCameraFailure: false,
          autoStart: stage.ready != nil ? on : nil))
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
      trace?.record("faces", Int64(marks.count))
    }
    render()
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
        self.modelChanged()
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
    session.presentation(of: snapshot, audience: audience, faces: faces)
  }

  /// The model now, or an idle one while none is built.
  var snapshot: PhotoTimerViewModel.Snapshot { model?.snapshot ?? PhotoTimerViewModel.Snapshot() }

  /// Everything on screen from the model's presentation.
  func render() {
    let status = model?.status ?? .idle
    let running = status.isRunning
    let shown = presentation(for: .keyboard)
    remote?.hub.publish(presentation(for: .phone))
    let content = WindowContent(shown)
    outlinedFaces = page == .preview ? shown.faces : []
    views.preview.render(content)
    views.controls.render(content, running: running)
    // The actions: what the presentation says can be done now (the buttons follow them).
    // NB: quit stays enabled: closing the window is always possible (it cancels a run).
    let actions = views.actions
    for action in PhotoTimerPresentation.Action.allCases where action != .quit {
      actions.setEnabled(.intent(action), content.allowed.contains(action))
    }
    actions.setEnabled(.back, page == .photo && !running)
    actions.setEnabled(.openFolder, views.photo.photo?.file != nil)

    // The suggested look, live on the preview while the run lasts.
    if running, case .succeeded(.filter(let suggestion))? = model?.reports[.filter]?.outcome {
      if previewLook?.filter != suggestion.filter { previewLook = Look(suggestion.filter) }
    } else if !running {
      previewLook = nil
    }
    tracer?.rendered(
      status, countdownSeconds: model?.countdownSeconds,
      ready: model != nil && !session.cameraStarting)
  }

  /// The model's state changed: the screen follows, and what a count's start or end sets off
  /// is done here, not in drawing: a count that starts closes the Remote popover (a count
  /// started from the phone is never hidden under it); one that ends (photo, failure or
  /// cancel) has the count that starts itself wait for the next group.
  private func modelChanged() {
    let running = model?.status.isRunning ?? false
    let started = running && !wasRunning
    let ended = !running && wasRunning
    wasRunning = running
    if started { views.remote.closePopover() }
    render()
    if ended {
      let end: FrontEndSession.RunEnd
      switch model?.status {
      case .captured?: end = .captured
      case .failed?: end = .failed(cameraGone: camera?.isFailed ?? false)
      default: end = .cancelled
      }
      apply(session.runEnded(end, model: snapshot))
    }
  }

  /// A count starts now (for the trace's tick lateness).
  func countStarts() {
    tracer?.countStarts()
  }

  // MARK: - Closing

  /// Cancels the run, closes the camera, writes the settings and ends every task: nothing
  /// is left running when it returns.
  func close() async {
    page = .closing
    session.close()
    views.controls.showStatus("Closing…")
    await stage.close()
    await stopRemote()
    await chores.end()
    await store.close()
    trace?.flush()
  }
}

// MARK: - The preview

extension WindowController: PreviewTarget {
  var previewRoom: PreviewSize? { views.preview.room }
  var previewMirrored: Bool { mirrored }

  /// Shows a camera's frame with the suggested look once the filter step chose it and the
  /// faces followed outlined on it: both run off the main thread (on the shared queue, no
  /// thread per frame, on a copy: the photo never carries them); the main thread only
  /// hands the bytes to GTK. RGB as it is: converting to cairo's BGRA ourselves measured
  /// slower (BENCHMARKS.md).
  func show(preview frame: Frame) async {
    var shown = frame
    let look = previewLook
    let marks = outlinedFaces
    // NB: the feed mirrors the frame as the window does now; the faces follow the frame.
    let mirrored = mirrored
    if look != nil || !marks.isEmpty {
      shown = await OffPool.quick {
        var copy = frame
        look?.applyInPlace(to: &copy)
        FaceOutline.draw(marks, mirrored: mirrored, on: &copy)
        return copy
      }
    }
    guard !Task.isCancelled else { return }
    views.preview.show(shown)
    tracer?.shown(frame)
  }
}
