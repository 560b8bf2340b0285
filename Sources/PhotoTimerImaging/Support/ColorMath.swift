import Foundation

/// sRGB transfer functions and tables shared by rendering, analysis and looks.
enum ColorMath {
  /// Linear light 0…1 from an 8-bit sRGB code, for each of the 256 codes.
  static let linearFromCode: [Float] = (0..<256).map { code in
    let value = Float(code) / 255
    return value <= 0.04045 ? value / 12.92 : Float(pow(Double((value + 0.055) / 1.055), 2.4))
  }

  /// The 8-bit sRGB code of linear light 0…1 (clamped).
  static func code(fromLinear value: Float) -> UInt8 {
    let clamped = min(max(value, 0), 1)
    let encoded =
      clamped <= 0.003_130_8
      ? clamped * 12.92 : 1.055 * Float(pow(Double(clamped), 1 / 2.4)) - 0.055
    return UInt8((encoded * 255).rounded())
  }

  /// A table from linear light in 4,096 steps to the sRGB code, for fast rendering.
  static let codeFromLinear4096: [UInt8] = (0..<4096).map { code(fromLinear: Float($0) / 4095) }

  /// The sRGB code of linear light, through ``codeFromLinear4096``.
  @inline(__always)
  static func fastCode(fromLinear value: Float) -> UInt8 {
    let index = Int(min(max(value, 0), 1) * 4095 + 0.5)
    return codeFromLinear4096[index]
  }

  /// Rec. 709 luma weights in 8-bit fixed point (sum 256), on sRGB codes.
  @inline(__always)
  static func luma(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
    (54 * Int(red) + 183 * Int(green) + 19 * Int(blue)) >> 8
  }
}
