import CGTK
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerSetup

/// The bar under the picture: the status line, the buttons of the intents (bound to the
/// window's actions), and the choices (countdown, camera, webcam mode, look, location,
/// mirror), each reported to the controller through ``Choices``.
@MainActor
final class ControlBar {
  /// What the user chose in the bar.
  struct Choices {
    var countdown: @MainActor (Int) -> Void
    var size: @MainActor (ModeRequest) -> Void
    var look: @MainActor (FilterChoice) -> Void
    var location: @MainActor (Bool) -> Void
    var mirror: @MainActor (Bool) -> Void
    /// The switch beside Start: the count starts by itself once the group is in.
    var autoStart: @MainActor (Bool) -> Void
  }

  /// The bar's widget.
  private(set) var widget: Widget
  private let statusLabel = GTK.label("Starting the camera…", classes: ["status"])
  private let countdownChoice: Widget
  private let sizeChoice = GTK.dropDown(["Best mode"], selected: 0)
  private var sizeRequests: [ModeRequest] = []
  private var replacingSizes = false
  private let lookChoice: Widget
  private let locationCheck: Widget
  private let mirrorCheck: Widget
  private let autoStartCheck: Widget
  /// Print and Resume (`--print`): shown while printing, Resume only when the printer stopped.
  private let printButton: Widget
  private let resumeButton: Widget
  private let cameraMenu: Widget
  /// The row of choices (countdown, camera, look…), hidden on a booth's full screen.
  private var choicesRow: Widget?

  private static let looks: [FilterChoice] = [.auto, .none] + PhotoFilter.all.map { .fixed($0) }

