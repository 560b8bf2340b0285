import CGTK
import PhotoTimer
import PhotoTimerConcurrency

/// The run's timeline after the photo: the count and each preparation as a bar from the
/// run's start, coloured by how the step ended, with the shutter marked.
@MainActor
final class TimelineChart {
  let widget: Widget
  private var bars: [(label: String, end: Double, color: (Double, Double, Double))] = []
  private var shutter: Double = 0

  init() {
    widget = gtk_drawing_area_new()
    gtk_drawing_area_set_content_height(gobject(raw(widget), as: GtkDrawingArea.self), 110)
    gtk_drawing_area_set_content_width(gobject(raw(widget), as: GtkDrawingArea.self), 280)
    typealias Draw =
      @convention(c) (
        UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?
      ) -> Void
    let draw: Draw = { _, cairo, width, height, data in
      guard let cairo, let data else { return }
      let chart = Unmanaged<TimelineChart>.fromOpaque(data).takeUnretainedValue()
      MainActor.assumeIsolated { chart.draw(cairo, width: Double(width), height: Double(height)) }
    }
    // NB: the chart lives as long as the window (the drawing area never outlives it).
    gtk_drawing_area_set_draw_func(
      gobject(raw(widget), as: GtkDrawingArea.self), draw,
      Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  /// Charts `photo`'s run.
  func show(_ photo: CapturedPhoto) {
    let green = (0.18, 0.65, 0.35)
    let grey = (0.55, 0.55, 0.55)
    let red = (0.8, 0.15, 0.2)
    shutter = photo.shutterOffset.secondsValue
    bars = [("count", shutter, (0.1, 0.6, 0.8))]
    for step in PreparationStep.allCases {
      guard let report = photo.report(for: step) else { continue }
      let color =
        switch report.outcome {
        case .succeeded: green
        case .failed: red
        case .dropped, .skipped: grey
        }
      bars.append((step.rawValue, report.elapsed.secondsValue, color))
    }
    gtk_widget_queue_draw(widget)
  }

  private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
    guard let end = bars.map(\.end).max(), end > 0 else { return }
    let left = 70.0
    let right = 44.0
    let scale = (width - left - right) / end
    let row = min(22, (height - 18) / Double(max(1, bars.count)))
    cairo_select_font_face(cairo, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cairo, 11)
    for (index, bar) in bars.enumerated() {
      let y = Double(index) * row
      cairo_set_source_rgb(cairo, 0.4, 0.4, 0.4)
      cairo_move_to(cairo, 0, y + row * 0.7)
      cairo_show_text(cairo, bar.label)
      cairo_set_source_rgb(cairo, bar.color.0, bar.color.1, bar.color.2)
      cairo_rectangle(cairo, left, y + 3, max(2, bar.end * scale), row - 6)
      cairo_fill(cairo)
      cairo_set_source_rgb(cairo, 0.4, 0.4, 0.4)
      cairo_move_to(cairo, left + max(2, bar.end * scale) + 4, y + row * 0.7)
      cairo_show_text(cairo, String(format: "%.1f s", bar.end))
    }
    let x = left + shutter * scale
    cairo_set_source_rgb(cairo, 0.9, 0.45, 0.1)
    cairo_set_line_width(cairo, 2)
    cairo_move_to(cairo, x, 0)
    cairo_line_to(cairo, x, Double(bars.count) * row)
    cairo_stroke(cairo)
    cairo_move_to(cairo, max(0, x - 20), Double(bars.count) * row + 13)
    cairo_show_text(cairo, "shutter")
  }
}
