/// Where a shot is cut to fit a collage's slot: the largest part of the picture with the
/// slot's shape, placed around the faces the people step found, so that no face is cut when
/// the faces fit the slot at all.
public enum ShotCrop {
  /// How far around each face the crop keeps clear, in face widths: hair above, chin below.
  public static let faceMargin = 0.25

  /// The crop of a `width` × `height` picture for a slot of `aspect` (its width over its
  /// height), around `faces`.
  ///
  /// The crop is the largest of that shape the picture holds. With no faces it is centred;
  /// with faces it is centred on them, kept inside the picture, and moved so that it holds
  /// every face with its margin when they fit, else every face without it, else as many of
  /// the faces' middle as it can (the faces are then wider apart than the slot's shape can
  /// show: ``Result/cutsFaces`` says so).
  ///
  /// - Parameters:
  ///   - width: The picture's width in pixels.
  ///   - height: The picture's height in pixels.
  ///   - aspect: The slot's width over its height (rotation aside).
  ///   - faces: The faces in the picture, in its pixels.
  /// - Returns: The crop, and whether it cuts a face.
  public static func crop(
    width: Int, height: Int, aspect: Double, faces: [PixelBox]
  ) -> Result {
    let pictureWidth = Double(width)
    let pictureHeight = Double(height)
    guard width > 0, height > 0, aspect.isFinite, aspect > 0 else {
      return Result(box: PixelBox(x: 0, y: 0, width: pictureWidth, height: pictureHeight))
    }
    // The largest box of the slot's shape inside the picture.
    var cropWidth = pictureWidth
    var cropHeight = pictureWidth / aspect
    if cropHeight > pictureHeight {
      cropHeight = pictureHeight
      cropWidth = pictureHeight * aspect
    }
    let inside = faces.compactMap { $0.clipped(width: pictureWidth, height: pictureHeight) }
    guard let tight = PixelBox.union(inside) else {
      let box = PixelBox(
        x: (pictureWidth - cropWidth) / 2, y: (pictureHeight - cropHeight) / 2,
        width: cropWidth, height: cropHeight)
      return Result(box: box)
    }
    let margined =
      PixelBox.union(
        inside.compactMap {
          PixelBox(
            x: $0.x - $0.width * faceMargin, y: $0.y - $0.width * faceMargin,
            width: $0.width * (1 + 2 * faceMargin), height: $0.height + $0.width * 2 * faceMargin
          ).clipped(width: pictureWidth, height: pictureHeight)
        }) ?? tight
    let x = place(
      start: margined.x, length: margined.width, tight: (tight.x, tight.width),
      crop: cropWidth, picture: pictureWidth)
    let y = place(
      start: margined.y, length: margined.height, tight: (tight.y, tight.height),
      crop: cropHeight, picture: pictureHeight)
    let box = PixelBox(x: x, y: y, width: cropWidth, height: cropHeight)
    let cuts = inside.contains { face in
      face.x < box.x - 0.5 || face.y < box.y - 0.5 || face.x + face.width > box.x + box.width + 0.5
        || face.y + face.height > box.y + box.height + 0.5
    }
    return Result(box: box, cutsFaces: cuts)
  }

  /// Where a crop of `crop` pixels starts along one axis of `picture` pixels: centred on the
  /// faces' span with its margin when it holds it, else on their tight span, else on their
  /// middle; always inside the picture.
  private static func place(
    start: Double, length: Double, tight: (start: Double, length: Double), crop: Double,
    picture: Double
  ) -> Double {
    let span = length <= crop ? (start, length) : tight
    let origin = span.0 + span.1 / 2 - crop / 2
    return min(max(0, origin), max(0, picture - crop))
  }

  /// A crop, and whether it cuts a face.
  public struct Result: Equatable, Sendable {
    /// The part of the picture the slot shows, in the picture's pixels.
    public var box: PixelBox
    /// Whether a face is cut: the faces are wider apart than the slot's shape can show.
    public var cutsFaces = false
  }
}

extension PixelBox {
  /// The smallest box holding all of `boxes`, or `nil` for none.
  static func union(_ boxes: [PixelBox]) -> PixelBox? {
    guard let first = boxes.first else { return nil }
    var left = first.x
    var top = first.y
    var right = first.x + first.width
    var bottom = first.y + first.height
    for box in boxes.dropFirst() {
      left = min(left, box.x)
      top = min(top, box.y)
      right = max(right, box.x + box.width)
      bottom = max(bottom, box.y + box.height)
    }
    return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// The part of the box inside a `width` × `height` picture, or `nil` when none is.
  func clipped(width: Double, height: Double) -> PixelBox? {
    let left = max(0, x)
    let top = max(0, y)
    let right = min(width, x + self.width)
    let bottom = min(height, y + self.height)
    guard right > left, bottom > top else { return nil }
    return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
  }
}
