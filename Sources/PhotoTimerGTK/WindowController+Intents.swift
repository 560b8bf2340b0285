import CGTK
import Foundation
import PhotoTimer
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
    if options.mirror == nil { mirrored = options.camera.kind.mirrored(options.camera) }
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
    let menu = await Task.detached { await camera.kind.sizes(camera) }.value
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
      if let trace { tracePhotoBounds(trace, width: frame.width, height: frame.height) }
    }
  }

  /// Where the photo is drawn in the window once laid out: the picture's box, with the
  /// photo fitted inside it keeping its proportions (as GtkPicture draws it).
  private func tracePhotoBounds(_ trace: Trace, width: Int, height: Int) {
    let window = views.window
    let picture = views.photo.picture
    // NB: looked at on each of the window's frames until the page is mapped, laid out and
    // its crossfade over (at most 5 s): the frame clock runs then anyway.
    FrameClock.animate(window) { [weak self] elapsed in
      guard let self, self.page == .photo, elapsed < .seconds(5) else { return false }
      var bounds = graphene_rect_t()
      guard gtk_widget_get_mapped(picture) != 0, !self.views.preview.isChangingPage,
        gtk_widget_compute_bounds(picture, window, &bounds) != 0, bounds.size.width > 1
      else { return true }
      let box = (
        x: Double(bounds.origin.x), y: Double(bounds.origin.y), width: Double(bounds.size.width),
        height: Double(bounds.size.height)
      )
      let scale = min(box.width / Double(width), box.height / Double(height))
      let shown = (width: Double(width) * scale, height: Double(height) * scale)
      let x = box.x + (box.width - shown.width) / 2
      let y = box.y + (box.height - shown.height) / 2
      trace.record(
        "photo-bounds",
        [x, y, shown.width, shown.height].map { String(Int($0.rounded())) }.joined(separator: " "))
      return false
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
