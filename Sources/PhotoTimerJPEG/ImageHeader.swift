/// The format and size of an image file, read from its first bytes, before any decoder
/// allocates anything: an empty or absurdly large image is refused up front.
struct ImageHeader: Equatable {
  enum Format: Equatable {
    case jpeg
    case png
  }

  var format: Format
  var width: Int
  var height: Int

  /// Reads the header of `bytes`.
  ///
  /// - Throws: ``ImageFileError/notAnImage(path:)`` for other formats,
  ///   ``ImageFileError/damaged(path:reason:)`` when the header is cut short,
  ///   ``ImageFileError/empty(path:)`` and ``ImageFileError/tooLarge(path:width:height:limit:)``.
  static func read(
    _ bytes: [UInt8], path: String, pixelLimit: Int
  ) throws(ImageFileError)
    -> ImageHeader
  {
    let header: ImageHeader
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      // The IHDR chunk comes first: length, "IHDR", width, height (big-endian).
      guard bytes.count >= 24, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
        throw .damaged(path: path, reason: "no PNG header")
      }
      header = ImageHeader(
        format: .png, width: bigEndian(bytes, at: 16, count: 4),
        height: bigEndian(bytes, at: 20, count: 4))
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      header = try jpegHeader(bytes, path: path)
    } else {
      throw .notAnImage(path: path)
    }
    guard header.width > 0, header.height > 0 else { throw .empty(path: path) }
    // NB: PNG sides are 32-bit: their product can overflow Int (the fuzzer's first find, a
    // trap on a 51-byte file), so it is computed reporting the overflow.
    let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
    guard !overflow, pixels <= pixelLimit else {
      throw .tooLarge(path: path, width: header.width, height: header.height, limit: pixelLimit)
    }
    return header
  }

  /// Walks the JPEG markers to the first start-of-frame.
  private static func jpegHeader(
    _ bytes: [UInt8], path: String
  ) throws(ImageFileError)
    -> ImageHeader
  {
    var offset = 2
    while offset + 4 <= bytes.count {
      guard bytes[offset] == 0xFF else {
        throw .damaged(path: path, reason: "bad marker at byte \(offset)")
      }
      let marker = bytes[offset + 1]
      if marker == 0xFF {  // fill byte
        offset += 1
        continue
      }
      let length = bigEndian(bytes, at: offset + 2, count: 2)
      let isStartOfFrame =
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
      if isStartOfFrame {
        guard offset + 9 <= bytes.count else { break }
        return ImageHeader(
          format: .jpeg, width: bigEndian(bytes, at: offset + 7, count: 2),
          height: bigEndian(bytes, at: offset + 5, count: 2))
      }
      guard length >= 2 else { throw .damaged(path: path, reason: "bad segment length") }
      offset += 2 + length
    }
    throw .damaged(path: path, reason: "no image header before the end of the file")
  }

  private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
    bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
  }
}
