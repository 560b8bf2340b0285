import Foundation

/// Draws the scene camera's picture: sky, the sun or lamps, ground, a house, a tree, a ball
/// and a box, with texture, under a ``ScenePreset``'s light.
///
/// Rendering is in linear light, scaled so that a frame exposed at the preset's EV has a
/// centre-weighted mean of mid-grey (what auto-exposure aims for), then encoded as sRGB.
struct SceneRenderer: Sendable {
  let preset: ScenePreset
  /// Radiance scale that makes the preset's EV the correct exposure.
  private(set) var scale: Float = 1

  init(preset: ScenePreset) {
    self.preset = preset
    scale = Self.normalisingScale(for: self)
  }

  typealias Color = (red: Float, green: Float, blue: Float)

  /// Linear radiance at (u, v), both 0…1 from the top left; `aspect` is width / height.
  func radiance(u: Float, v: Float, aspect: Float) -> Color {
    let horizon: Float = 0.55
    let light = preset.light
    var color: Color
    if v < horizon {
      let t = v / horizon
      let top = preset.skyTop
      let bottom = preset.skyHorizon
      color = (
        top.red + (bottom.red - top.red) * t, top.green + (bottom.green - top.green) * t,
        top.blue + (bottom.blue - top.blue) * t
      )
    } else {
      let depth = (v - horizon) / (1 - horizon)
      let pathHalfWidth = 0.03 + 0.22 * depth
      let onPath = abs(u - 0.5) < pathHalfWidth
      let texture = 0.75 + 0.5 * Self.valueNoise(u * 180 * aspect, v * 180)
      let base: Color = onPath ? (0.32, 0.29, 0.25) : (0.1, 0.19, 0.06)
      let lit = preset.groundLight * (0.7 + 0.6 * depth) * texture
      color = (
        base.red * light.red * lit, base.green * light.green * lit,
        base.blue * light.blue * lit
      )
    }
    let surface = shape(u: u, v: v, aspect: aspect)
    if let surface { color = surface }
    // NB: the sun is behind everything: its disc and glow light only the sky that shows.
    if preset.inSky, surface != nil || v >= horizon { return color }
    for source in preset.sources {
      let dx = (u - source.x) * aspect
      let dy = v - source.y
      let distance = (dx * dx + dy * dy).squareRoot()
      let strength: Float
      if distance < source.radius {
        strength = source.intensity
      } else {
        let q = (distance - source.radius) / source.glow
        let falloff = 1 / (1 + q * q)
        strength = source.intensity * 0.06 * falloff * falloff
      }
      color.red += strength * source.color.red
      color.green += strength * source.color.green
      color.blue += strength * source.color.blue
    }
    return color
  }

  /// The lit colour of the shape at (u, v), or `nil` where there is none.
  private func shape(u: Float, v: Float, aspect: Float) -> Color? {
    let light = preset.light
    let shading = preset.shading
    let level = preset.groundLight
    func lit(_ base: Color, _ lambert: Float) -> Color {
      let factor = ((1 - shading * 0.6) + shading * 0.6 * lambert) * level
      return (
        base.red * light.red * factor, base.green * light.green * factor,
        base.blue * light.blue * factor
      )
    }
    // The house: walls, two windows, a roof.
    if u >= 0.1, u <= 0.36, v >= 0.38, v <= 0.62 {
      let inWindow =
        v >= 0.44 && v <= 0.52 && ((u >= 0.14 && u <= 0.2) || (u >= 0.26 && u <= 0.32))
      if inWindow {
        // Lit from inside when the scene is dark.
        return preset.ev < 8 ? (2.2, 1.5, 0.7) : lit((0.05, 0.07, 0.12), 1)
      }
      let bricks = 0.85 + 0.3 * Self.valueNoise(u * 400 * aspect, v * 300)
      return lit((0.55 * bricks, 0.42 * bricks, 0.32 * bricks), u < 0.23 ? 1 : 0.55)
    }
    if v >= 0.26, v < 0.38 {
      let halfWidth = (v - 0.26) / 0.12 * 0.15
      if abs(u - 0.23) <= halfWidth {
        return lit((0.38, 0.08, 0.06), u < 0.23 ? 0.9 : 0.5)
      }
    }
    // Street lamps stand on poles.
    if preset.poles {
      for source in preset.sources where v > source.y && v < 0.6 {
        if abs((u - source.x) * aspect) < 0.006 { return (0.01, 0.01, 0.012) }
      }
    }
    // The tree: a round canopy on a trunk.
    let cx = (u - 0.7) * aspect
    let cy = v - 0.4
    let canopy = cx * cx + cy * cy
    if canopy < 0.012 {
      let leaves = 0.6 + 0.8 * Self.valueNoise(u * 260 * aspect, v * 260)
      let lambert = 1 - (cx + cy) * 4
      return lit((0.07 * leaves, 0.17 * leaves, 0.04 * leaves), min(max(lambert, 0.2), 1.2))
    }
    if u >= 0.69, u <= 0.715, v >= 0.45, v <= 0.62 {
      return lit((0.18, 0.11, 0.06), 0.7)
    }
    // A blue ball in the foreground.
    let bx = (u - 0.5) * aspect
    let by = v - 0.8
    let ball = bx * bx + by * by
    if ball < 0.0036 {
      let lambert = 1.1 - (bx + by) * 8
      return lit((0.04, 0.1, 0.55), min(max(lambert, 0.15), 1.3))
    }
    // A red box to the right.
    if u >= 0.8, u <= 0.92, v >= 0.66, v <= 0.8 {
      return lit((0.55, 0.06, 0.05), v < 0.7 ? 1.1 : 0.75)
    }
    return nil
  }

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

