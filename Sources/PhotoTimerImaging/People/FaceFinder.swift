/// A rectangle in an image's pixels.
public struct PixelBox: Sendable, Hashable, CustomStringConvertible {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// A box.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The centre.
  public var center: FacePoint { FacePoint(x: x + width / 2, y: y + height / 2) }
  /// The area in square pixels.
  public var area: Double { max(0, width) * max(0, height) }

  /// The box grown by `factor` around its centre (2: twice as wide and high).
  public func grown(by factor: Double) -> PixelBox {
    let center = center
    return PixelBox(
      x: center.x - width * factor / 2, y: center.y - height * factor / 2,
      width: width * factor, height: height * factor)
  }

  /// The part of the box inside `bounds`, or `nil` when they do not meet.
  public func clipped(to bounds: PixelBox) -> PixelBox? {
    let left = max(x, bounds.x)
    let top = max(y, bounds.y)
    let right = min(x + width, bounds.x + bounds.width)
    let bottom = min(y + height, bounds.y + bounds.height)
    guard right > left, bottom > top else { return nil }
    return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
  }

  /// Intersection over union: 1 for the same box, 0 for boxes that do not meet.
  public func overlap(with other: PixelBox) -> Double {
    guard let common = clipped(to: other) else { return 0 }
    let union = area + other.area - common.area
    return union > 0 ? common.area / union : 0
  }

  /// The box in the coordinates of an image scaled by `scale` and offset by `origin`
  /// (`origin` in the unscaled image).
  public func mapped(scale: Double, origin: FacePoint = FacePoint(x: 0, y: 0)) -> PixelBox {
    PixelBox(
      x: (x - origin.x) * scale, y: (y - origin.y) * scale, width: width * scale,
      height: height * scale)
  }

  /// `x,y widthxheight`, rounded.
  public var description: String {
    "\(Int(x.rounded())),\(Int(y.rounded())) \(Int(width.rounded()))x\(Int(height.rounded()))"
  }
}

/// A point in an image's pixels.
public struct FacePoint: Sendable, Hashable {
  /// Across.
  public var x: Double
  /// Down.
  public var y: Double

  /// A point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The distance to `other`.
  public func distance(to other: FacePoint) -> Double {
    ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
  }
}

