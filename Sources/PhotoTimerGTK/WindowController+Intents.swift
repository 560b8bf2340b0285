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
    case .intent(.start): start()
    case .intent(.takeNow): model?.takeNow()
    case .intent(.cancel): model?.cancel()
    case .intent(.restart): restart()
    case .intent(.autoStart): startWhenReady(!(autoStart.isOn ?? false))
    case .back: showPreview()
    case .openFolder: openFolder()
    // NB: the window closes itself (it owns the controller).
    case .intent(.quit): break
    }
  }

  private func start() {
    guard let model, problem == nil else { return }
    stage.stopWatchingForPeople()
    _ = autoStart.countStarts()
    showPreview()
    countStarts()
    model.startTimer()
  }

  /// Counts again from the top (a run in progress), or starts.
  private func restart() {
    guard let model, problem == nil else { return }
    guard model.isSessionRunning else { return start() }
    countStarts()
    model.restart()
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
      autoStart: { [weak self] in self?.startWhenReady($0) })
  }

  /// Turns the count that starts by itself on (it watches for the group now, or once the
  /// count under way has ended) or off (the wait ends; counts start by hand).
  func startWhenReady(_ on: Bool) {
    perform(autoStart.set(on))
    render()
  }

  /// Does what the switch for a count that starts itself says: watches for the people (not
  /// while a count runs: its end asks again), stops watching, or starts the count through
  /// the same gate as a key.
  func perform(_ step: AutoStart.Step) {
    switch step {
    case .none: break
    case .watch(let afterCount):
      guard let model, !model.isSessionRunning, !closing else { return }
      stage.watchForPeople(afterCount: afterCount) { [weak self] report in
        guard let self, self.model === model, !model.isSessionRunning else { return }
        self.perform(self.autoStart.heard(report))
        self.render()
      }
    case .stopWatching: stage.stopWatchingForPeople()
    case .start:
      // NB: nothing starts over a run or a failed camera.
      if presentation(for: .keyboard).actions.contains(.start) { perform(.intent(.start)) }
    }
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

  private func showPreview() {
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
