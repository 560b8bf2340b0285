import CTurboJPEG
import Foundation
import PhotoTimerImaging

/// JPEG encoding and decoding through libjpeg-turbo's TurboJPEG API.
///
/// Every TurboJPEG handle and buffer is created and freed inside one call: nothing C-owned
/// escapes.
///
/// ```swift
/// let bytes = try JPEGCodec.encode(frame, quality: 92)
/// let back = try JPEGCodec.decode(bytes, path: "photo.jpg")
/// ```
public enum JPEGCodec {
  /// The largest image decoded, in pixels (100 megapixels).
  public static let pixelLimit = 100_000_000

  /// Encodes a frame as a baseline JPEG (4:2:0 chroma, accurate integer DCT, like `cjpeg`).
  ///
  /// - Parameters:
  ///   - frame: The pixels.
  ///   - quality: 1…100 (default 92).
  /// - Returns: The JPEG file's bytes, from SOI to EOI, with a JFIF header.
  public static func encode(_ frame: Frame, quality: Int = 92) throws(ImageFileError) -> [UInt8] {
    guard let handle = tjInitCompress() else {
      throw .encodeFailed(reason: "libjpeg-turbo could not start a compressor")
    }
    defer { tjDestroy(handle) }
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    defer { if let buffer { tjFree(buffer) } }
    let status = frame.pixels.withUnsafeBufferPointer { pixels in
      tjCompress2(
        handle, pixels.baseAddress, Int32(frame.width), Int32(frame.bytesPerRow),
        Int32(frame.height), Int32(TJPF_RGB.rawValue), &buffer, &size,
        Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
    }
    guard status == 0, let buffer else {
      throw .encodeFailed(reason: errorText(handle))
    }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }

  /// The size of a JPEG image, read from its header only.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - path: The file's path, for messages.
  public static func size(
    of bytes: [UInt8], path: String
  ) throws(ImageFileError) -> (
    width: Int, height: Int
  ) {
    guard let handle = tjInitDecompress() else {
      throw .damaged(path: path, reason: "libjpeg-turbo could not start a decompressor")
    }
    defer { tjDestroy(handle) }
    return try header(of: bytes, handle: handle, path: path)
  }

  /// Decodes a JPEG into RGB.
  ///
  /// - Parameters:
  ///   - bytes: The file's bytes.
  ///   - path: The file's path, for messages.
  /// - Throws: ``ImageFileError`` when it is empty, too large, damaged or truncated.
  public static func decode(_ bytes: [UInt8], path: String) throws(ImageFileError) -> Frame {
    try decode(bytes, path: path, minimumWidth: nil)
  }

  /// Decodes a JPEG at the smallest of libjpeg-turbo's DCT scales (1/8, 1/4, 1/2 or whole)
  /// that is still at least `minimumWidth` wide: the scaling happens inside the inverse DCT,
  /// so a 1920-wide frame decoded for a 320-wide preview costs a small part of a full decode.
  ///
  /// ```swift
  /// let preview = try JPEGCodec.decode(frameBytes, path: "/dev/video0", minimumWidth: 320)
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The JPEG's bytes.
  ///   - path: Where it came from, for messages.
  ///   - minimumWidth: The narrowest acceptable result; `nil` decodes every pixel.
  /// - Throws: ``ImageFileError`` when it is empty, too large, damaged or truncated.
  public static func decode(
    _ bytes: [UInt8], path: String, minimumWidth: Int?
  ) throws(ImageFileError) -> Frame {
    guard let handle = tjInitDecompress() else {
      throw .damaged(path: path, reason: "libjpeg-turbo could not start a decompressor")
    }
    defer { tjDestroy(handle) }
    let (fullWidth, fullHeight) = try header(of: bytes, handle: handle, path: path)
    let denominator = scaleDenominator(width: fullWidth, minimumWidth: minimumWidth)
    // NB: TJSCALED rounds up.
    let width = (fullWidth + denominator - 1) / denominator
    let height = (fullHeight + denominator - 1) / denominator
    var frame = Frame(width: width, height: height)
    let status = bytes.withUnsafeBufferPointer { source in
      frame.pixels.withUnsafeMutableBufferPointer { target in
        tjDecompress2(
          handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(width),
          Int32(width * 3), Int32(height), Int32(TJPF_RGB.rawValue),
          // NB: a truncated file only warns ("premature end"); for a photo it is damage.
          TJFLAG_STOPONWARNING)
      }
    }
    guard status == 0 else { throw .damaged(path: path, reason: errorText(handle)) }
    return frame
  }

  /// The largest of 8, 4, 2 and 1 that keeps `width / denominator` at least `minimumWidth`.
  static func scaleDenominator(width: Int, minimumWidth: Int?) -> Int {
    guard let minimumWidth, minimumWidth > 0 else { return 1 }
    return [8, 4, 2].first { (width + $0 - 1) / $0 >= minimumWidth } ?? 1
  }

  private static func header(
    of bytes: [UInt8], handle: tjhandle, path: String
  )
    throws(ImageFileError) -> (width: Int, height: Int)
  {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    let status = bytes.withUnsafeBufferPointer { source in
      tjDecompressHeader3(
        handle, source.baseAddress, UInt(source.count), &width, &height, &subsampling,
        &colorspace)
    }
    guard status == 0 else { throw .damaged(path: path, reason: errorText(handle)) }
    guard width > 0, height > 0 else { throw .empty(path: path) }
    guard Int(width) * Int(height) <= pixelLimit else {
      throw .tooLarge(path: path, width: Int(width), height: Int(height), limit: pixelLimit)
    }
    return (Int(width), Int(height))
  }

  private static func errorText(_ handle: tjhandle) -> String {
    guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
    return String(cString: text)
  }
}
