import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// The pixel transform behind each `PhotoFilter`.
///
/// A look is a saturation change followed by one tone curve per channel, so applying it costs
/// a few table lookups per pixel:
///
/// | look | saturation | curve |
/// | --- | --- | --- |
/// | Natural | ×1 | none: the photo as taken |
/// | Vivid | ×1.35 | gentle S-curve (contrast +10 %) |
/// | Warm | ×1.1 | red ×1.08, blue ×0.88 |
/// | Cool | ×1 | red ×0.88, blue ×1.1 |
/// | Mono | ×0 (Rec. 709 luma) | S-curve (contrast +15 %) |
/// | Dramatic | ×0.6 | strong S-curve (contrast +35 %), shadows pressed |
/// | Fade | ×0.75 | blacks lifted to 12 %, whites lowered to 92 % |
///
/// ```swift
/// let look = Look(.vivid)
/// let photo = try await look.apply(to: frame)
/// ```
public struct Look: Sendable {
  /// The filter this look implements.
  public let filter: PhotoFilter
  /// Saturation in 8.8 fixed point: 256 keeps it, 0 makes grey.
  let saturation: Int
  let red: [UInt8]
  let green: [UInt8]
  let blue: [UInt8]

  /// The look for `filter`; an unknown filter is the identity (Natural).
  public init(_ filter: PhotoFilter) {
    self.filter = filter
    let identity: (Double) -> Double = { $0 }
    func sCurve(_ amount: Double) -> (Double) -> Double {
      { x in x + amount * (x - 0.5) * (1 - abs(2 * x - 1)) * 2 }
    }
    func gain(_ factor: Double) -> (Double) -> Double { { x in x * factor } }
    var saturation = 1.0
    var red = identity
    var green = identity
    var blue = identity
    switch filter {
    case .vivid:
      saturation = 1.35
      red = sCurve(0.1)
      green = red
      blue = red
    case .warm:
      saturation = 1.1
      red = gain(1.08)
      blue = gain(0.88)
    case .cool:
      red = gain(0.88)
      blue = gain(1.1)
    case .mono:
      saturation = 0
      red = sCurve(0.15)
      green = red
      blue = red
    case .dramatic:
      saturation = 0.6
      let curve = sCurve(0.35)
      red = { x in curve(x) * (0.8 + 0.2 * x) }
      green = red
      blue = red
    case .fade:
      saturation = 0.75
      red = { x in 0.12 + x * 0.8 }
      green = red
      blue = red
    default:
      break
    }
    self.saturation = Int((saturation * 256).rounded())
    func table(_ curve: (Double) -> Double) -> [UInt8] {
      (0..<256).map { UInt8(min(max(curve(Double($0) / 255), 0), 1) * 255 + 0.5) }
    }
    self.red = table(red)
    self.green = table(green)
    self.blue = table(blue)
  }

  /// Whether the look leaves every pixel as it is.
  public var isIdentity: Bool {
    saturation == 256 && red == Self.identityTable && green == Self.identityTable
      && blue == Self.identityTable
  }

  private static let identityTable = (0..<256).map { UInt8($0) }

  /// One pixel through the look.
  public func apply(to pixel: RGB) -> RGB {
    var frame = Frame(width: 1, height: 1)
    frame[0, 0] = pixel
    apply(rows: 0..<1, of: &frame)
    return frame[0, 0]
  }

  /// The look applied to a whole frame, off the cooperative pool, in chunks of rows that
  /// check for cancellation: a 12-megapixel photo never holds up a countdown tick.
  ///
  /// - Throws: `CancellationError` when the task is cancelled; the partial result is dropped.
  public func apply(to frame: Frame) async throws -> Frame {
    if isIdentity { return frame }
    return try await OffPool.run { isCancelled in
      var result = frame
      let chunk = max(1, 262_144 / frame.width)  // about 256k pixels per chunk
      var row = 0
      while row < frame.height {
        if isCancelled() { throw CancellationError() }
        let end = min(row + chunk, frame.height)
        apply(rows: row..<end, of: &result)
        row = end
      }
      return result
    }
  }

  /// Applies the look to the whole of `frame` in place, on the calling thread, with no
  /// cancellation check: the naive way, for the benchmark's baseline.
  package func applyInPlace(to frame: inout Frame) {
    apply(rows: 0..<frame.height, of: &frame)
  }

  /// Applies the look to `rows` of `frame` in place.
  func apply(rows: Range<Int>, of frame: inout Frame) {
    let saturation = saturation
    let width = frame.width
    let stride = frame.bytesPerRow
    red.withUnsafeBufferPointer { red in
      green.withUnsafeBufferPointer { green in
        blue.withUnsafeBufferPointer { blue in
          frame.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in rows {
              var offset = y * stride
              for _ in 0..<width {
                var r = Int(pixels[offset])
                var g = Int(pixels[offset + 1])
                var b = Int(pixels[offset + 2])
                if saturation != 256 {
                  let luma = (54 * r + 183 * g + 19 * b) >> 8
                  r = min(max(luma + ((r - luma) * saturation) >> 8, 0), 255)
                  g = min(max(luma + ((g - luma) * saturation) >> 8, 0), 255)
                  b = min(max(luma + ((b - luma) * saturation) >> 8, 0), 255)
                }
                pixels[offset] = red[r]
                pixels[offset + 1] = green[g]
                pixels[offset + 2] = blue[b]
                offset += 3
              }
            }
          }
        }
      }
    }
  }
}