  /// Builds the bar for `options`, with `cameraMenu` among the choices.
  init(
    options: CommandOptions.RunOptions, mirrored: Bool, cameraMenu: Widget, remote: Widget,
    choices: Choices, booth: Bool = false
  ) {
    self.cameraMenu = cameraMenu
    var seconds = PhotoTimerPresentation.countdownChoices
    if !seconds.contains(options.seconds) { seconds.append(options.seconds) }
    seconds.sort()
    countdownChoice = GTK.dropDown(
      seconds.map(PhotoTimerPresentation.countdownLabel),
      selected: seconds.firstIndex(of: options.seconds) ?? 0)
    lookChoice = GTK.dropDown(
      Self.looks.map(Self.name), selected: Self.looks.firstIndex(of: options.filter) ?? 0)
    locationCheck = GTK.check("_Location", active: options.location != .off)
    mirrorCheck = GTK.check("_Mirror", active: mirrored)
    autoStartCheck = GTK.check("Start _when ready", active: false)

    // NB: titles from the one table every front end uses; the tooltips name the window's keys.
    let title = { (action: PhotoTimerPresentation.Action) in "_" + action.title }
    let start = GTK.button(title(.start), tooltip: "Start the count (space)")
    gtk_widget_add_css_class(start, "suggested-action")
    let now = GTK.button(title(.takeNow), tooltip: "Take the photo now (space or Enter)")
    let cancel = GTK.button(title(.cancel), tooltip: "Cancel the run (Esc)")
    let restart = GTK.button(title(.restart), tooltip: "Count again from the start (r)")
    // A booth's shot under review: Keep and Retake (insensitive but for then).
    let keep = GTK.button(title(.keep), tooltip: "Keep this shot (space)")
    let retake = GTK.button(title(.retake), tooltip: "Take this shot again (r)")
    gtk_widget_add_css_class(keep, "suggested-action")
    GTK.setVisible(keep, booth)
    GTK.setVisible(retake, booth)
    printButton = GTK.button("_Print", tooltip: "Print the last photo or collage (p)")
    resumeButton = GTK.button("Res_ume", tooltip: "Let the stopped printer go on (u)")
    GTK.setVisible(printButton, false)
    GTK.setVisible(resumeButton, false)
    WindowActions.bind(printButton, to: .intent(.print))
    WindowActions.bind(resumeButton, to: .intent(.resume))
    for (button, action) in [
      (start, WindowActions.Name.start), (now, .takeNow), (cancel, .cancel), (restart, .restart),
      (keep, .intent(.keep)), (retake, .intent(.retake)),
    ] {
      WindowActions.bind(button, to: action)
    }

    GTK.onSelect(countdownChoice) { index in choices.countdown(seconds[index]) }
    gtk_widget_set_tooltip_text(countdownChoice, "The countdown")
    gtk_widget_set_tooltip_text(sizeChoice, "The webcam's mode: size, format and frame rate")
    GTK.setVisible(sizeChoice, false)
    GTK.onSelect(lookChoice) { index in choices.look(Self.looks[index]) }
    gtk_widget_set_tooltip_text(lookChoice, "The look: auto follows the suggestion")
    GTK.onToggle(locationCheck) { on in choices.location(on) }
    GTK.onToggle(mirrorCheck) { on in choices.mirror(on) }
    gtk_widget_set_tooltip_text(mirrorCheck, "Mirror the preview (the photo never is)")
    GTK.onToggle(autoStartCheck) { on in choices.autoStart(on) }
    gtk_widget_set_tooltip_text(
      autoStartCheck, "Start the count by itself once the group is in and still (w)")
    GTK.setVisible(autoStartCheck, false)

    gtk_label_set_xalign(OpaquePointer(statusLabel), 0)
    gtk_label_set_ellipsize(OpaquePointer(statusLabel), PANGO_ELLIPSIZE_END)
    gtk_widget_set_hexpand(statusLabel, 1)
    let buttons = GTK.box(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6,
      [start, now, keep, retake, cancel, restart, printButton, resumeButton, autoStartCheck])
    let row = GTK.box(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6,
      [countdownChoice, cameraMenu, sizeChoice, lookChoice, locationCheck, mirrorCheck, remote])
    choicesRow = row
    widget = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 6, [statusLabel, buttons, row])
    gtk_widget_add_css_class(widget, "controls")
    GTK.onSelect(sizeChoice) { [weak self] index in
      guard let self, !self.replacingSizes, self.sizeRequests.indices.contains(index) else {
        return
      }
      choices.size(self.sizeRequests[index])
    }
  }

  /// Shows or hides the row of choices: a booth's full screen shows the picture, the status
  /// and the buttons only.
  func showChoices(_ shown: Bool) {
    choicesRow.map { GTK.setVisible($0, shown) }
  }

  /// The status line and which choices can change now (none while a run is under way).
  func render(_ content: WindowContent, running: Bool) {
    showStatus(content.status, isError: content.isError)
    for choice in [cameraMenu, sizeChoice, lookChoice, locationCheck, countdownChoice] {
      GTK.setSensitive(choice, !running)
    }
    GTK.setVisible(autoStartCheck, content.autoStart != nil)
    GTK.setVisible(printButton, content.printing != nil)
    GTK.setVisible(resumeButton, content.printing?.canResume == true)
    let button = gobject(raw(autoStartCheck), as: GtkCheckButton.self)
    let on = content.autoStart ?? false
    // NB: set from the presentation; the toggle it causes asks for what is already so.
    if (gtk_check_button_get_active(button) != 0) != on {
      gtk_check_button_set_active(button, on ? 1 : 0)
    }
  }

  /// Shows `line` as the status (in red when it is an error).
  func showStatus(_ line: String, isError: Bool = false) {
    GTK.setText(statusLabel, line)
    // NB: a long message is cut at the window's edge; all of it shows on hover.
    gtk_widget_set_tooltip_text(statusLabel, line.count > 80 ? line : nil)
    if isError {
      gtk_widget_add_css_class(statusLabel, "error")
    } else {
      gtk_widget_remove_css_class(statusLabel, "error")
    }
  }

  /// The size menu for `camera`: the sizes its kind offers (a V4L2 webcam's modes as its
  /// driver lists them, read off the main thread), hidden when it offers none; left as it is
  /// when the window no longer `wants` them once they are read.
  func showSizes(
    of camera: CameraChoice, current: ModeRequest, wants: @MainActor () -> Bool
  ) async {
    let menu = await Task.detached { await camera.driver.sizes(camera) }.value
    guard wants() else { return }
    showSizes(menu, current: current)
  }

  /// The webcam's modes in the size menu, `current` selected; an empty menu hides it.
  func showSizes(_ menu: [(title: String, request: ModeRequest)], current: ModeRequest) {
    sizeRequests = menu.map(\.request)
    if !menu.isEmpty {
      replacingSizes = true
      GTK.replaceItems(
        of: sizeChoice, with: menu.map(\.title),
        selected: sizeRequests.firstIndex(of: current) ?? 0)
      replacingSizes = false
    }
    GTK.setVisible(sizeChoice, !menu.isEmpty)
  }

  /// Ticks or unticks the mirror box (a new camera's own default).
  func setMirror(_ on: Bool) {
    let button = gobject(raw(mirrorCheck), as: GtkCheckButton.self)
    if (gtk_check_button_get_active(button) != 0) != on {
      gtk_check_button_set_active(button, on ? 1 : 0)
    }
  }

  /// A look's name in the menu.
  static func name(_ look: FilterChoice) -> String {
    switch look {
    case .auto: "Look: auto"
    case .none: "Look: none"
    case .fixed(let filter): "Look: \(filter)"
    }
  }
}
