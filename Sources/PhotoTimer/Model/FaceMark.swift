/// A face in the picture as the screens outline it: where it is, as fractions of the frame,
/// and whether its eyes are open.
///
/// The people step (during a count) and a count that starts itself (while framing) follow
/// the faces on the running camera; each front end draws the marks the presentation carries
/// over its own preview: green while the eyes are open, amber while the person blinks. The
/// box is in the camera's own orientation: a front end that mirrors its preview mirrors the
/// marks with it (``mirrored()``). Marks are never drawn in the photo.
///
/// ```swift
/// for mark in presentation.faces {
///   let box = mirrored ? mark.mirrored() : mark
///   outline(x: box.x * width, y: box.y * height, box.width * width, box.height * height,
///     colour: box.eyes == .open ? green : amber)
/// }
/// ```
public struct FaceMark: Sendable, Hashable {
  /// What the person's eyes are doing.
  public enum Eyes: String, Sendable, Hashable {
    /// Open, or not measured yet: nothing to warn about.
    case open
    /// Shut: the person is blinking.
    case closed

    /// The outline's colour on every screen, red, green and blue: green for open eyes, amber
    /// for a blink.
    public var colour: (red: UInt8, green: UInt8, blue: UInt8) {
      switch self {
      case .open: (51, 209, 122)
      case .closed: (255, 176, 0)
      }
    }

    /// ``colour`` as CSS writes it: `rgb(51, 209, 122)`.
    public var cssColour: String {
      let (red, green, blue) = colour
      return "rgb(\(red), \(green), \(blue))"
    }
  }

  /// The box's left edge, from 0 (the frame's left) to 1.
  public var x: Double
  /// The box's top edge, from 0 (the frame's top) to 1.
  public var y: Double
  /// The box's width, as a fraction of the frame's width.
  public var width: Double
  /// The box's height, as a fraction of the frame's height.
  public var height: Double
  /// Whether the eyes are open.
  public var eyes: Eyes

  /// A mark; the box is clipped to the frame.
  ///
  /// - Parameters:
  ///   - x: The left edge, as a fraction of the frame's width.
  ///   - y: The top edge, as a fraction of the frame's height.
  ///   - width: The width, as a fraction of the frame's width.
  ///   - height: The height, as a fraction of the frame's height.
  ///   - eyes: Whether the eyes are open.
  public init(x: Double, y: Double, width: Double, height: Double, eyes: Eyes) {
    let left = min(max(x, 0), 1)
    let top = min(max(y, 0), 1)
    self.x = left
    self.y = top
    self.width = min(max(x + width, 0), 1) - left
    self.height = min(max(y + height, 0), 1) - top
    self.eyes = eyes
  }

  /// The same mark in a picture mirrored left to right.
  public func mirrored() -> FaceMark {
    FaceMark(x: 1 - x - width, y: y, width: width, height: height, eyes: eyes)
  }
}
