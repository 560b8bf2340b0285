import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// Draws the scene camera's picture: sky, the sun or lamps, ground, a house, a tree, a ball
/// and a box, with texture, under a ``ScenePreset``'s light.
///
/// Rendering is in linear light, scaled so that a frame exposed at the preset's EV has a
/// centre-weighted mean of mid-grey (what auto-exposure aims for), then encoded as sRGB.
struct SceneRenderer: Sendable {
  let preset: ScenePreset
  /// Radiance scale that makes the preset's EV the correct exposure.
  var scale: Float = 1

  init(preset: ScenePreset) {
    self.preset = preset
    scale = Self.normalisingScale(for: self)
  }

  typealias Color = (red: Float, green: Float, blue: Float)

  /// The horizon, as a fraction of the height from the top.
  static var horizon: Float { 0.55 }
  /// Clouds float above this line (fraction of the height), thinning out towards it.
  static var cloudLine: Float { 0.4 }
  /// The box the swaying canopy stays in (u, then v, from the top left).
  /// The canopy is 0.11 heights round about u 0.7, v 0.4, and leans at most 1.05 % of the
  /// width: a box as wide as that for a picture of `aspect` (width / height).
  static func treeBox(aspect: Float) -> (u: ClosedRange<Float>, v: ClosedRange<Float>) {
    let half = 0.115 / aspect + 0.012
    return ((0.7 - half)...(0.7 + half), 0.28...0.52)
  }

  /// Linear radiance at (u, v), both 0…1 from the top left, `time` seconds after the camera
  /// opened (clouds drift, the tree sways); `aspect` is width / height. `veil` is the cloud
  /// cover there when already known (0 draws a clear sky).
  func radiance(
    u: Float, v: Float, aspect: Float, time: Float = 0, veil known: Float? = nil
  )
    -> Color
  {
    let horizon = Self.horizon
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
    let surface = shape(u: u, v: v, aspect: aspect, time: time)
    if let surface { color = surface }
    // NB: the sun is behind everything: its disc and glow light only the sky that shows.
    if preset.inSky, surface != nil || v >= horizon { return color }
    var veil: Float = 0
    if surface == nil, v < Self.cloudLine {
      veil = known ?? cloudCover(u: u, v: v, aspect: aspect, time: time)
      let cloud = preset.cloudColor
      color = (
        color.red + (cloud.red - color.red) * veil,
        color.green + (cloud.green - color.green) * veil,
        color.blue + (cloud.blue - color.blue) * veil
      )
    }
    for source in preset.sources {
      let dx = (u - source.x) * aspect
      let dy = v - source.y
      let distance = (dx * dx + dy * dy).squareRoot()
      var strength: Float
      if distance < source.radius {
        strength = source.intensity
      } else {
        let q = (distance - source.radius) / source.glow
        let falloff = 1 / (1 + q * q)
        strength = source.intensity * 0.06 * falloff * falloff
      }
      // A cloud in front of the sun dims it.
      strength *= 1 - 0.85 * veil
      color.red += strength * source.color.red
      color.green += strength * source.color.green
      color.blue += strength * source.color.blue
    }
    return color
  }

  /// How much cloud covers the sky at (u, v) at `time`: 0 (clear) to the preset's amount.
  /// The clouds drift to the right at 0.6 % of the width a second.
  func cloudCover(u: Float, v: Float, aspect: Float, time: Float) -> Float {
    guard preset.clouds > 0, v < Self.cloudLine else { return 0 }
    let x = (u - time * 0.006) * aspect * 3.5
    let y = v * 8
    let noise =
      0.6 * Self.valueNoise(x, y) + 0.3 * Self.valueNoise(x * 2.1 + 17, y * 2.3 + 5)
      + 0.1 * Self.valueNoise(x * 4.7 + 3, y * 4.1 + 11)
    let density = Self.smoothstep(0.48, 0.72, noise)
    let thinning = 1 - Self.smoothstep(Self.cloudLine * 0.6, Self.cloudLine, v)
    return density * thinning * preset.clouds
  }

  /// How far the canopy leans (in widths) at height `v` and `time`: most at the top, none
  /// at the trunk; a slow sway with a quicker flutter on it.
  static func sway(v: Float, time: Float) -> Float {
    let lean = max(0, min(1, (0.5 - v) / 0.2))
    let phase = time * 2 * .pi
    return lean * (0.008 * sin(phase / 2.9) + 0.0025 * sin(phase / 1.1 + 1.3))
  }