  /// The radiance of a `width` × `height` grid, scaled, red-green-blue per pixel.
  func radianceMap(width: Int, height: Int) -> [Float] {
    var map = [Float](repeating: 0, count: width * height * 3)
    let aspect = Float(width) / Float(height)
    for y in 0..<height {
      let v = (Float(y) + 0.5) / Float(height)
      for x in 0..<width {
        let u = (Float(x) + 0.5) / Float(width)
        let color = radiance(u: u, v: v, aspect: aspect)
        let offset = (y * width + x) * 3
        map[offset] = color.red * scale
        map[offset + 1] = color.green * scale
        map[offset + 2] = color.blue * scale
      }
    }
    return map
  }

  /// Encodes a radiance map exposed at `exposureEV` as a frame, with a little sensor noise
  /// that changes with `frameIndex`.
  func frame(
    radiance map: [Float], width: Int, height: Int, exposureEV: Double, frameIndex: Int,
    timestamp: Duration
  ) -> Frame {
    var frame = Frame(width: width, height: height, timestamp: timestamp, exposureEV: exposureEV)
    let gain = Float(pow(2, preset.ev - exposureEV))
    frame.pixels.withUnsafeMutableBufferPointer { pixels in
      map.withUnsafeBufferPointer { map in
        for index in 0..<(width * height) {
          let noise = 1 + 0.02 * (Self.hash(index, frameIndex, 7) - 0.5)
          for channel in 0..<3 {
            let value = map[index * 3 + channel] * gain * noise
            pixels[index * 3 + channel] = ColorMath.fastCode(fromLinear: value)
          }
        }
      }
    }
    return frame
  }

  /// Renders a full-resolution frame directly (no radiance map), in chunks of rows between
  /// which `isCancelled` is checked.
  func render(
    width: Int, height: Int, exposureEV: Double, timestamp: Duration,
    isCancelled: () -> Bool = { false }
  ) throws -> Frame {
    var frame = Frame(width: width, height: height, timestamp: timestamp, exposureEV: exposureEV)
    let gain = Float(pow(2, preset.ev - exposureEV)) * scale
    let aspect = Float(width) / Float(height)
    let chunk = max(1, 131_072 / width)
    try frame.pixels.withUnsafeMutableBufferPointer { pixels in
      for y in 0..<height {
        if y % chunk == 0, isCancelled() { throw CancellationError() }
        let v = (Float(y) + 0.5) / Float(height)
        var offset = y * width * 3
        for x in 0..<width {
          let u = (Float(x) + 0.5) / Float(width)
          let color = radiance(u: u, v: v, aspect: aspect)
          let noise = 1 + 0.02 * (Self.hash(x, y, 11) - 0.5)
          pixels[offset] = ColorMath.fastCode(fromLinear: color.red * gain * noise)
          pixels[offset + 1] = ColorMath.fastCode(fromLinear: color.green * gain * noise)
          pixels[offset + 2] = ColorMath.fastCode(fromLinear: color.blue * gain * noise)
          offset += 3
        }
      }
    }
    return frame
  }

  /// The scale at which the centre-weighted mean of the clipped picture is mid-grey.
  private static func normalisingScale(for renderer: SceneRenderer) -> Float {
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
