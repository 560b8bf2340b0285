import CGTK
import Foundation
import Observation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGPhoto2
import PhotoTimerGStreamer
import PhotoTimerImaging
import PhotoTimerJPEG

/// The window: the live preview with the count over it, the checklist, the controls, and
/// after the shutter the photo with its settings, place, look, file and timeline.
///
/// It is driven by an unchanged ``PhotoTimerViewModel`` through Observation: every change
/// of the model's state schedules one render on the main actor, which is the GTK thread.
/// Nothing here reads a file, a socket or a process on the main thread: the camera, the
/// services and the photo's decoding are built and run off it.
@MainActor
final class PhotoTimerWindow {
  /// How the program ends: 0 when the window was closed, 130 or 143 for a signal.
  static var exitStatus: Int32 = 0
  /// The window of this process, once the application is active.
  static var current: PhotoTimerWindow?

  private let application: UnsafeMutablePointer<GtkApplication>
  private var options: CommandOptions.RunOptions
  private var settings: WindowSettings
  private let settingsFile: URL
  private let trace: Trace?
  private let sound: ShutterSound

  // The run: the camera the screen holds, and the model over services built on it.
  private var camera: LiveCamera?
  private var model: PhotoTimerViewModel?
  private var feed: Task<Void, Never>?
  private var events: Task<Void, Never>?
  private var rebuilding: Task<Void, Never>?
  private var problem: String?
  private var closing = false
  private var closed = false

  // What is shown.
  private var cameras: [CommandOptions.CameraChoice] = []
  private var mirrored: Bool
  private var previewLook: Look?
  private var showingPhoto = false
  private var photoShown: CapturedPhoto?
  private var runStart: ContinuousClock.Instant?
  private var countShown: Int?
  private var firstFrameTraced = false
  private var statusTraced: String?

  // The widgets, made with the window; their signals are connected in `present()`.
  private let window: Widget
  private let stack = made(gtk_stack_new())
  private let overlay = made(gtk_overlay_new())
  private let preview = made(gtk_picture_new())
  private let countLabel = GTK.label("", classes: ["count"])
  private let statusLabel = GTK.label("Starting the camera…", classes: ["status"])
  private let flash = GTK.box(GTK_ORIENTATION_HORIZONTAL)
  private let checklist = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
  private var rows: [PreparationStep: (spinner: Widget, mark: Widget, text: Widget)] = [:]
  private let startButton = GTK.button("_Start", tooltip: "Start the count (space)")
  private let nowButton = GTK.button("_Take it now", tooltip: "Take the photo now (space or Enter)")
  private let cancelButton = GTK.button("_Cancel", tooltip: "Cancel the run (Esc)")
  private let restartButton = GTK.button("_Restart", tooltip: "Count again from the start (r)")
  private let openButton = GTK.button("_Open folder", tooltip: "Open the photo's folder")
  private let backButton = GTK.button("_Back to the preview", tooltip: "Frame the next shot (Esc)")
  private let countdownSeconds: [Int]
  private let countdownChoice: Widget
  private let cameraChoice: Widget
  /// The webcam's modes (shown for a V4L2 webcam only), and the request each entry makes.
  private let sizeChoice: Widget
  private var sizeRequests: [ModeRequest] = []
  private var replacingSizes = false
  private let lookChoice: Widget
  private let locationCheck: Widget
  private let mirrorCheck: Widget
  private let photoPicture = made(gtk_picture_new())
  private var photoDetails: [Widget] = []
  private let timeline = TimelineChart()

  private static let countdowns = [0, 3, 5, 10]
  /// The photo's summary rows the photo page shows, in order.
  private static let detailRows = ["settings", "place", "look", "file"]
  private static let looks: [FilterChoice] =
    [.auto, .none] + [.natural, .vivid, .warm, .cool, .mono, .dramatic, .fade].map { .fixed($0) }