  /// Whether (u, v) can change from frame to frame: the sky where clouds drift, and the box
  /// the tree sways in. Everything else is drawn once.
  func isMoving(u: Float, v: Float, aspect: Float) -> Bool {
    if preset.clouds > 0, v < Self.cloudLine { return true }
    let box = Self.treeBox(aspect: aspect)
    return box.u.contains(u) && box.v.contains(v)
  }

  @inline(__always)
  static func smoothstep(_ low: Float, _ high: Float, _ x: Float) -> Float {
    let t = max(0, min(1, (x - low) / (high - low)))
    return t * t * (3 - 2 * t)
  }

  /// The lit colour of the shape at (u, v), or `nil` where there is none.
  private func shape(u: Float, v: Float, aspect: Float, time: Float) -> Color? {
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
    // The tree: a round canopy on a trunk, swaying (the sway worked out only near it).
    let cy = v - 0.4
    let cx =
      cy * cy < 0.012 && abs(u - 0.7) * aspect < 0.13
      ? (u - 0.7 - Self.sway(v: v, time: time)) * aspect : 1
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

  /// The pixels of a `width` × `height` grid that can change from frame to frame (see
  /// ``isMoving(u:v:aspect:)``), as indices into the grid.
  func movingPixels(width: Int, height: Int) -> [Int32] {
    var moving: [Int32] = []
    for y in 0..<height {
      let v = (Float(y) + 0.5) / Float(height)
      let aspect = Float(width) / Float(height)
      for x in 0..<width where isMoving(u: (Float(x) + 0.5) / Float(width), v: v, aspect: aspect) {
        moving.append(Int32(y * width + x))
      }
    }
    return moving
  }

  /// One preview: the still parts from `map` (a ``radianceMap(width:height:)``), the moving
  /// ones drawn at `time`, exposed at `exposureEV`, with sensor noise that changes with
  /// `frameIndex`.
  func preview(
    map: [Float], moving: [Int32], width: Int, height: Int, exposureEV: Double, frameIndex: Int,
    time: Float, timestamp: Duration
  ) -> Frame {
    var radiance = map
    let aspect = Float(width) / Float(height)
    radiance.withUnsafeMutableBufferPointer { radiance in
      for index in moving {
        let pixel = Int(index)
        let u = (Float(pixel % width) + 0.5) / Float(width)
        let v = (Float(pixel / width) + 0.5) / Float(height)
        let color = self.radiance(u: u, v: v, aspect: aspect, time: time)
        radiance[pixel * 3] = color.red * scale
        radiance[pixel * 3 + 1] = color.green * scale
        radiance[pixel * 3 + 2] = color.blue * scale
      }
    }
    var frame = Frame(width: width, height: height, timestamp: timestamp, exposureEV: exposureEV)
    let gain = Float(pow(2, preset.ev - exposureEV))
    let amount = preset.noise
    frame.pixels.withUnsafeMutableBufferPointer { pixels in
      radiance.withUnsafeBufferPointer { radiance in
        for index in 0..<(width * height) {
          let noise = 1 + amount * (Self.hash(index, frameIndex, 7) - 0.5)
          for channel in 0..<3 {
            let value = radiance[index * 3 + channel] * gain * noise
            pixels[index * 3 + channel] = ColorMath.fastCode(fromLinear: value)
          }
        }
      }
    }
    return frame
  }

  /// Renders a full-resolution frame at time zero directly (no radiance map), in chunks of
  /// rows between which `isCancelled` is checked: the still a photo starts from, its sky
  /// clear (``drawMoving(into:exposureEV:time:frameIndex:isCancelled:)`` adds the clouds of
  /// the moment) unless `clouds`.
  func render(
    width: Int, height: Int, exposureEV: Double, timestamp: Duration, clouds: Bool = false,
    time: Float = 0, isCancelled: () -> Bool = { false }
  ) throws -> Frame {
    var frame = Frame(width: width, height: height, timestamp: timestamp, exposureEV: exposureEV)
    let chunk = max(1, 131_072 / width)
    try frame.pixels.withUnsafeMutableBufferPointer { pixels in
      for y in stride(from: 0, to: height, by: chunk) {
        if isCancelled() { throw CancellationError() }
        drawRows(
          y..<min(y + chunk, height), into: pixels, width: width, height: height,
          exposureEV: exposureEV, time: time, frameIndex: 11, movingOnly: false, clouds: clouds)
      }
    }
    return frame
  }

  /// Redraws the moving parts of a full-resolution still (from ``render(width:height:exposureEV:timestamp:isCancelled:)``)
  /// as they are at `time`, with that frame's noise, on every core.
  func drawMoving(
    into frame: inout Frame, exposureEV: Double, time: Float, frameIndex: Int,
    isCancelled: @Sendable () -> Bool = { false }
  ) throws {
    let width = frame.width
    let height = frame.height
    // Only rows that hold something moving: the cloudy sky and the tree's box.
    let last = Int(
      (max(preset.clouds > 0 ? Self.cloudLine : 0, Self.treeBox(aspect: 1).v.upperBound)
        * Float(height)).rounded(.up))
    let rows = min(height, last + 1)
    let grid = CloudGrid(renderer: self, width: width, height: height, time: time)
    let parts = 8
    let cancelled = Locked(false)
    frame.pixels.withUnsafeMutableBufferPointer { pixels in
      let base = UncheckedPointer(pixels)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        guard !isCancelled() else {
          cancelled.withLock { $0 = true }
          return
        }
        let from = rows * part / parts
        let to = rows * (part + 1) / parts
        drawRows(
          from..<to, into: base.buffer, width: width, height: height, exposureEV: exposureEV,
          time: time, frameIndex: frameIndex, movingOnly: true, clouds: true, grid: grid)
      }
    }
    if cancelled.withLock({ $0 }) { throw CancellationError() }
  }

