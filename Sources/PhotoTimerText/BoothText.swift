import CPangoCairo
import PhotoTimerImaging

/// A layout's text fields drawn for its collage: each line laid out by Pango in its font and
/// size, drawn by Cairo in its colour, anchored as the layout says (the baseline at `y`, its
/// start, middle or end at `x`), into a transparent layer the size of the canvas that
/// ``BoothCollage`` draws over the shots.
///
/// Needs no display: Cairo draws into memory and fontconfig finds the fonts (`Sans` is DejaVu
/// Sans on Debian).
public enum BoothText {
  /// The layer for `texts` on a `width` × `height` canvas, `{event}` and `{date}` filled in
  /// from `values` (a field whose text ends up empty is left out); `nil` when there is
  /// nothing to draw or Cairo could not make the surface.
  public static func layer(
    _ texts: [BoothLayout.Text], width: Int, height: Int, values: [String: String]
  ) -> RGBAImage? {
    let lines = texts.map { ($0, fill($0.text, values)) }.filter { !$0.1.isEmpty }
    guard !lines.isEmpty, width > 0, height > 0,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface)
    else { return nil }
    defer { cairo_destroy(cairo) }
    for (field, text) in lines { draw(text, field, on: cairo) }
    cairo_surface_flush(surface)
    return straight(surface, width: width, height: height)
  }

  /// `text` with `{event}` and `{date}` (any `{name}` in `values`) filled in, trimmed of the
  /// separators a missing value leaves (`{event} · {date}` without an event is the date).
  static func fill(_ text: String, _ values: [String: String]) -> String {
    var filled = text
    for (name, value) in values {
      filled = filled.replacingOccurrences(of: "{\(name)}", with: value)
    }
    let separators: Set<Character> = [" ", "·", "-", "–", "|", ","]
    while let first = filled.first, separators.contains(first) { filled.removeFirst() }
    while let last = filled.last, separators.contains(last) { filled.removeLast() }
    return filled
  }

  private static func draw(_ text: String, _ field: BoothLayout.Text, on cairo: OpaquePointer) {
    guard let layout = pango_cairo_create_layout(cairo) else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    let description = pango_font_description_from_string(field.font)
    defer { pango_font_description_free(description) }
    // NB: the layout's size is the font's in canvas pixels, whatever its description says.
    pango_font_description_set_absolute_size(description, Double(field.size) * Double(PANGO_SCALE))
    pango_layout_set_font_description(layout, description)
    pango_layout_set_text(layout, text, -1)
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_pixel_extents(layout, &ink, &logical)
    let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
    let textWidth = Double(logical.width)
    let left: Double
    switch field.align {
    case "left": left = Double(field.x)
    case "right": left = Double(field.x) - textWidth
    default: left = Double(field.x) - textWidth / 2
    }
    let colour = RGB(hex: field.colour) ?? RGB(red: 0, green: 0, blue: 0)
    cairo_set_source_rgb(
      cairo, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255)
    cairo_move_to(cairo, left, Double(field.y) - baseline)
    pango_cairo_show_layout(cairo, layout)
  }

  /// Cairo's premultiplied native-endian ARGB as straight RGBA.
  private static func straight(_ surface: OpaquePointer, width: Int, height: Int) -> RGBAImage? {
    guard let data = cairo_image_surface_get_data(surface) else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let argb = row[x]
        let alpha = Int(argb >> 24)
        guard alpha > 0 else { continue }
        let offset = (y * width + x) * 4
        func unmultiply(_ value: UInt32) -> UInt8 {
          UInt8(min(255, (Int(value & 0xff) * 255 + alpha / 2) / alpha))
        }
        pixels[offset] = unmultiply(argb >> 16)
        pixels[offset + 1] = unmultiply(argb >> 8)
        pixels[offset + 2] = unmultiply(argb)
        pixels[offset + 3] = UInt8(alpha)
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}