  init(
    application: UnsafeMutablePointer<GtkApplication>, options: CommandOptions.RunOptions,
    settings: WindowSettings, settingsFile: URL, trace: Trace?
  ) {
    self.application = application
    self.options = options
    self.settings = settings
    self.settingsFile = settingsFile
    self.trace = trace
    sound = ShutterSound(enabled: options.beep ?? true)
    mirrored = options.mirror ?? options.camera.isWebcam
    window = made(gtk_application_window_new(application))
    var seconds = Self.countdowns
    if !seconds.contains(options.seconds) { seconds.append(options.seconds) }
    seconds.sort()
    countdownSeconds = seconds
    countdownChoice = GTK.dropDown(
      seconds.map { $0 == 0 ? "no count" : "\($0) s" },
      selected: seconds.firstIndex(of: options.seconds) ?? 0)
    cameras = [options.camera]
    cameraChoice = GTK.dropDown(
      [Self.name(options.camera), "Image file…", "Stream URL…"], selected: 0)
    sizeChoice = GTK.dropDown(["Best mode"], selected: 0)
    lookChoice = GTK.dropDown(
      Self.looks.map(Self.name), selected: Self.looks.firstIndex(of: options.filter) ?? 0)
    locationCheck = GTK.check("_Location", active: options.location != .off)
    mirrorCheck = GTK.check("_Mirror", active: mirrored)
  }

  // MARK: - Building the window

  /// Builds the window, shows it and starts the camera.
  func present() {
    GTK.loadCSS(Self.css)
    let typedWindow = gobject(raw(window), as: GtkWindow.self)
    gtk_window_set_title(typedWindow, "phototimer")
    gtk_window_set_default_size(typedWindow, 1024, 720)

    gtk_picture_set_can_shrink(OpaquePointer(preview), 1)
    gtk_widget_set_hexpand(preview, 1)
    gtk_widget_set_vexpand(preview, 1)
    gtk_widget_add_css_class(preview, "preview")

    let typedStack = OpaquePointer(stack)
    gtk_stack_set_transition_type(typedStack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
    gtk_stack_set_transition_duration(typedStack, 150)
    gtk_stack_add_named(typedStack, preview, "preview")
    gtk_stack_add_named(typedStack, buildPhotoPage(), "photo")

    let typedOverlay = OpaquePointer(overlay)
    gtk_overlay_set_child(typedOverlay, stack)
    gtk_widget_set_hexpand(overlay, 1)
    gtk_widget_set_vexpand(overlay, 1)

    gtk_widget_set_halign(countLabel, GTK_ALIGN_CENTER)
    gtk_widget_set_valign(countLabel, GTK_ALIGN_CENTER)
    gtk_widget_set_can_target(countLabel, 0)
    gtk_overlay_add_overlay(typedOverlay, countLabel)

    buildChecklist()
    gtk_widget_set_halign(checklist, GTK_ALIGN_START)
    gtk_widget_set_valign(checklist, GTK_ALIGN_END)
    gtk_overlay_add_overlay(typedOverlay, checklist)

    gtk_widget_add_css_class(flash, "flash")
    gtk_widget_set_can_target(flash, 0)
    gtk_widget_set_opacity(flash, 0)
    gtk_overlay_add_overlay(typedOverlay, flash)

    gtk_label_set_xalign(OpaquePointer(statusLabel), 0)
    gtk_label_set_ellipsize(OpaquePointer(statusLabel), PANGO_ELLIPSIZE_END)
    gtk_widget_set_hexpand(statusLabel, 1)

    let content = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [overlay, buildControls()])
    gtk_window_set_child(typedWindow, content)

    let keys = made(gtk_event_controller_key_new())
    // NB: the capture phase, so space and Enter are the timer's even when a button has focus.
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    Signal.keyPressed(raw(keys)) { [weak self] key, modifiers in
      self?.pressed(key: key, modifiers: modifiers) ?? false
    }
    gtk_widget_add_controller(window, keys)
    Signal.handled(raw(window), "close-request") { [weak self] in
      guard let self, !closed else { return false }
      close()
      return true
    }
    gtk_window_present(typedWindow)
    render()
    if let trace { probeMainActor(trace) }
    Task {
      if options.camera == .auto {
        // NB: asks the system (and gphoto2 when a still camera is plugged in), off the main thread.
        options.camera = await ProgramSetup.resolveAuto()
        if options.mirror == nil { mirrored = options.camera.isWebcam }
        setCheck(mirrorCheck, mirrored)
        showCameras([options.camera])
      }
      rebuild()
      await discoverCameras()
    }
  }