/// An 8-bit grey image, packed row by row: what face detection reads.
public struct GreyImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width × height` luma values.
  public var pixels: [UInt8]

  /// An image of `width × height` pixels, black unless given.
  public init(width: Int, height: Int, pixels: [UInt8]? = nil) {
    self.width = width
    self.height = height
    self.pixels = pixels ?? [UInt8](repeating: 0, count: width * height)
  }

  /// The luma of `region` of `frame` (all of it by default), scaled by `scale`: averaged over
  /// the pixels each output pixel covers when shrinking, bilinear when growing.
  ///
  /// - Parameters:
  ///   - frame: The RGB frame.
  ///   - region: The part of the frame, in its pixels; clipped to it.
  ///   - scale: Output pixels per frame pixel.
  public init(_ frame: Frame, region: PixelBox? = nil, scale: Double = 1) {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    let area = (region ?? bounds).clipped(to: bounds) ?? PixelBox(x: 0, y: 0, width: 1, height: 1)
    let left = min(frame.width - 1, Int(area.x))
    let top = min(frame.height - 1, Int(area.y))
    let right = max(left + 1, min(frame.width, Int((area.x + area.width).rounded(.up))))
    let bottom = max(top + 1, min(frame.height, Int((area.y + area.height).rounded(.up))))
    // The region in grey at the frame's resolution (BT.601 luma in fixed point, as dlib's own
    // conversion), then resampled.
    var grey = GreyImage(width: right - left, height: bottom - top)
    let stride = frame.bytesPerRow
    frame.pixels.withUnsafeBufferPointer { source in
      grey.pixels.withUnsafeMutableBufferPointer { output in
        var index = 0
        for row in top..<bottom {
          var at = row * stride + left * 3
          for _ in left..<right {
            let sum = 77 * Int(source[at]) + 150 * Int(source[at + 1]) + 29 * Int(source[at + 2])
            output[index] = UInt8((sum + 128) >> 8)
            index += 1
            at += 3
          }
        }
      }
    }
    self = scale == 1 ? grey : grey.scaled(by: scale)
  }

  /// The image scaled by `scale`: averaged over the pixels each output pixel covers when
  /// shrinking, bilinear when growing.
  public func scaled(by scale: Double) -> GreyImage {
    let outWidth = max(1, Int((Double(width) * scale).rounded()))
    let outHeight = max(1, Int((Double(height) * scale).rounded()))
    var output = GreyImage(width: outWidth, height: outHeight)
    let step = 1 / scale
    let width = width
    let height = height
    pixels.withUnsafeBufferPointer { source in
      output.pixels.withUnsafeMutableBufferPointer { target in
        for row in 0..<outHeight {
          for column in 0..<outWidth {
            let x = Double(column) * step
            let y = Double(row) * step
            var value: Int
            if step > 1 {
              let c0 = min(width - 1, Int(x))
              let r0 = min(height - 1, Int(y))
              let c1 = max(c0, min(width - 1, Int(x + step) - 1))
              let r1 = max(r0, min(height - 1, Int(y + step) - 1))
              var sum = 0
              for r in r0...r1 {
                for c in c0...c1 { sum += Int(source[r * width + c]) }
              }
              let count = (r1 - r0 + 1) * (c1 - c0 + 1)
              value = (sum + count / 2) / count
            } else {
              let fx = max(0, min(Double(width - 1), x + step / 2 - 0.5))
              let fy = max(0, min(Double(height - 1), y + step / 2 - 0.5))
              let c0 = Int(fx)
              let r0 = Int(fy)
              let c1 = min(width - 1, c0 + 1)
              let r1 = min(height - 1, r0 + 1)
              let ax = fx - Double(c0)
              let ay = fy - Double(r0)
              let upper =
                Double(source[r0 * width + c0]) * (1 - ax) + Double(source[r0 * width + c1]) * ax
              let lower =
                Double(source[r1 * width + c0]) * (1 - ax) + Double(source[r1 * width + c1]) * ax
              value = Int((upper * (1 - ay) + lower * ay).rounded())
            }
            target[row * outWidth + column] = UInt8(max(0, min(255, value)))
          }
        }
      }
    }
    return output
  }

  /// The value at (`x`, `y`), clamped to the image.
  public subscript(x: Int, y: Int) -> UInt8 {
    pixels[max(0, min(height - 1, y)) * width + max(0, min(width - 1, x))]
  }
}

/// Finds faces and their landmarks in grey images: dlib's detector and 68-point model on
/// Linux (`PhotoTimerFaces`), a test's stand-in elsewhere.
///
/// The finder answers for one image at a time; where and at what scale to look (the whole
/// frame, or regions around the faces already found) is ``FaceSearch``'s decision.
public protocol FaceFinder: Sendable {
  /// The smallest face, in pixels across, the detector finds.
  var smallestFace: Int { get }
  /// The faces in `image`.
  func faces(in image: GreyImage) throws -> [PixelBox]
  /// The faces in `image` the detector is surer of: those whose score clears its threshold
  /// by `margin` (in the detector's own units; dlib's HOG scores run from its threshold, 0,
  /// to about 2 for a clear frontal face). A finder without scores finds what
  /// ``faces(in:)`` finds.
  func faces(in image: GreyImage, margin: Double) throws -> [PixelBox]
  /// The 68 landmarks of the face in `box` (iBUG 300-W order: jaw 0–16, brows 17–26, nose
  /// 27–35, eyes 36–47, mouth 48–67).
  func landmarks(in image: GreyImage, of box: PixelBox) throws -> [FacePoint]
}

extension FaceFinder {
  /// What ``faces(in:)`` finds: a finder without scores has no margin to clear.
  public func faces(in image: GreyImage, margin: Double) throws -> [PixelBox] {
    try faces(in: image)
  }
}
