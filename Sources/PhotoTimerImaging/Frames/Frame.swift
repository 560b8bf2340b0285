/// One picture from a camera: 8-bit RGB, row by row, top to bottom.
///
/// A frame is a value: its pixels are a copy-on-write array, so handing a frame to another
/// task, or keeping it in a ring buffer, copies nothing; only a writer that changes pixels
/// pays for its own copy.
///
/// ```swift
/// var frame = Frame(width: 640, height: 480)
/// frame[10, 20] = RGB(red: 255, green: 0, blue: 0)
/// ```
public struct Frame: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Bytes from the start of one row to the next; at least `width * 3`.
  public let bytesPerRow: Int
  /// The pixels: `height` rows of `bytesPerRow` bytes, each pixel red, green, blue.
  public var pixels: [UInt8]
  /// When the frame was taken, on the source's clock, counted from when it was opened.
  public var timestamp: Duration
  /// The exposure the frame was taken with, as EV at ISO 100 (the scene brightness that
  /// renders as mid-grey); `nil` when the source does not know it. Metering needs it to turn
  /// the frame's brightness into the scene's.
  public var exposureEV: Double?

  /// Creates a black frame.
  ///
  /// - Parameters:
  ///   - width: Width in pixels, at least 1.
  ///   - height: Height in pixels, at least 1.
  ///   - timestamp: When it was taken, on the source's clock.
  ///   - exposureEV: The exposure it was taken with, when known.
  public init(width: Int, height: Int, timestamp: Duration = .zero, exposureEV: Double? = nil) {
    precondition(width > 0 && height > 0, "a frame has at least one pixel")
    self.width = width
    self.height = height
    self.bytesPerRow = width * 3
    self.pixels = [UInt8](repeating: 0, count: width * height * 3)
    self.timestamp = timestamp
    self.exposureEV = exposureEV
  }

  /// Wraps pixels that are already laid out as RGB rows.
  ///
  /// - Parameters:
  ///   - width: Width in pixels.
  ///   - height: Height in pixels.
  ///   - bytesPerRow: Bytes per row; at least `width * 3`.
  ///   - pixels: At least `bytesPerRow * height` bytes.
  ///   - timestamp: When it was taken, on the source's clock.
  ///   - exposureEV: The exposure it was taken with, when known.
  /// - Returns: `nil` when the sizes do not fit together.
  public init?(
    width: Int, height: Int, bytesPerRow: Int? = nil, pixels: [UInt8],
    timestamp: Duration = .zero, exposureEV: Double? = nil
  ) {
    let stride = bytesPerRow ?? width * 3
    guard width > 0, height > 0, stride >= width * 3, pixels.count >= stride * height else {
      return nil
    }
    self.width = width
    self.height = height
    self.bytesPerRow = stride
    self.pixels = pixels
    self.timestamp = timestamp
    self.exposureEV = exposureEV
  }

  /// The number of pixels.
  public var pixelCount: Int { width * height }

  /// The pixel at column `x`, row `y`.
  public subscript(x: Int, y: Int) -> RGB {
    get {
      let offset = y * bytesPerRow + x * 3
      return RGB(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
    }
    set {
      let offset = y * bytesPerRow + x * 3
      pixels[offset] = newValue.red
      pixels[offset + 1] = newValue.green
      pixels[offset + 2] = newValue.blue
    }
  }

  /// The same picture with rows packed (`bytesPerRow == width * 3`), as encoders want it.
  public var packed: Frame {
    guard bytesPerRow != width * 3 else { return self }
    var result = Frame(width: width, height: height, timestamp: timestamp, exposureEV: exposureEV)
    let rowBytes = width * 3
    pixels.withUnsafeBufferPointer { source in
      result.pixels.withUnsafeMutableBufferPointer { target in
        for row in 0..<height {
          let from = source.baseAddress.map { $0 + row * bytesPerRow }
          let to = target.baseAddress.map { $0 + row * rowBytes }
          if let from, let to { to.update(from: from, count: rowBytes) }
        }
      }
    }
    return result
  }
}

/// One 8-bit sRGB pixel.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0…255.
  public var red: UInt8
  /// Green, 0…255.
  public var green: UInt8
  /// Blue, 0…255.
  public var blue: UInt8

  /// Creates a pixel.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// A grey of the given level.
  public init(grey: UInt8) { self.init(red: grey, green: grey, blue: grey) }

  /// `rgb(255, 128, 0)`.
  public var description: String { "rgb(\(red), \(green), \(blue))" }
}
