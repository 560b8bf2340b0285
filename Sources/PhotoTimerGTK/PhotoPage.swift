import CGTK
import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG

/// The page after the shutter: the photo, its settings, place, look and file, the timeline,
/// and the buttons to open its folder and go back to the preview.
@MainActor
final class PhotoPage {
  /// The page's widget.
  private(set) var widget: Widget
  /// The photo's picture.
  let picture = made(gtk_picture_new())
  /// The photo shown, if any.
  private(set) var photo: CapturedPhoto?
  private var details: [Widget] = []
  private var headings: [Widget] = []
  /// The details beside the picture (hidden beside a booth's collage).
  private var side: Widget?
  private let timeline = TimelineChart()
  /// The words under a booth's collage card, for the guests.
  private let caption = GTK.label("", classes: ["card-caption"])

  /// The summary rows the page shows, in order; one the photo lacks (people, when the step
  /// was off or late) is hidden.
  private static let detailRows = ["settings", "place", "look", "people", "file"]

  init() {
    gtk_picture_set_can_shrink(OpaquePointer(picture), 1)
    gtk_widget_set_hexpand(picture, 1)
    gtk_widget_set_vexpand(picture, 1)
    let box = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 6)
    gtk_widget_add_css_class(box, "details")
    gtk_widget_set_size_request(box, 300, -1)
    var values: [Widget] = []
    var titles: [Widget] = []
    for title in Self.detailRows {
      let heading = Self.heading(title.capitalized)
      titles.append(heading)
      GTK.append(box, heading)
      let value = GTK.label("", classes: ["value"])
      gtk_label_set_xalign(OpaquePointer(value), 0)
      gtk_label_set_wrap(OpaquePointer(value), 1)
      gtk_label_set_selectable(OpaquePointer(value), 1)
      gtk_widget_set_halign(value, GTK_ALIGN_START)
      GTK.append(box, value)
      values.append(value)
    }
    let open = GTK.button("_Open folder", tooltip: "Open the photo's folder")
    WindowActions.bind(open, to: .openFolder)
    GTK.append(box, open)
    GTK.append(box, Self.heading("Timeline"))
    GTK.append(box, timeline.widget)
    let back = GTK.button("_Back to the preview", tooltip: "Frame the next shot (Esc)")
    WindowActions.bind(back, to: .back)
    GTK.append(box, back)
    details = values
    headings = titles
    side = box
    GTK.setVisible(caption, false)
    let column = GTK.box(GTK_ORIENTATION_VERTICAL, spacing: 0, [picture, caption])
    gtk_widget_add_css_class(column, "preview")
    widget = GTK.box(GTK_ORIENTATION_HORIZONTAL, spacing: 0, [column, box])
  }

  private static func heading(_ text: String) -> Widget {
    let label = GTK.label(text, classes: ["heading"])
    gtk_widget_set_halign(label, GTK_ALIGN_START)
    return label
  }

  /// Shows `photo`'s summary and timeline (its picture comes with ``show(_:)``).
  func show(_ photo: CapturedPhoto) {
    self.photo = photo
    side.map { GTK.setVisible($0, true) }
    GTK.setVisible(caption, false)
    let summary = PhotoTimerPresentation(state: PhotoTimerState(status: .captured(photo))).summary
    for (index, label) in Self.detailRows.enumerated() {
      let row = summary.first { $0.label == label }
      GTK.setText(details[index], (row?.value ?? "") + (row?.note.map { "\n\($0)" } ?? ""))
      gtk_widget_set_visible(headings[index], row == nil ? 0 : 1)
      gtk_widget_set_visible(details[index], row == nil ? 0 : 1)
    }
    timeline.show(photo)
  }

  /// Shows the photo's decoded picture.
  func show(_ frame: Frame) {
    GTK.show(frame, in: picture)
  }

  /// Shows a booth's collage card (the collage with the guests' QR code), the whole page
  /// its: no details beside it; `caption` under it when there is a code to scan.
  func showCollage(_ card: Frame, caption text: String?) {
    photo = nil
    side.map { GTK.setVisible($0, false) }
    GTK.show(card, in: picture)
    GTK.setText(caption, text ?? "")
    GTK.setVisible(caption, text != nil)
  }

  /// Forgets the photo.
  func clear() {
    photo = nil
    GTK.setVisible(caption, false)
  }

  /// `photo`'s picture, decoded from its file off the main thread and scaled to fit a screen,
  /// or `nil` when it has no file or the file cannot be read.
  static func picture(of photo: CapturedPhoto) async -> Frame? {
    guard let file = photo.file else { return nil }
    return await Task.detached { () -> Frame? in
      guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
      return (try? JPEGCodec.decode([UInt8](data), path: file.path))?.downscaled(maxWidth: 1600)
    }.value
  }

  /// Opens the photo's folder in the desktop's file manager.
  func openFolder() {
    guard let folder = photo?.file?.deletingLastPathComponent() else { return }
    // NB: GIO launches the handler asynchronously; the window does not wait for it.
    g_app_info_launch_default_for_uri_async(folder.absoluteString, nil, nil, nil, nil)
  }
}
