import Foundation

/// The scene's noise: value noise for the clouds and the grass, a well-mixed hash for the
/// sensor's grain, and the cloud cover of a frame on a coarse grid.
extension SceneRenderer {
  /// Smooth value noise in 0…1 over a lattice of integer cells.
  @inline(__always)
  static func valueNoise(_ x: Float, _ y: Float) -> Float {
    let xi = Int(x.rounded(.down))
    let yi = Int(y.rounded(.down))
    let fx = x - Float(xi)
    let fy = y - Float(yi)
    let sx = fx * fx * (3 - 2 * fx)
    let sy = fy * fy * (3 - 2 * fy)
    let a = hash(xi, yi)
    let b = hash(xi + 1, yi)
    let c = hash(xi, yi + 1)
    let d = hash(xi + 1, yi + 1)
    return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy
  }

  /// A value in 0…1 determined by the integers, well mixed.
  @inline(__always)
  static func hash(_ x: Int, _ y: Int, _ z: Int = 0) -> Float {
    var h = UInt32(truncatingIfNeeded: x &* 374_761_393 &+ y &* 668_265_263 &+ z &* 2_147_483_647)
    h = (h ^ (h >> 13)) &* 1_274_126_177
    h ^= h >> 16
    return Float(h & 0xFFFF) / 65_535
  }

  /// The scale at which the centre-weighted mean of the clipped picture is mid-grey.
  static func normalisingScale(for renderer: SceneRenderer) -> Float {
    let width = 96
    let height = 72
    var unscaled = renderer
    unscaled.scale = 1
    let map = unscaled.radianceMap(width: width, height: height)
    func mean(at scale: Float) -> Double {
      var sum = 0.0
      var weights = 0.0
      for y in 0..<height {
        for x in 0..<width {
          let offset = (y * width + x) * 3
          let luminance =
            0.2126 * min(map[offset] * scale, 1) + 0.7152 * min(map[offset + 1] * scale, 1)
            + 0.0722 * min(map[offset + 2] * scale, 1)
          let centre =
            (width / 3..<width * 2 / 3 + 1).contains(x)
            && (height / 3..<height * 2 / 3 + 1).contains(y)
          let weight = centre ? 3.0 : 1.0
          sum += Double(luminance) * weight
          weights += weight
        }
      }
      return sum / weights
    }
    // Bisection on log2(scale): the clipped mean only grows with the scale.
    var low: Float = -20
    var high: Float = 20
    for _ in 0..<40 {
      let middle = (low + high) / 2
      if mean(at: Float(pow(2, Double(middle)))) < Metering.midGrey {
        low = middle
      } else {
        high = middle
      }
    }
    return Float(pow(2, Double((low + high) / 2)))
  }
}

/// The cloud cover of a full-size frame at one instant, computed every ``step`` pixels and
/// interpolated between: clouds are soft (their finest detail is tens of pixels across), so
/// this is what exact cover gives at a sixteenth of the work.
struct CloudGrid: Sendable {
  static let step = 4
  let columns: Int
  let rows: Int
  let values: [Float]

  init(renderer: SceneRenderer, width: Int, height: Int, time: Float) {
    let step = Self.step
    let band = Int((SceneRenderer.cloudLine * Float(height)).rounded(.up)) + step
    columns = width / step + 2
    rows = band / step + 2
    let aspect = Float(width) / Float(height)
    var values = [Float](repeating: 0, count: columns * rows)
    for row in 0..<rows {
      let v = (Float(row * step) + 0.5) / Float(height)
      for column in 0..<columns {
        let u = (Float(column * step) + 0.5) / Float(width)
        values[row * columns + column] = renderer.cloudCover(
          u: u, v: v, aspect: aspect, time: time)
      }
    }
    self.values = values
  }

  /// The cover at pixel (x, y), interpolated; 0 below the clouds.
  @inline(__always)
  func cover(x: Int, y: Int) -> Float {
    let step = Self.step
    let column = x / step
    let row = y / step
    guard row + 1 < rows, column + 1 < columns else { return 0 }
    let fx = Float(x - column * step) / Float(step)
    let fy = Float(y - row * step) / Float(step)
    let a = values[row * columns + column]
    let b = values[row * columns + column + 1]
    let c = values[(row + 1) * columns + column]
    let d = values[(row + 1) * columns + column + 1]
    if a == 0, b == 0, c == 0, d == 0 { return 0 }
    let top = a + (b - a) * fx
    let bottom = c + (d - c) * fx
    return top + (bottom - top) * fy
  }
}
