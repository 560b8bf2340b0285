import Foundation

/// What a preview frame measures: brightness, contrast, clipping, colourfulness and colour
/// cast. Computed on a grid of at most ~20,000 samples, so it costs the same for any size.
///
/// ```swift
/// let stats = SceneStatistics(frame)
/// stats.meanLuma      // 0.46
/// stats.warmth        // +0.8: reddish light
/// ```
package struct SceneStatistics: Hashable, Sendable, CustomStringConvertible {
  /// Mean linear luminance, centre-weighted (the centre third counts three times), 0…1.
  public var meanLinear: Double
  /// Mean sRGB-encoded luma, 0…1, unweighted: how bright the picture looks.
  public var meanLuma: Double
  /// Standard deviation of the encoded luma, 0…0.5: how contrasty the picture looks.
  public var contrast: Double
  /// Fraction of samples with a channel at 250 or more.
  public var highlights: Double
  /// Fraction of samples with luma at 10 or less.
  public var shadows: Double
  /// Mean saturation (max − min over max of the channels), 0…1.
  public var saturation: Double
  /// Colour cast as log2(mean linear red / mean linear blue): 0 is neutral, positive warm
  /// (tungsten, low sun), negative cool (shade, blue hour).
  public var warmth: Double
  /// How many samples were measured.
  public var samples: Int

  /// Measures `frame`.
  public init(_ frame: Frame) {
    let step = max(1, Int((Double(frame.pixelCount) / 20_000).squareRoot().rounded(.down)))
    let linear = ColorMath.linearFromCode
    var weightedLinear = 0.0
    var totalWeight = 0.0
    var lumaSum = 0.0
    var lumaSquares = 0.0
    var clipped = 0
    var dark = 0
    var saturationSum = 0.0
    var redSum = 0.0
    var blueSum = 0.0
    var count = 0
    let centreX = (frame.width / 3)..<(frame.width * 2 / 3 + 1)
    let centreY = (frame.height / 3)..<(frame.height * 2 / 3 + 1)
    frame.pixels.withUnsafeBufferPointer { pixels in
      var y = step / 2
      while y < frame.height {
        var x = step / 2
        let row = y * frame.bytesPerRow
        while x < frame.width {
          let offset = row + x * 3
          let red = pixels[offset]
          let green = pixels[offset + 1]
          let blue = pixels[offset + 2]
          let redLinear = Double(linear[Int(red)])
          let greenLinear = Double(linear[Int(green)])
          let blueLinear = Double(linear[Int(blue)])
          let luminance = 0.2126 * redLinear + 0.7152 * greenLinear + 0.0722 * blueLinear
          let weight = centreX.contains(x) && centreY.contains(y) ? 3.0 : 1.0
          weightedLinear += luminance * weight
          totalWeight += weight
          let luma = Double(ColorMath.luma(red, green, blue)) / 255
          lumaSum += luma
          lumaSquares += luma * luma
          if max(red, green, blue) >= 250 { clipped += 1 }
          if luma <= 10.0 / 255 { dark += 1 }
          let high = max(red, green, blue)
          let low = min(red, green, blue)
          if high > 0 { saturationSum += Double(high - low) / Double(high) }
          redSum += redLinear
          blueSum += blueLinear
          count += 1
          x += step
        }
        y += step
      }
    }
    let samples = Double(count)
    meanLinear = weightedLinear / totalWeight
    meanLuma = lumaSum / samples
    contrast = max(0, lumaSquares / samples - meanLuma * meanLuma).squareRoot()
    highlights = Double(clipped) / samples
    shadows = Double(dark) / samples
    saturation = saturationSum / samples
    warmth = log2(max(redSum, 1e-6) / max(blueSum, 1e-6))
    self.samples = count
  }

  /// The figures, two decimals each.
  public var description: String {
    func fixed(_ value: Double) -> String {
      let scaled = Int((value * 100).rounded())
      let sign = scaled < 0 ? "-" : ""
      let magnitude = abs(scaled)
      return "\(sign)\(magnitude / 100).\(magnitude % 100 < 10 ? "0" : "")\(magnitude % 100)"
    }
    return "luma \(fixed(meanLuma)), contrast \(fixed(contrast)), highlights "
      + "\(fixed(highlights)), shadows \(fixed(shadows)), saturation \(fixed(saturation)), "
      + "warmth \(fixed(warmth))"
  }
}
