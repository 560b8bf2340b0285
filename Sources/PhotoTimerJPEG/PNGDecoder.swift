import CPNG
import PhotoTimerImaging

/// PNG decoding through libpng's simplified API (no `setjmp` on this side), composited on
/// white when the image has transparency.
package enum PNGDecoder {
  package static func decode(_ bytes: [UInt8], path: String) throws(ImageFileError) -> Frame {
    var white = png_color(red: 255, green: 255, blue: 255)
    let (width, height, pixels) = try read(
      bytes, path: path, format: UInt32(PNG_FORMAT_RGB), channels: 3, background: &white)
    guard let frame = Frame(width: width, height: height, bytesPerRow: width * 3, pixels: pixels)
    else { throw .damaged(path: path, reason: "libpng gave the wrong number of bytes") }
    return frame
  }

  /// The PNG's pixels with their transparency (a collage's overlay): straight RGBA.
  package static func decodeRGBA(_ bytes: [UInt8], path: String) throws(ImageFileError) -> RGBAImage
  {
    // NB: PNG_FORMAT_RGBA is a macro of macros Swift does not import.
    let (width, height, pixels) = try read(
      bytes, path: path, format: UInt32(PNG_FORMAT_RGB) | UInt32(PNG_FORMAT_FLAG_ALPHA),
      channels: 4, background: nil)
    guard let layer = RGBAImage(width: width, height: height, pixels: pixels) else {
      throw .damaged(path: path, reason: "libpng gave the wrong number of bytes")
    }
    return layer
  }

  /// The PNG's pixels in libpng's `format` of `channels` bytes a pixel, rows packed, over
  /// `background` where a format without alpha meets transparency.
  private static func read(
    _ bytes: [UInt8], path: String, format: UInt32, channels: Int,
    background: UnsafeMutablePointer<png_color>?
  ) throws(ImageFileError) -> (width: Int, height: Int, pixels: [UInt8]) {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    let began = bytes.withUnsafeBufferPointer { source in
      png_image_begin_read_from_memory(&image, source.baseAddress, source.count)
    }
    defer { png_image_free(&image) }
    guard began != 0 else { throw .damaged(path: path, reason: message(image)) }
    let width = Int(image.width)
    let height = Int(image.height)
    guard width > 0, height > 0 else { throw .empty(path: path) }
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, count <= JPEGCodec.pixelLimit else {
      throw .tooLarge(path: path, width: width, height: height, limit: JPEGCodec.pixelLimit)
    }
    image.format = format
    var pixels = [UInt8](repeating: 0, count: count * channels)
    let finished = pixels.withUnsafeMutableBufferPointer { target in
      png_image_finish_read(&image, background, target.baseAddress, Int32(width * channels), nil)
    }
    guard finished != 0 else { throw .damaged(path: path, reason: message(image)) }
    return (width, height, pixels)
  }

  private static func message(_ image: png_image) -> String {
    var message = image.message
    return withUnsafeBytes(of: &message) { raw in
      let text = raw.prefix { $0 != 0 }
      return text.isEmpty ? "libpng could not read it" : String(decoding: text, as: UTF8.self)
    }
  }
}
