import CPNG
import PhotoTimerImaging

/// PNG decoding through libpng's simplified API (no `setjmp` on this side), composited on
/// white when the image has transparency.
package enum PNGDecoder {
  package static func decode(_ bytes: [UInt8], path: String) throws(ImageFileError) -> Frame {
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
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixels <= JPEGCodec.pixelLimit else {
      throw .tooLarge(path: path, width: width, height: height, limit: JPEGCodec.pixelLimit)
    }
    image.format = UInt32(PNG_FORMAT_RGB)
    var frame = Frame(width: width, height: height)
    var white = png_color(red: 255, green: 255, blue: 255)
    let finished = frame.pixels.withUnsafeMutableBufferPointer { target in
      png_image_finish_read(&image, &white, target.baseAddress, Int32(width * 3), nil)
    }
    guard finished != 0 else { throw .damaged(path: path, reason: message(image)) }
    return frame
  }

  /// The PNG's pixels with their transparency (a collage's overlay): straight RGBA.
  package static func decodeRGBA(_ bytes: [UInt8], path: String) throws(ImageFileError) -> RGBAImage
  {
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
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixels <= JPEGCodec.pixelLimit else {
      throw .tooLarge(path: path, width: width, height: height, limit: JPEGCodec.pixelLimit)
    }
    // NB: PNG_FORMAT_RGBA is a macro of macros Swift does not import.
    image.format = UInt32(PNG_FORMAT_RGB) | UInt32(PNG_FORMAT_FLAG_ALPHA)
    var layer = RGBAImage(width: width, height: height)
    let finished = layer.pixels.withUnsafeMutableBufferPointer { target in
      png_image_finish_read(&image, nil, target.baseAddress, Int32(width * 4), nil)
    }
    guard finished != 0 else { throw .damaged(path: path, reason: message(image)) }
    return layer
  }

  private static func message(_ image: png_image) -> String {
    var message = image.message
    return withUnsafeBytes(of: &message) { raw in
      let text = raw.prefix { $0 != 0 }
      return text.isEmpty ? "libpng could not read it" : String(decoding: text, as: UTF8.self)
    }
  }
}
