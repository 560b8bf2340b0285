import CGTK
import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The camera menu: the cameras found, then "Image file…" and "Stream URL…", which ask for a
/// camera of one's own in a dialog.
@MainActor
final class CameraMenu {
  /// The menu's widget, a drop-down.
  let widget: Widget
  /// The camera in use, selected in the menu.
  var current: CameraChoice
  private(set) var cameras: [CameraChoice]
  private let window: Widget
  private let choose: @MainActor (CameraChoice) -> Void
  /// The menu is being changed by the program: selection changes on the way are no choice.
  private var replacing = false

  /// Makes the menu with `current` in it; `choose` is called with each camera the user picks.
  init(
    current: CameraChoice, window: Widget,
    choose: @escaping @MainActor (CameraChoice) -> Void
  ) {
    self.current = current
    self.window = window
    self.choose = choose
    cameras = [current]
    widget = GTK.dropDown([Self.name(current), "Image file…", "Stream URL…"], selected: 0)
    gtk_widget_set_tooltip_text(widget, "The camera")
    GTK.onSelect(widget) { [weak self] index in self?.selected(index) }
  }

  private func selected(_ index: Int) {
    guard !replacing else { return }
    if index == cameras.count { return askForImageFile() }
    if index == cameras.count + 1 { return askForStreamURL() }
    guard cameras.indices.contains(index), cameras[index] != current else { return }
    current = cameras[index]
    choose(current)
  }

  /// Lists the cameras `doctor` would find (webcams, a DSLR, the scene presets), `first`
  /// first, unless the window no longer `wants` them once they are found.
  func discover(first: CameraChoice, wants: @MainActor () -> Bool) async {
    let found = await Task.detached { await CameraKinds.discoverAll() }.value
    guard wants() else { return }
    var list = [first]
    for choice in found where !list.contains(choice) { list.append(choice) }
    show(list)
  }

  /// Lists `list`, with the two entries that ask for a camera of one's own.
  func show(_ list: [CameraChoice]) {
    cameras = list
    replacing = true
    GTK.replaceItems(
      of: widget, with: list.map(Self.name) + ["Image file…", "Stream URL…"],
      selected: list.firstIndex(of: current) ?? 0)
    replacing = false
  }

  /// Selects the camera in use again (after a dialog was cancelled).
  private func selectCurrent() {
    replacing = true
    gtk_drop_down_set_selected(OpaquePointer(widget), guint(cameras.firstIndex(of: current) ?? 0))
    replacing = false
  }

  /// Adds `camera` to the list (once) and switches to it.
  private func use(_ camera: CameraChoice) {
    var list = cameras
    if !list.contains(camera) { list.append(camera) }
    show(list)
    guard let index = cameras.firstIndex(of: camera) else { return }
    replacing = true
    gtk_drop_down_set_selected(OpaquePointer(widget), guint(index))
    replacing = false
    selected(index)
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
      if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser) {
        if let cPath = g_file_get_path(file) {
          path = String(cString: cPath)
          g_free(cPath)
        }
        g_object_unref(raw(file))
      }
      g_object_unref(raw(chooser))
      if let path { self.use(.file(path)) } else { self.selectCurrent() }
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
        self?.selectCurrent()
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

  /// A camera's name in the menu, as its kind says it.
  static func name(_ camera: CameraChoice) -> String { camera.driver.menuName(camera) }
}
