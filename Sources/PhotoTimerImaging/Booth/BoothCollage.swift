import Foundation

/// A picture with transparency (a layout's overlay, a text layer): per pixel red, green, blue
/// and alpha, straight (not premultiplied), rows packed.
public struct RGBAImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `height` rows of `width` pixels, four bytes each.
  public var pixels: [UInt8]

  /// A fully transparent image.
  public init(width: Int, height: Int) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    self.width = width
    self.height = height
    pixels = [UInt8](repeating: 0, count: width * height * 4)
  }

  /// An image of `pixels`, or `nil` when they are not `width × height × 4` bytes.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }
}

/// A booth session's collage: each shot cut around its faces to its slot's shape
/// (``ShotCrop``), scaled into the slot, turned by the slot's rotation, over the layout's
/// background and under its overlay and text layers.
///
/// Pure and deterministic: the same shots give the same bytes. Scaling averages the pixels
/// each canvas pixel covers; a turned slot is sampled bilinearly, its edges smoothed by how
/// much of each canvas pixel the slot covers.
public enum BoothCollage {
  /// A shot of the session and the faces the people step found in it.
  public struct Shot: Sendable {
    /// The photo.
    public var frame: Frame
    /// The faces in it, in its pixels.
    public var faces: [PixelBox]

    /// A shot.
    public init(frame: Frame, faces: [PixelBox] = []) {
      self.frame = frame
      self.faces = faces
    }
  }

  /// A collage, and the slots whose crop had to cut a face (the group wider apart than the
  /// slot's shape can show).
  public struct Result: Sendable {
    /// The collage, the layout's canvas size.
    public var canvas: Frame
    /// The indices of the slots whose shot lost part of a face.
    public var cutSlots: [Int]
  }

  /// Composes `shots` into `layout`, one per slot in order; with fewer shots than slots the
  /// shots fill the rest again in the same order (two shots in the four-slot strip: 1, 2, 1,
  /// 2), so a strip cut in two is two alike.
  ///
  /// - Parameters:
  ///   - shots: The session's kept shots.
  ///   - layout: A layout that passed its validation.
  ///   - background: The background picture (a decoded PNG), scaled to the canvas; `nil`
  ///     for the layout's background colour (white when it has none).
  ///   - layers: Drawn over everything in order: the overlay, then the text; each scaled to
  ///     the canvas when it is another size.
  public static func compose(
    _ shots: [Shot], in layout: BoothLayout, background: Frame? = nil, layers: [RGBAImage] = []
  ) -> Result {
    let width = max(1, layout.canvas.width)
    let height = max(1, layout.canvas.height)
    var canvas: Frame
    if let background {
      canvas = background.resized(width: width, height: height)
    } else {
      canvas = Frame(width: width, height: height)
      fill(&canvas, with: RGB(hex: layout.background ?? "") ?? RGB(red: 255, green: 255, blue: 255))
    }
    var cut: [Int] = []
    let filled = shots.isEmpty ? [] : layout.slots.indices.map { shots[$0 % shots.count] }
    for (index, (shot, slot)) in zip(filled, layout.slots).enumerated()
    where slot.width > 0 && slot.height > 0 {
      let crop = ShotCrop.crop(
        width: shot.frame.width, height: shot.frame.height, aspect: slot.aspect,
        faces: shot.faces)
      if crop.cutsFaces { cut.append(index) }
      let picture = shot.frame.cropped(to: crop.box).resized(width: slot.width, height: slot.height)
      place(picture, in: slot, on: &canvas)
    }
    for layer in layers { blend(layer, over: &canvas) }
    return Result(canvas: canvas, cutSlots: cut)
  }

  private static func fill(_ canvas: inout Frame, with colour: RGB) {
    canvas.pixels.withUnsafeMutableBufferPointer { target in
      var offset = 0
      while offset + 2 < target.count {
        target[offset] = colour.red
        target[offset + 1] = colour.green
        target[offset + 2] = colour.blue
        offset += 3
      }
    }
  }

