import CGTK
import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerSetup

/// The user's intents and choices, and the photo page.
extension WindowController {
  // MARK: - Intents

  /// Performs the window's action `name` (a button, a key).
  func perform(_ name: WindowActions.Name) {
    switch name {
    // NB: the window closes itself (it owns the controller).
    case .intent(.quit): break
    case .intent(let action): ask(action)
    case .back: showPreview()
    case .openFolder: openFolder()
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
    let reply = session.ask(action, choice: choice, model: snapshot)
    apply(reply.effects)
    render()
    return reply
  }

  /// Carries out what the front-end machine decided.
  func apply(_ effects: [FrontEndSession.Effect]) {
    for effect in effects {
      switch effect {
      case .startCount(let seconds):
        guard let model else { continue }
        if let seconds { model.countdownSeconds = seconds }
        showPreview()
        countStarts()
        model.startTimer()
      case .takeNow: model?.takeNow()
      case .cancelRun: model?.cancel()
      case .restartRun:
        countStarts()
        model?.restart()
      case .watchForPeople(let afterCount):
        guard let model else { continue }
        stage.watchForPeople(afterCount: afterCount) { [weak self] report in
          guard let self, self.model === model else { return }
          self.apply(self.session.heard(report.word, model: model.snapshot))
          self.render()
        }
      case .stopWatching: stage.stopWatchingForPeople()
      // NB: the window ends when it is closed (``close()``).
      case .end: break
      }
    }
  }

  // MARK: - Choices

  /// The bar's choices, as the controller applies them.
  var choices: ControlBar.Choices {
    ControlBar.Choices(
      countdown: { [weak self] in self?.chooseCountdown($0) },
      size: { [weak self] in self?.chooseSize($0) },
      look: { [weak self] in self?.chooseLook($0) },
      location: { [weak self] in self?.chooseLocation($0) },
      mirror: { [weak self] in self?.mirrored = $0 },
      autoStart: { [weak self] in self?.ask(.autoStart, choice: .init(on: $0)) })
  }

  private func chooseCountdown(_ seconds: Int) {
    guard seconds != options.seconds else { return }
    options.seconds = seconds
    settings.countdown = seconds
    store.save(settings)
    // NB: a DSLR's live view is timed to stop before zero: its services know the count.
    if options.camera.kind.shootsItself { rebuild() } else { model?.countdownSeconds = seconds }
  }

  /// The camera menu's choice.
  func chooseCamera(_ camera: CameraChoice) {
    guard camera != options.camera else { return }
    options.camera = camera
    fallback = nil
    if options.mirror == nil { mirrored = options.camera.driver.mirrored(options.camera) }
    views.controls.setMirror(mirrored)
    settings.camera = options.camera.text
    settings.ffmpegFormat = options.camera.format
    store.save(settings)
    rebuild()
  }

  private func chooseSize(_ request: ModeRequest) {
    guard request != options.resolution else { return }
    options.resolution = request
    settings.resolution = CommandOptions.resolutionArgument(request)
    store.save(settings)
    rebuild()
  }

  private func chooseLook(_ look: FilterChoice) {
    guard look != options.filter else { return }
    options.filter = look
    settings.look = look.argument
    store.save(settings)
    rebuild()
  }

  private func chooseLocation(_ on: Bool) {
    let wanted: CommandOptions.LocationChoice = on ? (savedLocation ?? .gpsd(.standard)) : .off
    guard wanted != options.location else { return }
    if !on { savedLocation = options.location }
    options.location = wanted
    rebuild()
  }

  /// The size menu for the camera in use: the sizes its kind offers (a V4L2 webcam's modes
  /// as its driver lists them), hidden when it offers none.
  func showSizes() async {
    let camera = options.camera
    let menu = await Task.detached { await camera.driver.sizes(camera) }.value
    guard !closing, camera == options.camera else { return }
    views.controls.showSizes(menu, current: options.resolution)
  }

  /// The cameras `doctor` would find: webcams, a DSLR, the scene presets; the one from the
  /// command line first.
  func discoverCameras() async {
    let found = await Task.detached { await CameraKinds.discoverAll() }.value
    guard !closing else { return }
    var list = [options.camera]
    for choice in found where !list.contains(choice) { list.append(choice) }
    views.cameras.show(list)
  }

  // MARK: - The photo

  /// The photo page for `photo`, once its file is decoded (off the main thread).
  func showPhoto(_ photo: CapturedPhoto) {
    views.photo.show(photo)
    guard let file = photo.file else { return }
    chores.start { [self] in
      let frame = await Task.detached { () -> Frame? in
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return (try? JPEGCodec.decode([UInt8](data), path: file.path))?.downscaled(
          maxWidth: 1600)
      }.value
      guard let frame, !closing, views.photo.photo == photo else { return }
      views.photo.show(frame)
      page = .photo
      views.preview.showPhotoPage(true)
      render()
      tracer?.photoBounds(
        in: views.window, picture: views.photo.picture, width: frame.width,
        height: frame.height
      ) { [weak self] in
        (up: self?.page == .photo, changing: self?.views.preview.isChangingPage ?? false)
      }
    }
  }

  func showPreview() {
    guard page == .photo else { return }
    page = .preview
    views.photo.clear()
    views.preview.showPhotoPage(false)
    render()
  }

  private func openFolder() {
    guard let folder = views.photo.photo?.file?.deletingLastPathComponent() else { return }
    // NB: GIO launches the handler asynchronously; the window does not wait for it.
    g_app_info_launch_default_for_uri_async(folder.absoluteString, nil, nil, nil, nil)
  }
}
