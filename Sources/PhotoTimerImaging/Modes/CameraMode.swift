import Foundation

/// A pixel format a camera streams in, named by its V4L2 four-character code.
///
/// ```swift
/// PixelFormat.mjpeg.description  // "MJPEG"
/// PixelFormat(fourCC: "YUYV").isCompressed  // false
/// ```
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
  /// The four-character code, such as `"YUYV"`, `"NV12"` or `"MJPG"`.
  public var fourCC: String

  /// Creates a format from its four-character code.
  public init(fourCC: String) { self.fourCC = fourCC }

  /// Motion JPEG: each frame a JPEG, as most webcams give their large sizes.
  public static let mjpeg = PixelFormat(fourCC: "MJPG")
  /// Packed 4:2:2 YUV, most webcams' raw format.
  public static let yuyv = PixelFormat(fourCC: "YUYV")

  /// Whether each frame is a JPEG (MJPEG, JPEG).
  public var isCompressed: Bool { fourCC == "MJPG" || fourCC == "JPEG" }

  /// `"MJPEG"` for Motion JPEG, else the four-character code.
  public var description: String { isCompressed ? "MJPEG" : fourCC }
}

/// A frame rate as a fraction, the way drivers give it: `30/1`, `25/2` (12.5 fps).
public struct FrameRate: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Frames…
  public var frames: Int
  /// …per this many seconds.
  public var seconds: Int

  /// Creates a rate of `frames` per `seconds` (both at least 1).
  public init(frames: Int, per seconds: Int = 1) {
    self.frames = max(frames, 1)
    self.seconds = max(seconds, 1)
  }

  /// Frames per second.
  public var perSecond: Double { Double(frames) / Double(seconds) }

  /// The time between frames.
  public var interval: Duration { .seconds(Double(seconds) / Double(frames)) }

  /// `"30 fps"`, `"12.5 fps"`.
  public var description: String {
    let tenths = (perSecond * 10).rounded()
    let text =
      tenths.truncatingRemainder(dividingBy: 10) == 0
      ? String(Int(tenths / 10)) : String(tenths / 10)
    return "\(text) fps"
  }

  /// Whether `lhs` is slower than `rhs`.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.frames * rhs.seconds < rhs.frames * lhs.seconds
  }

  /// Whether both are the same rate (`50/2` is `25/1`).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.frames * rhs.seconds == rhs.frames * lhs.seconds
  }

  /// Hashes the rate, so that equal rates hash alike.
  public func hash(into hasher: inout Hasher) { hasher.combine(perSecond) }
}

/// A frame size in pixels.
public struct FrameSize: Hashable, Sendable, CustomStringConvertible {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int

  /// Creates a size.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Reads `"1280x720"` (or `1280×720`); `nil` unless both sides are 1…65,535.
  public init?(_ text: String) {
    let parts = text.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (1...65_535).contains(width), (1...65_535).contains(height)
    else { return nil }
    self.init(width: width, height: height)
  }

  /// The number of pixels.
  public var area: Int { width * height }

  /// `"1280×720"`.
  public var description: String { "\(width)×\(height)" }
}

/// One size a camera gives in one format, and the rates it gives it at.
public struct CameraMode: Hashable, Sendable, CustomStringConvertible {
  /// The pixel format.
  public var format: PixelFormat
  /// The frame size.
  public var size: FrameSize
  /// The rates, fastest first.
  public var rates: [FrameRate]

  /// Creates a mode; the rates are sorted fastest first, duplicates dropped.
  public init(format: PixelFormat, size: FrameSize, rates: [FrameRate]) {
    self.format = format
    self.size = size
    var unique: [FrameRate] = []
    for rate in rates.sorted(by: >) where !unique.contains(rate) { unique.append(rate) }
    self.rates = unique
  }

  /// `"1280×720 MJPEG 30, 15 fps"`.
  public var description: String {
    let rates = self.rates.map { $0.description.replacingOccurrences(of: " fps", with: "") }
    return "\(size) \(format) \(rates.joined(separator: ", ")) fps"
  }
}

/// The mode a camera streams in: one format, one size, one rate.
public struct StreamMode: Hashable, Sendable, CustomStringConvertible {
  /// The pixel format.
  public var format: PixelFormat
  /// The frame size.
  public var size: FrameSize
  /// The frame rate.
  public var rate: FrameRate

  /// Creates a stream mode.
  public init(format: PixelFormat, size: FrameSize, rate: FrameRate) {
    self.format = format
    self.size = size
    self.rate = rate
  }

  /// `"1280×720 MJPEG 30 fps"`.
  public var description: String { "\(size) \(format) \(rate)" }
}