  private func buildChecklist() {
    let box = checklist
    gtk_widget_add_css_class(box, "checklist")
    for step in PreparationStep.allCases {
      let spinner = made(gtk_spinner_new())
      let mark = GTK.label("·", classes: ["mark"])
      let name = GTK.label(step.rawValue.capitalized, classes: ["step"])
      gtk_label_set_xalign(OpaquePointer(name), 0)
      gtk_widget_set_size_request(name, 80, -1)
      let text = GTK.label("", classes: ["step-text"])
      gtk_label_set_xalign(OpaquePointer(text), 0)
      gtk_label_set_ellipsize(OpaquePointer(text), PANGO_ELLIPSIZE_END)
      gtk_label_set_max_width_chars(OpaquePointer(text), 60)
      GTK.append(box, GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [spinner, mark, name, text]))
      rows[step] = (spinner, mark, text)
    }
  }

  private func buildControls() -> Widget {
    gtk_widget_add_css_class(startButton, "suggested-action")
    GTK.onClick(startButton) { [weak self] in self?.start() }
    GTK.onClick(nowButton) { [weak self] in self?.model?.takeNow() }
    GTK.onClick(cancelButton) { [weak self] in self?.cancel() }
    GTK.onClick(restartButton) { [weak self] in self?.restart() }
    let seconds = countdownSeconds
    GTK.onSelect(countdownChoice) { [weak self] index in self?.chooseCountdown(seconds[index]) }
    gtk_widget_set_tooltip_text(countdownChoice, "The countdown")
    GTK.onSelect(cameraChoice) { [weak self] index in self?.chooseCamera(index) }
    gtk_widget_set_tooltip_text(cameraChoice, "The camera")
    GTK.onSelect(sizeChoice) { [weak self] index in self?.chooseSize(index) }
    gtk_widget_set_tooltip_text(sizeChoice, "The webcam's mode: size, format and frame rate")
    GTK.setVisible(sizeChoice, false)
    GTK.onSelect(lookChoice) { [weak self] index in self?.chooseLook(Self.looks[index]) }
    gtk_widget_set_tooltip_text(lookChoice, "The look: auto follows the suggestion")
    GTK.onToggle(locationCheck) { [weak self] on in self?.chooseLocation(on) }
    GTK.onToggle(mirrorCheck) { [weak self] on in self?.mirrored = on }
    gtk_widget_set_tooltip_text(mirrorCheck, "Mirror the preview (the photo never is)")

    let buttons = GTK.box(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6,
      [startButton, nowButton, cancelButton, restartButton])
    let choices = GTK.box(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6,
      [countdownChoice, cameraChoice, sizeChoice, lookChoice, locationCheck, mirrorCheck])
    let bar = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [statusLabel, buttons, choices])
    gtk_widget_add_css_class(bar, "controls")
    return bar
  }

  private func heading(_ text: String) -> Widget {
    let label = GTK.label(text, classes: ["heading"])
    gtk_widget_set_halign(label, GTK_ALIGN_START)
    return label
  }

  private func buildPhotoPage() -> Widget {
    gtk_picture_set_can_shrink(OpaquePointer(photoPicture), 1)
    gtk_widget_set_hexpand(photoPicture, 1)
    gtk_widget_set_vexpand(photoPicture, 1)
    let details = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
    gtk_widget_add_css_class(details, "details")
    gtk_widget_set_size_request(details, 300, -1)
    for title in Self.detailRows {
      GTK.append(details, heading(title.capitalized))
      let value = GTK.label("", classes: ["value"])
      gtk_label_set_xalign(OpaquePointer(value), 0)
      gtk_label_set_wrap(OpaquePointer(value), 1)
      gtk_label_set_selectable(OpaquePointer(value), 1)
      gtk_widget_set_halign(value, GTK_ALIGN_START)
      GTK.append(details, value)
      photoDetails.append(value)
    }
    GTK.onClick(openButton) { [weak self] in self?.openFolder() }
    GTK.append(details, openButton)
    GTK.append(details, heading("Timeline"))
    GTK.append(details, timeline.widget)
    GTK.onClick(backButton) { [weak self] in self?.showPreview() }
    GTK.append(details, backButton)
    return GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, [photoPicture, details])
  }

  /// For the trace: a main-actor task started from GTK's callback runs on the GTK thread, and
  /// its sleep wakes on time, before anything else keeps the loop busy.
  private func probeMainActor(_ trace: Trace) {
    Task { @MainActor in
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
  private func rebuild() {
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
    gtk_picture_set_paintable(OpaquePointer(preview), nil)
    problem = nil
    render()
    let options = options
    let built = await Task.detached { () -> Result<(LiveCamera?, PhotoTimerServices), any Error> in
      do {
        let source = try await ProgramSetup.cameraSource(options)
        let live = source.map { LiveCamera($0) }
        let services = try ProgramSetup.makeServices(options, camera: live ?? source)
        return .success((live, services.mapErrors(CommandAdvice.advise)))
      } catch {
        return .failure(error)
      }
    }.value
    switch built {
    case .failure(let error):
      problem = "\(CommandAdvice.advise(error))"
      render()
    case .success(let (camera, services)):
      await showSizes()
      guard !closing else {
        await camera?.close()
        return
      }
      let model = PhotoTimerViewModel(countdownSeconds: options.seconds, services: services)
      self.camera = camera
      self.model = model
      observe(model)
      events = Task { [weak self] in
        for await event in model.events() { self?.handle(event, of: model) }
      }
      if let camera { feed = Task { [weak self] in await self?.runFeed(camera) } }
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
    await camera?.close()
    await feed?.value
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
      let room = previewRoom
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
          show(shown, in: preview)
          if let trace {
            trace.record("frame", opening.advanced(by: frame.timestamp).duration(to: .now))
            if !firstFrameTraced {
              firstFrameTraced = true
              trace.record("first-frame", Trace.monotonicNanoseconds)
            }
          }
          if previewRoom != room || self.mirrored != mirrored { break }
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

  /// The preview's size in device pixels (at least 64 × 48 before the window is laid out).
  private var previewRoom: PreviewSize {
    let scale = max(1, Int(gtk_widget_get_scale_factor(overlay)))
    let width = Int(gtk_widget_get_width(overlay)) * scale
    let height = Int(gtk_widget_get_height(overlay)) * scale
    return PreviewSize(width: max(64, width), height: max(48, height))
  }

  /// Hands `frame` to GTK as a texture of `picture`.
  private func show(_ frame: Frame, in picture: Widget) {
    let bytes = frame.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    let texture = gdk_memory_texture_new(
      Int32(frame.width), Int32(frame.height), GDK_MEMORY_R8G8B8, bytes, gsize(frame.bytesPerRow))
    gtk_picture_set_paintable(OpaquePointer(picture), texture)
    g_object_unref(raw(made(texture)))
    g_bytes_unref(bytes)
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
    switch event.kind {
    case .shutter:
      flashNow()
      sound.play()
    case .captured(let photo):
      showPhoto(photo)
    default: break
    }
  }

  /// Everything on screen from the model's state.
  private func render() {
    let status = model?.status ?? .idle
    let running = status.isRunning

    // The count over the preview.
    if case .counting(let remaining) = status, remaining > 0 {
      GTK.setText(countLabel, "\(remaining)")
      GTK.setVisible(countLabel, true)
      if countShown != remaining, let trace, let runStart, let model {
        let deadline = runStart.advanced(by: .seconds(model.countdownSeconds - remaining))
        if deadline <= .now { trace.record("tick", deadline.duration(to: .now)) }
      }
      countShown = remaining
    } else {
      GTK.setVisible(countLabel, false)
      countShown = nil
    }

    // NB: traced once the model exists: "status idle" means ready for space.
    if let trace, model != nil, statusTraced != status.description {
      statusTraced = status.description
      trace.record("status", status.description)
    }

    let shown =
      model?.presentation(problem: problem)
      ?? PhotoTimerPresentation(state: PhotoTimerState(), context: .init(cameraStarting: true))

    let content = WindowContent(shown)

    // The line under the picture.
    let line = content.status
    GTK.setText(statusLabel, line)
    // NB: a long message is cut at the window's edge; all of it shows on hover.
    gtk_widget_set_tooltip_text(statusLabel, line.count > 80 ? line : nil)
    if content.isError {
      gtk_widget_add_css_class(statusLabel, "error")
    } else {
      gtk_widget_remove_css_class(statusLabel, "error")
    }

    // The checklist.
    for item in content.rows {
      guard let row = rows[item.step] else { continue }
      GTK.setVisible(row.spinner, item.spinning)
      GTK.setVisible(row.mark, !item.spinning)
      if item.spinning {
        gtk_spinner_start(OpaquePointer(row.spinner))
      } else {
        gtk_spinner_stop(OpaquePointer(row.spinner))
      }
      GTK.setText(row.mark, item.mark)
      GTK.setText(row.text, item.text)
    }

    // The suggested look, live on the preview while the run lasts.
    if running, case .succeeded(.filter(let suggestion))? = model?.reports[.filter]?.outcome {
      if previewLook?.filter != suggestion.filter { previewLook = Look(suggestion.filter) }
    } else if !running {
      previewLook = nil
    }

    // The controls: what the presentation says can be done now.
    GTK.setSensitive(startButton, content.canStart)
    GTK.setSensitive(nowButton, content.canTakeNow)
    GTK.setSensitive(cancelButton, content.canCancel)
    GTK.setSensitive(restartButton, content.canRestart)
    for choice in [cameraChoice, sizeChoice, lookChoice, locationCheck, countdownChoice] {
      GTK.setSensitive(choice, !running)
    }
  }

  // MARK: - The user's intents

  private func start() {
    guard let model, problem == nil else { return }
    showPreview()
    runStart = .now
    model.startTimer()
  }

  /// Counts again from the top (a run in progress), or starts.
  private func restart() {
    guard let model, problem == nil else { return }
    guard model.isSessionRunning else { return start() }
    runStart = .now
    model.restart()
  }

  private func cancel() {
    model?.cancel()
  }

  private func pressed(key: UInt32, modifiers: GdkModifierType) -> Bool {
    let control = modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0
    let status = model?.status ?? .idle
    switch Int32(key) {
    case GDK_KEY_q where control, GDK_KEY_Q where control:
      close()
    case GDK_KEY_space:
      if case .counting = status { model?.takeNow() } else if !status.isRunning { start() }
    case GDK_KEY_Return, GDK_KEY_KP_Enter:
      if case .counting = status { model?.takeNow() } else if !status.isRunning { start() }
    case GDK_KEY_Escape:
      if status.isRunning { cancel() } else if showingPhoto { showPreview() } else { return false }
    case GDK_KEY_r where !control, GDK_KEY_R where !control:
      restart()
    default:
      return false
    }
    return true
  }

  private func chooseCountdown(_ seconds: Int) {
    guard seconds != options.seconds else { return }
    options.seconds = seconds
    settings.countdown = seconds
    saveSettings()
    // NB: a DSLR's live view is timed to stop before zero: its services know the count.
    if options.camera == .gphoto2 { rebuild() } else { model?.countdownSeconds = seconds }
  }

  private func chooseCamera(_ index: Int) {
    guard !replacingCameras else { return }
    if index == cameras.count { return askForImageFile() }
    if index == cameras.count + 1 { return askForStreamURL() }
    guard cameras.indices.contains(index), cameras[index] != options.camera else { return }
    options.camera = cameras[index]
    if options.mirror == nil { mirrored = options.camera.isWebcam }
    setCheck(mirrorCheck, mirrored)
    settings.camera = options.camera.argument
    if case .ffmpeg(_, let format) = options.camera { settings.ffmpegFormat = format }
    saveSettings()
    rebuild()
  }

  private func chooseSize(_ index: Int) {
    guard !replacingSizes, sizeRequests.indices.contains(index) else { return }
    let request = sizeRequests[index]
    guard request != options.resolution else { return }
    options.resolution = request
    settings.resolution = CommandOptions.resolutionArgument(request)
    saveSettings()
    rebuild()
  }

  /// The size menu for the camera in use: a V4L2 webcam's modes as its driver lists them
  /// (hidden for any other camera, or a webcam that cannot be read).
  private func showSizes() async {
    guard case .v4l2(let path) = options.camera else {
      GTK.setVisible(sizeChoice, false)
      return
    }
    let menu = await Task.detached { () -> [(title: String, request: ModeRequest)] in
      guard let device = try? V4L2Device.inspect(path) else { return [] }
      return ModeRequest.menu(for: device.modes)
    }.value
    guard !closing, case .v4l2(path) = options.camera else { return }
    sizeRequests = menu.map(\.request)
    if !menu.isEmpty {
      replacingSizes = true
      GTK.replaceItems(
        of: sizeChoice, with: menu.map(\.title),
        selected: sizeRequests.firstIndex(of: options.resolution) ?? 0)
      replacingSizes = false
    }
    GTK.setVisible(sizeChoice, !menu.isEmpty)
  }

  private func chooseLook(_ look: FilterChoice) {
    guard look != options.filter else { return }
    options.filter = look
    settings.look = look.argument
    saveSettings()
    rebuild()
  }

  private func chooseLocation(_ on: Bool) {
    let wanted: CommandOptions.LocationChoice = on ? (savedLocation ?? .gpsd(.standard)) : .off
    guard wanted != options.location else { return }
    if !on { savedLocation = options.location }
    options.location = wanted
    rebuild()
  }

  private var savedLocation: CommandOptions.LocationChoice?

  private func setCheck(_ check: Widget, _ on: Bool) {
    let button = gobject(raw(check), as: GtkCheckButton.self)
    if (gtk_check_button_get_active(button) != 0) != on {
      gtk_check_button_set_active(button, on ? 1 : 0)
    }
  }

  private func saveSettings() {
    let settings = settings
    let file = settingsFile
    Task.detached {
      do {
        try settings.save(to: file)
      } catch {
        FileHandle.standardError.write(
          Data("note: could not remember the settings in \(file.path): \(error)\n".utf8))
      }
    }
  }

  /// The cameras `doctor` would find: webcams, a DSLR, the scene presets; the one from the
  /// command line first.
  private func discoverCameras() async {
    let found = await Task.detached { () -> [CommandOptions.CameraChoice] in
      var found = VideoDevice.connected().map {
        CommandOptions.CameraChoice.v4l2($0.path)
      }
      if DetectedCamera.stillImageInterfacePresent() {
        let gphoto2 = GPhoto2Camera(
          executable: ProgramSetup.gphoto2.executable, launcher: ProgramSetup.gphoto2.launcher,
          store: nil, clock: ContinuousClock())
        if let detected = try? await gphoto2.detect(), !detected.isEmpty { found.append(.gphoto2) }
      }
      return found + ScenePreset.all.map { .scene($0) }
    }.value
    guard !closing else { return }
    var list = [options.camera]
    for choice in found where !list.contains(choice) { list.append(choice) }
    showCameras(list)
  }

  /// The camera list, with the two entries that ask for a camera of one's own.
  private func showCameras(_ list: [CommandOptions.CameraChoice]) {
    cameras = list
    // NB: replacing the items moves the selection on the way; those moves are not choices.
    replacingCameras = true
    GTK.replaceItems(
      of: cameraChoice, with: list.map(Self.name) + ["Image file…", "Stream URL…"],
      selected: list.firstIndex(of: options.camera) ?? 0)
    replacingCameras = false
  }

  private var replacingCameras = false

  /// Back to the camera in use in the list (after a dialog was cancelled).
  private func selectCurrentCamera() {
    replacingCameras = true
    gtk_drop_down_set_selected(
      OpaquePointer(cameraChoice), guint(cameras.firstIndex(of: options.camera) ?? 0))
    replacingCameras = false
  }

  /// Asks for an image file to use as the camera.
  private func askForImageFile() {
    let chooser = made(
      gtk_file_chooser_native_new(
        "Image file as the camera", gobject(raw(window), as: GtkWindow.self),
        GTK_FILE_CHOOSER_ACTION_OPEN, "_Use", "_Cancel"))
    let filter = made(gtk_file_filter_new())
    gtk_file_filter_set_name(filter, "JPEG and PNG images")
    for type in ["image/jpeg", "image/png"] { gtk_file_filter_add_mime_type(filter, type) }
    gtk_file_chooser_add_filter(chooser, filter)
    g_object_unref(raw(filter))
    Signal.response(raw(chooser)) { [weak self] response in
      guard let self else { return }
      var path: String?
      if response == GTK_RESPONSE_ACCEPT.rawValue,
        let file = gtk_file_chooser_get_file(chooser)
      {
        if let cPath = g_file_get_path(file) {
          path = String(cString: cPath)
          g_free(cPath)
        }
        g_object_unref(raw(file))
      }
      g_object_unref(raw(chooser))
      if let path { self.use(.file(path)) } else { self.selectCurrentCamera() }
    }
    gtk_native_dialog_show(gobject(raw(chooser), as: GtkNativeDialog.self))
  }

  /// Asks for a stream's address (RTSP, HTTP MJPEG, anything ffmpeg opens).
  private func askForStreamURL() {
    let dialog = made(gtk_window_new())
    let typed = gobject(raw(dialog), as: GtkWindow.self)
    gtk_window_set_title(typed, "Stream URL")
    gtk_window_set_transient_for(typed, gobject(raw(window), as: GtkWindow.self))
    gtk_window_set_modal(typed, 1)
    gtk_window_set_default_size(typed, 480, -1)
    let entry = made(gtk_entry_new())
    gtk_entry_set_placeholder_text(gobject(raw(entry), as: GtkEntry.self), "rtsp://camera/stream")
    gtk_widget_set_hexpand(entry, 1)
    let use = GTK.button("_Use")
    gtk_widget_add_css_class(use, "suggested-action")
    let cancel = GTK.button("_Cancel")
    let box = GTK.box(
      GTK_ORIENTATION_VERTICAL, spacing: 10,
      [
        GTK.label("The address ffmpeg opens: rtsp://…, http://…/video.mjpg, a file"), entry,
        GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 6, [cancel, use]),
      ])
    gtk_widget_add_css_class(box, "dialog")
    gtk_window_set_child(typed, box)
    var answered = false
    let answer: @MainActor (Bool) -> Void = { [weak self] accepted in
      guard !answered else { return }
      answered = true
      let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
        .trimmingCharacters(in: .whitespaces)
      gtk_window_destroy(typed)
      if accepted, !text.isEmpty {
        self?.use(.ffmpeg(text, format: nil))
      } else {
        self?.selectCurrentCamera()
      }
    }
    GTK.onClick(use) { answer(true) }
    GTK.onClick(cancel) { answer(false) }
    Signal.on(raw(entry), "activate") { answer(true) }
    Signal.handled(raw(dialog), "close-request") {
      answer(false)
      return true
    }
    gtk_window_present(typed)
  }

  /// Adds `camera` to the list (once) and switches to it.
  private func use(_ camera: CommandOptions.CameraChoice) {
    var list = cameras
    if !list.contains(camera) { list.append(camera) }
    showCameras(list)
    if let index = cameras.firstIndex(of: camera) {
      replacingCameras = true
      gtk_drop_down_set_selected(OpaquePointer(cameraChoice), guint(index))
      replacingCameras = false
      chooseCamera(index)
    }
  }

  // MARK: - The flash and the photo

  /// A short white flash over the preview: full at once, gone in a quarter second.
  private func flashNow() {
    gtk_widget_set_opacity(flash, 0.9)
    let length = Duration.milliseconds(240)
    FrameClock.animate(flash) { [flash] elapsed in
      let left = max(0, 1 - elapsed / length)
      gtk_widget_set_opacity(flash, 0.9 * left)
      return left > 0
    }
  }

  private func showPhoto(_ photo: CapturedPhoto) {
    photoShown = photo
    let summary = PhotoTimerPresentation(state: PhotoTimerState(status: .captured(photo))).summary
    for (label, value) in zip(Self.detailRows, photoDetails) {
      let row = summary.first { $0.label == label }
      GTK.setText(value, (row?.value ?? "") + (row?.note.map { "\n\($0)" } ?? ""))
    }
    timeline.show(photo)
    guard let file = photo.file else { return }
    Task {
      let frame = await Task.detached { () -> Frame? in
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return (try? JPEGCodec.decode([UInt8](data), path: file.path))?.downscaled(maxWidth: 1600)
      }.value
      guard let frame, photoShown == photo else { return }
      show(frame, in: photoPicture)
      showingPhoto = true
      GTK.setVisible(checklist, false)
      gtk_stack_set_visible_child_name(OpaquePointer(stack), "photo")
      if let trace { tracePhotoBounds(trace, width: frame.width, height: frame.height) }
    }
  }

  /// Where the photo is drawn in the window once laid out: the picture's box, with the
  /// photo fitted inside it keeping its proportions (as GtkPicture draws it).
  private func tracePhotoBounds(_ trace: Trace, width: Int, height: Int) {
    // NB: looked at on each of the window's frames until the page is mapped, laid out and
    // its crossfade over (at most 5 s): the frame clock runs then anyway.
    FrameClock.animate(window) { [weak self] elapsed in
      guard let self, self.showingPhoto, elapsed < .seconds(5) else { return false }
      var bounds = graphene_rect_t()
      guard gtk_widget_get_mapped(self.photoPicture) != 0,
        gtk_stack_get_transition_running(OpaquePointer(self.stack)) == 0,
        gtk_widget_compute_bounds(self.photoPicture, self.window, &bounds) != 0,
        bounds.size.width > 1
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
    guard showingPhoto else { return }
    showingPhoto = false
    photoShown = nil
    GTK.setVisible(checklist, true)
    gtk_stack_set_visible_child_name(OpaquePointer(stack), "preview")
  }

  private func openFolder() {
    guard let folder = photoShown?.file?.deletingLastPathComponent() else { return }
    // NB: GIO launches the handler asynchronously; the window does not wait for it.
    g_app_info_launch_default_for_uri_async(folder.absoluteString, nil, nil, nil, nil)
  }

  // MARK: - Closing

  /// Cancels the run, closes the camera, then the window: nothing is left running.
  func close(status: Int32 = 0) {
    guard !closing else { return }
    closing = true
    Self.exitStatus = status
    GTK.setText(statusLabel, "Closing…")
    Task {
      await rebuilding?.value
      await tearDown()
      trace?.flush()
      closed = true
      gtk_window_destroy(gobject(raw(window), as: GtkWindow.self))
    }
  }

  // MARK: - Names

  static func name(_ camera: CommandOptions.CameraChoice) -> String {
    switch camera {
    case .simulated: "simulation"
    case .scene(let preset): "Scene: \(preset.name)"
    case .file(let path): "File: \((path as NSString).lastPathComponent)"
    case .ffmpeg(let input, let format):
      format == "v4l2" ? "Webcam \(input)" : "Stream \(input)"
    case .v4l2(let path): "Webcam \(path)"
    case .pipewire(let node): "PipeWire camera \(node ?? "(default)")"
    case .gphoto2: "DSLR (gphoto2)"
    case .auto: "Automatic"
    }
  }

  static func name(_ look: FilterChoice) -> String {
    switch look {
    case .auto: "Look: auto"
    case .none: "Look: none"
    case .fixed(let filter): "Look: \(filter)"
    }
  }

  private static let css = """
    .preview { background: black; }
    .count {
      font-size: 160px; font-weight: 800; color: white;
      /* NB: no blur: a blurred shadow is redrawn over every new frame of the preview, which
         doubled the window's CPU and delayed the ticks behind it. */
      text-shadow: 3px 3px rgba(0, 0, 0, 0.75);
      background: rgba(0, 0, 0, 0.3); border-radius: 48px; padding: 0 56px;
    }
    .checklist {
      margin: 16px; padding: 10px 14px; border-radius: 10px;
      background: rgba(0, 0, 0, 0.55); color: white;
    }
    .checklist .step { font-weight: bold; }
    .checklist .mark { min-width: 16px; }
    .flash { background: white; }
    .controls { padding: 10px; }
    .status.error { color: #c01c28; font-weight: bold; }
    .details { padding: 16px; }
    .details .heading { font-weight: bold; margin-top: 6px; }
    .dialog { padding: 16px; }
    """
}

extension Duration {
  /// Seconds with one decimal, as the checklist shows a step's time.
  fileprivate var formattedSeconds: String {
    let (seconds, attoseconds) = components
    let tenths = (Double(seconds) + Double(attoseconds) / 1e18) * 10
    return String(format: "%.1f", tenths.rounded() / 10)
  }
}