  /// Draws `rows` of a `width` × `height` picture into `pixels`: all of each row (with or
  /// without `clouds`), or, `movingOnly`, what moves over a clear-sky still: the tree's box,
  /// and the sky only where a cloud covers it at `time`.
  private func drawRows(
    _ rows: Range<Int>, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
    exposureEV: Double, time: Float, frameIndex: Int, movingOnly: Bool, clouds: Bool,
    grid: CloudGrid? = nil
  ) {
    let gain = Float(pow(2, preset.ev - exposureEV)) * scale
    let aspect = Float(width) / Float(height)
    let amount = preset.noise
    let box = Self.treeBox(aspect: aspect)
    let treeColumns =
      Int(
        (box.u.lowerBound * Float(width)).rounded(.down))..<Int(
        (box.u.upperBound * Float(width)).rounded(.up))
    for y in rows {
      let v = (Float(y) + 0.5) / Float(height)
      let columns: Range<Int>
      if !movingOnly || (preset.clouds > 0 && v < Self.cloudLine) {
        columns = 0..<width
      } else if box.v.contains(v) {
        columns = max(0, treeColumns.lowerBound)..<min(width, treeColumns.upperBound)
      } else {
        continue
      }
      var offset = (y * width + columns.lowerBound) * 3
      for x in columns {
        let u = (Float(x) + 0.5) / Float(width)
        var veil: Float? = clouds ? nil : 0
        if movingOnly, !(treeColumns.contains(x) && box.v.contains(v)) {
          // The still's clear sky is right wherever no cloud covers it now.
          let cover =
            grid?.cover(x: x, y: y) ?? cloudCover(u: u, v: v, aspect: aspect, time: time)
          guard cover > 0 else {
            offset += 3
            continue
          }
          veil = cover
        }
        let color = radiance(u: u, v: v, aspect: aspect, time: time, veil: veil)
        let noise = 1 + amount * (Self.hash(x, y, frameIndex) - 0.5)
        pixels[offset] = ColorMath.fastCode(fromLinear: color.red * gain * noise)
        pixels[offset + 1] = ColorMath.fastCode(fromLinear: color.green * gain * noise)
        pixels[offset + 2] = ColorMath.fastCode(fromLinear: color.blue * gain * noise)
        offset += 3
      }
    }
  }
}

/// A buffer handed to the parts of one `concurrentPerform`, each writing rows of its own.
private struct UncheckedPointer: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<UInt8>
  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }
}
