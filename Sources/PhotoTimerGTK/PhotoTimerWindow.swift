import CGTK
import Foundation
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The window, for layout only: the picture (``PreviewArea``, with the ``PhotoPage`` behind
/// it) over the ``ControlBar``, its actions (``WindowActions``), and the controller that
/// fills them (``WindowController``).
///
/// ```
/// ┌ window ───────────────────────────────────┐
/// │ PreviewArea: preview │ PhotoPage           │
/// │   count plate, checklist, flash            │
/// ├────────────────────────────────────────────┤
/// │ ControlBar: status · buttons · choices     │
/// └────────────────────────────────────────────┘
/// ```
@MainActor
final class PhotoTimerWindow {
  /// How the program ends: 0 when the window was closed, 130 or 143 for a signal.
  static var exitStatus: Int32 = 0
  /// The window of this process, once the application is active.
  static var current: PhotoTimerWindow?

  private let window: Widget
  private let options: CommandOptions.RunOptions
  private let settings: WindowSettings
  private let settingsFile: URL
  private let trace: Trace?
  private var controller: WindowController?
  /// The booth (`--booth`), handed to the controller.
  private let booth: BoothRunner?
  /// Printing (`--print`), handed to the controller.
  private let printer: PrintRunner?
  /// Hides a still cursor on a full screen.
  private var cursorTimer: Task<Void, Never>?
  private var closing: Task<Void, Never>?
  private var closed = false

  init(
    application: UnsafeMutablePointer<GtkApplication>, options: CommandOptions.RunOptions,
    settings: WindowSettings, settingsFile: URL, trace: Trace?, booth: BoothRunner? = nil,
    printer: PrintRunner? = nil
  ) {
    self.booth = booth
    self.printer = printer
    self.options = options
    self.settings = settings
    self.settingsFile = settingsFile
    self.trace = trace
    window = made(gtk_application_window_new(application))
  }

  /// The cursor hidden once the pointer has been still for ``cursorStill`` (a booth's
  /// screen: a guest sees the picture, not an arrow), shown again when it moves.
  private func hidesStillCursor() {
    let motion = made(gtk_event_controller_motion_new())
    // NB: "motion" passes two doubles (x, y) before the data pointer; on x86-64 and arm64 they
    // travel in floating-point registers, so a handler of (instance, data) reads the data.
    Signal.on(raw(motion), "motion") { [weak self] in self?.pointerMoved() }
    gtk_widget_add_controller(window, motion)
    pointerMoved()
  }

  private func pointerMoved() {
    gtk_widget_set_cursor_from_name(window, nil)
    cursorTimer?.cancel()
    cursorTimer = Task { [weak self] in
      guard (try? await Task.sleep(for: Self.cursorStill)) != nil, let self else { return }
      gtk_widget_set_cursor_from_name(self.window, "none")
    }
  }

  /// How long the pointer stays still before a full screen hides it.
  static let cursorStill = Duration.seconds(3)

  /// Builds the window, shows it and starts the camera.
  func present() {
    GTK.loadCSS(Self.css)
    let typedWindow = gobject(raw(window), as: GtkWindow.self)
    gtk_window_set_title(typedWindow, "phototimer")
    gtk_window_set_default_size(typedWindow, 1024, 720)

    let actions = WindowActions(window: window) { [weak self] name in
      if name == .quit { self?.close() } else { self?.controller?.perform(name) }
    }
    let cameras = CameraMenu(current: options.camera, window: window) { [weak self] camera in
      self?.controller?.choices.chooseCamera(camera)
    }
    let photo = PhotoPage()
    let preview = PreviewArea(photoPage: photo.widget)
    let forward = ControlBar.Choices(
      countdown: { [weak self] in self?.controller?.choices.bar.countdown($0) },
      size: { [weak self] in self?.controller?.choices.bar.size($0) },
      look: { [weak self] in self?.controller?.choices.bar.look($0) },
      location: { [weak self] in self?.controller?.choices.bar.location($0) },
      mirror: { [weak self] in self?.controller?.choices.bar.mirror($0) },
      autoStart: { [weak self] in self?.controller?.choices.bar.autoStart($0) })
    let remote = RemotePanel(serving: options.remote != nil) { [weak self] on in
      guard let controller = self?.controller else { return }
      controller.chores.start { await controller.setRemote(on) }
    }
    let controls = ControlBar(
      options: options, mirrored: options.mirror ?? options.camera.driver.mirrored(options.camera),
      cameraMenu: cameras.widget, remote: remote.widget, choices: forward, booth: booth != nil)
    if options.fullscreen {
      // NB: the picture edge to edge, the bar over its foot: a camera's frame the screen's
      // size is drawn as it comes, never scaled (ffplay's cost, BENCHMARKS.md).
      gtk_window_set_child(typedWindow, preview.widget)
      gtk_widget_set_valign(controls.widget, GTK_ALIGN_END)
      gtk_widget_add_css_class(controls.widget, "over-picture")
      preview.addOverlay(controls.widget)
    } else {
      gtk_window_set_child(
        typedWindow,
        GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [preview.widget, controls.widget]))
    }
    if options.fullscreen {
      controls.showChoices(false)
      // NB: the size of the first monitor as well: without a window manager (a kiosk's bare X,
      // Xvfb) nobody honours the full-screen request.
      if let display = gdk_display_get_default(),
        let monitor = g_list_model_get_item(gdk_display_get_monitors(display), 0)
      {
        var area = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(monitor), &area)
        gtk_window_set_default_size(typedWindow, area.width, area.height)
        g_object_unref(monitor)
      }
      gtk_window_fullscreen(typedWindow)
      hidesStillCursor()
    }

    Signal.handled(raw(window), "close-request") { [weak self] in
      guard let self, !closed else { return false }
      // NB: a booth that fills the screen is left only with a confirmation.
      if let booth = self.controller?.screen.booth, booth.kiosk, closing == nil {
        booth.confirmLeaving()
      } else {
        close()
      }
      return true
    }
    let controller = WindowController(
      views: .init(
        window: window, preview: preview, controls: controls, cameras: cameras, photo: photo,
        actions: actions, remote: remote),
      options: options, settings: settings, store: SettingsStore(file: settingsFile), trace: trace,
      booth: booth, printer: printer, leave: { [weak self] in self?.close() })
    self.controller = controller
    gtk_window_present(typedWindow)
    controller.begin()
  }

  /// Cancels the run, closes the camera, then the window: nothing is left running.
  func close(status: Int32 = 0) {
    guard closing == nil else { return }
    Self.exitStatus = status
    cursorTimer?.cancel()
    closing = Task {
      await controller?.close()
      closed = true
      gtk_window_destroy(gobject(raw(window), as: GtkWindow.self))
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
    .card-caption {
      font-size: 28px; font-weight: bold; color: white; background: rgb(24, 24, 24);
      padding: 12px;
    }
    .controls.over-picture { background: rgba(0, 0, 0, 0.55); color: white; }
    .status.error { color: #c01c28; font-weight: bold; }
    .details { padding: 16px; }
    .details .heading { font-weight: bold; margin-top: 6px; }
    .dialog { padding: 16px; }
    .big-start {
      font-size: 34px; font-weight: 800; padding: 16px 44px; border-radius: 40px;
      color: white; background: rgba(192, 28, 40, 0.85); box-shadow: none;
    }
    .confirm {
      padding: 32px 48px; border-radius: 16px; background: rgba(0, 0, 0, 0.8); color: white;
      font-size: 20px;
    }
    .confirm .heading { font-size: 32px; font-weight: bold; }
    """
}