  /// Puts `picture` (the slot's size) in `slot`, turned about its centre, clipped to the
  /// canvas.
  static func place(_ picture: Frame, in slot: BoothLayout.Slot, on canvas: inout Frame) {
    let turn = slot.rotation.truncatingRemainder(dividingBy: 360)
    if turn == 0 {
      copy(picture, x: slot.x, y: slot.y, on: &canvas)
      return
    }
    let angle = turn * .pi / 180
    let cosine = cos(angle)
    let sine = sin(angle)
    let halfWidth = Double(slot.width) / 2
    let halfHeight = Double(slot.height) / 2
    let centreX = Double(slot.x) + halfWidth
    let centreY = Double(slot.y) + halfHeight
    // The turned slot's bounds on the canvas.
    let reachX = abs(halfWidth * cosine) + abs(halfHeight * sine)
    let reachY = abs(halfWidth * sine) + abs(halfHeight * cosine)
    let left = max(0, Int((centreX - reachX).rounded(.down)))
    let right = min(canvas.width, Int((centreX + reachX).rounded(.up)))
    let top = max(0, Int((centreY - reachY).rounded(.down)))
    let bottom = min(canvas.height, Int((centreY + reachY).rounded(.up)))
    guard left < right, top < bottom else { return }
    let stride = canvas.bytesPerRow
    let sourceStride = picture.bytesPerRow
    let maxX = Double(picture.width - 1)
    let maxY = Double(picture.height - 1)
    picture.pixels.withUnsafeBufferPointer { source in
      canvas.pixels.withUnsafeMutableBufferPointer { target in
        for y in top..<bottom {
          let dy = Double(y) + 0.5 - centreY
          for x in left..<right {
            let dx = Double(x) + 0.5 - centreX
            // The canvas pixel in the slot's own axes (the inverse of a clockwise turn).
            let u = dx * cosine + dy * sine
            let v = -dx * sine + dy * cosine
            let inside = min(halfWidth - abs(u), halfHeight - abs(v))
            let coverage = min(1, inside + 0.5)
            guard coverage > 0 else { continue }
            let sx = min(max(u + halfWidth - 0.5, 0), maxX)
            let sy = min(max(v + halfHeight - 0.5, 0), maxY)
            let x0 = Int(sx)
            let y0 = Int(sy)
            let x1 = min(x0 + 1, picture.width - 1)
            let y1 = min(y0 + 1, picture.height - 1)
            let fx = sx - Double(x0)
            let fy = sy - Double(y0)
            let out = y * stride + x * 3
            for channel in 0..<3 {
              let a = Double(source[y0 * sourceStride + x0 * 3 + channel])
              let b = Double(source[y0 * sourceStride + x1 * 3 + channel])
              let c = Double(source[y1 * sourceStride + x0 * 3 + channel])
              let d = Double(source[y1 * sourceStride + x1 * 3 + channel])
              let top = a + (b - a) * fx
              let sample = top + (c + (d - c) * fx - top) * fy
              let under = Double(target[out + channel])
              target[out + channel] = UInt8((under + (sample - under) * coverage).rounded())
            }
          }
        }
      }
    }
  }

  /// Copies `picture` with its top left at `x`, `y`, clipped to the canvas.
  private static func copy(_ picture: Frame, x: Int, y: Int, on canvas: inout Frame) {
    let left = max(0, x)
    let right = min(canvas.width, x + picture.width)
    let top = max(0, y)
    let bottom = min(canvas.height, y + picture.height)
    guard left < right, top < bottom else { return }
    let count = (right - left) * 3
    let stride = canvas.bytesPerRow
    let sourceStride = picture.bytesPerRow
    picture.pixels.withUnsafeBufferPointer { source in
      canvas.pixels.withUnsafeMutableBufferPointer { target in
        for row in top..<bottom {
          let from = (row - y) * sourceStride + (left - x) * 3
          let to = row * stride + left * 3
          for offset in 0..<count { target[to + offset] = source[from + offset] }
        }
      }
    }
  }

  /// Draws `layer` over the canvas by its alpha, scaled to the canvas (nearest pixel) when it
  /// is another size.
  static func blend(_ layer: RGBAImage, over canvas: inout Frame) {
    let width = canvas.width
    let height = canvas.height
    let stride = canvas.bytesPerRow
    let columns = (0..<width).map { min(layer.width - 1, $0 * layer.width / width) }
    layer.pixels.withUnsafeBufferPointer { source in
      canvas.pixels.withUnsafeMutableBufferPointer { target in
        for y in 0..<height {
          let row = min(layer.height - 1, y * layer.height / height) * layer.width * 4
          for x in 0..<width {
            let from = row + columns[x] * 4
            let alpha = Int(source[from + 3])
            if alpha == 0 { continue }
            let to = y * stride + x * 3
            if alpha == 255 {
              target[to] = source[from]
              target[to + 1] = source[from + 1]
              target[to + 2] = source[from + 2]
              continue
            }
            for channel in 0..<3 {
              let under = Int(target[to + channel])
              let over = Int(source[from + channel])
              target[to + channel] = UInt8((over * alpha + under * (255 - alpha) + 127) / 255)
            }
          }
        }
      }
    }
  }
}

extension RGB {
  /// The colour `#rrggbb` names, or `nil` for anything else.
  public init?(hex text: String) {
    guard text.count == 7, text.first == "#", let value = UInt32(text.dropFirst(), radix: 16)
    else { return nil }
    self.init(
      red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
  }
}

extension Frame {
  /// The part of the picture inside `box`, its edges rounded to whole pixels and kept inside
  /// the picture (at least one pixel).
  public func cropped(to box: PixelBox) -> Frame {
    let left = min(max(0, Int(box.x.rounded())), width - 1)
    let top = min(max(0, Int(box.y.rounded())), height - 1)
    let right = max(left + 1, min(width, Int((box.x + box.width).rounded())))
    let bottom = max(top + 1, min(height, Int((box.y + box.height).rounded())))
    if left == 0, top == 0, right == width, bottom == height { return self }
    var result = Frame(
      width: right - left, height: bottom - top, timestamp: timestamp, exposureEV: exposureEV)
    let count = (right - left) * 3
    let stride = bytesPerRow
    pixels.withUnsafeBufferPointer { source in
      result.pixels.withUnsafeMutableBufferPointer { target in
        for row in 0..<(bottom - top) {
          let from = (top + row) * stride + left * 3
          let to = row * count
          for offset in 0..<count { target[to + offset] = source[from + offset] }
        }
      }
    }
    return result
  }
}
