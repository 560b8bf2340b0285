import CGTK
import PhotoTimerRemote

/// The remote's switch in the window: a "Remote" button (Alt+R) whose popover turns the
/// phone's remote on and off and shows its link with the QR code to scan. The popover closes
/// when a count starts, wherever it was started: its number must not be hidden.
@MainActor
final class RemotePanel {
  /// The button that opens the popover.
  let widget = made(gtk_menu_button_new())
  private let check: Widget
  private let picture = made(gtk_picture_new())
  private let label = GTK.label("Off: turn it on, then scan the code with a phone")
  private var reporting = false
  /// Called with `true` when the popover opens and `false` when it closes.
  var popoverShown: @MainActor (Bool) -> Void = { _ in }

  /// Builds the panel; `toggle` is called when the user turns the remote on or off.
  init(serving: Bool, toggle: @escaping @MainActor (Bool) -> Void) {
    check = GTK.check("_Serve the remote on the network", active: serving)
    gtk_menu_button_set_label(OpaquePointer(widget), "_Remote")
    gtk_menu_button_set_use_underline(OpaquePointer(widget), 1)
    gtk_widget_set_tooltip_text(
      widget, "The phone as remote: a page with the picture and the shutter")
    gtk_widget_set_focus_on_click(widget, 0)
    gtk_picture_set_can_shrink(OpaquePointer(picture), 0)
    gtk_widget_set_size_request(picture, 232, 232)
    GTK.setVisible(picture, false)
    gtk_label_set_selectable(OpaquePointer(label), 1)
    gtk_label_set_wrap(OpaquePointer(label), 1)
    gtk_label_set_max_width_chars(OpaquePointer(label), 40)
    let popover = made(gtk_popover_new())
    let box = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 8, [check, picture, label])
    gtk_widget_add_css_class(box, "dialog")
    gtk_popover_set_child(gobject(raw(popover), as: GtkPopover.self), box)
    gtk_menu_button_set_popover(OpaquePointer(widget), popover)
    Signal.notify(raw(popover), "visible") { [weak self] in
      self?.popoverShown(gtk_widget_get_visible(popover) != 0)
    }
    GTK.onToggle(check) { [weak self] on in
      guard let self, !self.reporting else { return }
      toggle(on)
    }
  }

  /// Closes the popover if it is open (a count started: its number must not be hidden).
  func closePopover() {
    gtk_menu_button_popdown(OpaquePointer(widget))
  }

  /// Shows the remote serving at `links`, the first as a QR code.
  func show(links: [String]) {
    setChecked(true)
    GTK.setText(label, links.joined(separator: "\n") + "\nOpen it on a phone on the same network.")
    if let first = links.first, let code = QRCode(encoding: first) {
      let (width, height, pixels) = code.rgb(scale: 6)
      let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
      let texture = gdk_memory_texture_new(
        Int32(width), Int32(height), GDK_MEMORY_R8G8B8, bytes, gsize(width * 3))
      gtk_picture_set_paintable(OpaquePointer(picture), texture)
      g_object_unref(raw(made(texture)))
      g_bytes_unref(bytes)
      GTK.setVisible(picture, true)
    }
    gtk_widget_add_css_class(widget, "suggested-action")
  }

  /// Shows the remote off, with why when it could not start.
  func showOff(problem: String? = nil) {
    setChecked(false)
    GTK.setVisible(picture, false)
    GTK.setText(label, problem ?? "Off: turn it on, then scan the code with a phone")
    gtk_widget_remove_css_class(widget, "suggested-action")
  }

  private func setChecked(_ on: Bool) {
    reporting = true
    gtk_check_button_set_active(gobject(raw(check), as: GtkCheckButton.self), on ? 1 : 0)
    reporting = false
  }
}
