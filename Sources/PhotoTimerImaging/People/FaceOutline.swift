import PhotoTimer

/// The faces outlined over a preview: a rectangle round each face, green while the eyes are
/// open, amber while the person blinks. The one look of the marks on every screen: the
/// terminal and the window draw them into the preview's own pixels with ``draw(_:mirrored:on:)``
/// (a copy shown on the screen, never the photo); the phone's page strokes the same
/// colours (`FaceMark.Eyes.colour`) on its canvas.
///
/// ```swift
/// var shown = preview
/// FaceOutline.draw(presentation.faces, mirrored: true, on: &shown)
/// ```
public enum FaceOutline {
  /// The colour of `mark`'s outline (`FaceMark.Eyes.colour`).
  public static func colour(of mark: FaceMark) -> RGB {
    let (red, green, blue) = mark.eyes.colour
    return RGB(red: red, green: green, blue: blue)
  }

  /// How thick a line is on a picture of `width` × `height` pixels: one pixel on a small
  /// preview (a terminal's half blocks), about 3 on a window's 1280 × 720.
  public static func thickness(width: Int, height: Int) -> Int {
    max(1, min(width, height) / 240)
  }

  /// Outlines `marks` on `frame`, mirrored left to right when the frame is a mirrored
  /// preview. A mark is drawn inside its box, so a face at the edge keeps all four sides.
  ///
  /// - Parameters:
  ///   - marks: The faces, in the camera's own orientation.
  ///   - mirrored: Whether `frame` is mirrored.
  ///   - frame: The preview, drawn on in place.
  public static func draw(_ marks: [FaceMark], mirrored: Bool, on frame: inout Frame) {
    guard frame.width > 1, frame.height > 1 else { return }
    let line = thickness(width: frame.width, height: frame.height)
    for mark in marks {
      let box = mirrored ? mark.mirrored() : mark
      let left = clamp(Int((box.x * Double(frame.width)).rounded()), frame.width - 1)
      let top = clamp(Int((box.y * Double(frame.height)).rounded()), frame.height - 1)
      let right = clamp(
        Int(((box.x + box.width) * Double(frame.width)).rounded()) - 1, frame.width - 1)
      let bottom = clamp(
        Int(((box.y + box.height) * Double(frame.height)).rounded()) - 1, frame.height - 1)
      guard right > left, bottom > top else { continue }
      let colour = colour(of: mark)
      // NB: never thicker than a third of the box: a small face keeps its middle visible.
      let thick = max(1, min(line, (right - left) / 3, (bottom - top) / 3))
      for y in top...bottom {
        let edgeRow = y - top < thick || bottom - y < thick
        if edgeRow {
          for x in left...right { frame[x, y] = colour }
        } else {
          for x in left..<(left + thick) { frame[x, y] = colour }
          for x in (right - thick + 1)...right { frame[x, y] = colour }
        }
      }
    }
  }

  private static func clamp(_ value: Int, _ upper: Int) -> Int { min(max(value, 0), upper) }
}
