import CQRencode

/// A QR code of the remote's link (libqrencode), to scan with a phone's camera.
///
/// ```swift
/// let code = try QRCode(encoding: server.links[0])
/// for line in code.halfBlockLines() { print(line) }   // two modules per character cell
/// ```
public struct QRCode: Hashable, Sendable {
  /// Modules per side, without the quiet zone.
  public let size: Int
  /// The modules row by row; `true` is dark.
  public let modules: [Bool]

  /// Encodes `text` at error-correction level M (15 % of the code can be lost).
  ///
  /// - Returns: `nil` when the text is too long for a QR code.
  public init?(encoding text: String) {
    guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
    defer { QRcode_free(code) }
    let width = Int(code.pointee.width)
    size = width
    modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
  }

  /// Whether the module at (`x`, `y`) is dark; outside the code (the quiet zone) it is light.
  public func isDark(x: Int, y: Int) -> Bool {
    guard x >= 0, y >= 0, x < size, y < size else { return false }
    return modules[y * size + x]
  }

  /// The code as lines of half blocks (`▀`, `▄`, `█`, space), two modules a cell, with a quiet
  /// zone of `quiet` modules: a light module is drawn, a dark one left blank, so print it in a
  /// light foreground on a dark background (or give colours to `halfBlockLines(dark:light:)`).
  public func halfBlockLines(quiet: Int = 2) -> [String] {
    let range = -quiet..<(size + quiet)
    return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
      String(
        range.map { x -> Character in
          switch (!isDark(x: x, y: y), !isDark(x: x, y: y + 1) && y + 1 < range.upperBound) {
          case (true, true): "█"
          case (true, false): "▀"
          case (false, true): "▄"
          case (false, false): " "
          }
        })
    }
  }

  /// The code as 8-bit RGB pixels, `scale` pixels a module, with a quiet zone of `quiet`
  /// modules: black on white.
  public func rgb(scale: Int, quiet: Int = 4) -> (width: Int, height: Int, pixels: [UInt8]) {
    let side = (size + 2 * quiet) * scale
    var pixels = [UInt8](repeating: 255, count: side * side * 3)
    for y in 0..<size {
      for x in 0..<size where isDark(x: x, y: y) {
        for dy in 0..<scale {
          let row = ((y + quiet) * scale + dy) * side
          let start = (row + (x + quiet) * scale) * 3
          for index in start..<(start + scale * 3) { pixels[index] = 0 }
        }
      }
    }
    return (side, side, pixels)
  }

  /// The code as an SVG picture, black on white, with a quiet zone of `quiet` modules: one
  /// path, sharp at any size (the phone's page shows the guests' code with it).
  package func svg(quiet: Int = 4) -> String {
    let side = size + 2 * quiet
    var path = ""
    for y in 0..<size {
      for x in 0..<size where isDark(x: x, y: y) {
        path += "M\(x + quiet) \(y + quiet)h1v1h-1z"
      }
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" "
      + "shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" "
      + "fill=\"#fff\"/><path d=\"\(path)\" fill=\"#000\"/></svg>"
  }
}
