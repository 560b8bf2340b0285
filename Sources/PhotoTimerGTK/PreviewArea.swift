import CGTK
import PhotoTimer
import PhotoTimerImaging

/// The picture: the live preview (or, after the shutter, the photo page), with the count
/// plate, the checklist and the flash over it.
@MainActor
final class PreviewArea {
  /// The area's widget: an overlay over a stack of the preview and the photo page.
  let widget = made(gtk_overlay_new())
  private let stack = made(gtk_stack_new())
  private let picture = made(gtk_picture_new())
  private let countLabel = GTK.label("", classes: ["count"])
  private let checklist = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 4)
  private let flashPlate = GTK.box(GTK_ORIENTATION_HORIZONTAL)
  private var rows: [PreparationStep: (spinner: Widget, mark: Widget, text: Widget)] = [:]

  /// Builds the area, with `photoPage` as the stack's second page.
  init(photoPage: Widget) {
    gtk_picture_set_can_shrink(OpaquePointer(picture), 1)
    gtk_widget_set_hexpand(picture, 1)
    gtk_widget_set_vexpand(picture, 1)
    gtk_widget_add_css_class(picture, "preview")

    let typedStack = OpaquePointer(stack)
    gtk_stack_set_transition_type(typedStack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
    gtk_stack_set_transition_duration(typedStack, 150)
    gtk_stack_add_named(typedStack, picture, "preview")
    gtk_stack_add_named(typedStack, photoPage, "photo")

    let overlay = OpaquePointer(widget)
    gtk_overlay_set_child(overlay, stack)
    gtk_widget_set_hexpand(widget, 1)
    gtk_widget_set_vexpand(widget, 1)

    gtk_widget_set_halign(countLabel, GTK_ALIGN_CENTER)
    gtk_widget_set_valign(countLabel, GTK_ALIGN_CENTER)
    gtk_widget_set_can_target(countLabel, 0)
    gtk_overlay_add_overlay(overlay, countLabel)

    buildChecklist()
    gtk_widget_set_halign(checklist, GTK_ALIGN_START)
    gtk_widget_set_valign(checklist, GTK_ALIGN_END)
    gtk_overlay_add_overlay(overlay, checklist)

    gtk_widget_add_css_class(flashPlate, "flash")
    gtk_widget_set_can_target(flashPlate, 0)
    gtk_widget_set_opacity(flashPlate, 0)
    gtk_overlay_add_overlay(overlay, flashPlate)
  }

  /// Lays `child` over the picture (a booth's Start, its confirmation).
  func addOverlay(_ child: Widget) {
    gtk_overlay_add_overlay(OpaquePointer(widget), child)
  }

  private func buildChecklist() {
    gtk_widget_add_css_class(checklist, "checklist")
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
      GTK.append(
        checklist, GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 8, [spinner, mark, name, text]))
      rows[step] = (spinner, mark, text)
    }
  }

  /// The count plate and the checklist for `content`.
  func render(_ content: WindowContent) {
    if let count = content.count {
      GTK.setText(countLabel, count)
      GTK.setVisible(countLabel, true)
    } else {
      GTK.setVisible(countLabel, false)
    }
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
  }

  /// Shows `frame` as the preview.
  func show(_ frame: Frame) {
    GTK.show(frame, in: picture)
  }

  /// No picture: black until the next camera's first frame.
  func clear() {
    gtk_picture_set_paintable(OpaquePointer(picture), nil)
  }

  /// The preview's size in device pixels (at least 64 × 48 before the window is laid out).
  var room: PreviewSize {
    let scale = max(1, Int(gtk_widget_get_scale_factor(widget)))
    let width = Int(gtk_widget_get_width(widget)) * scale
    let height = Int(gtk_widget_get_height(widget)) * scale
    return PreviewSize(width: max(64, width), height: max(48, height))
  }

  /// Shows the photo page (`true`) or the preview with its checklist.
  func showPhotoPage(_ on: Bool) {
    photoPageShown = on
    GTK.setVisible(checklist, !on && !checklistHidden)
    gtk_stack_set_visible_child_name(OpaquePointer(stack), on ? "photo" : "preview")
  }

  /// Hides the checklist over the preview (a booth's screen between sessions: its big Start
  /// is there, and the last run's steps are nothing to a guest).
  var checklistHidden = false {
    didSet { GTK.setVisible(checklist, !photoPageShown && !checklistHidden) }
  }
  private var photoPageShown = false

  /// Whether the crossfade between the pages is running.
  var isChangingPage: Bool {
    gtk_stack_get_transition_running(OpaquePointer(stack)) != 0
  }

  /// A short white flash over the preview: full at once, gone in a quarter second, on the
  /// frame clock.
  func flash() {
    gtk_widget_set_opacity(flashPlate, 0.9)
    let length = Duration.milliseconds(240)
    FrameClock.animate(flashPlate) { [flashPlate] elapsed in
      let left = max(0, 1 - elapsed / length)
      gtk_widget_set_opacity(flashPlate, 0.9 * left)
      return left > 0
    }
  }
}

extension GTK {
  /// Hands `frame` to GTK as the texture of `picture`.
  static func show(_ frame: Frame, in picture: Widget) {
    let bytes = frame.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
    let texture = gdk_memory_texture_new(
      Int32(frame.width), Int32(frame.height), GDK_MEMORY_R8G8B8, bytes, gsize(frame.bytesPerRow))
    gtk_picture_set_paintable(OpaquePointer(picture), texture)
    g_object_unref(raw(made(texture)))
    g_bytes_unref(bytes)
  }
}
