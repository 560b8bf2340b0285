import CExif

/// The one owner of libexif's state: an EXIF block being read, written or merged, with its
/// allocator; both are released when the document goes.
///
/// Every use of libexif in this target goes through here: ``ExifBlock`` builds a block from
/// nothing, merges ours into a camera's, and ``JPEGFile`` reads the orientation and exposure.
final class ExifDocument {
  private let memory: OpaquePointer
  private let data: UnsafeMutablePointer<ExifData>

  /// A new, empty block, written exactly as described (libexif adds and drops no tag),
  /// little-endian, for a JPEG.
  ///
  /// - Throws: ``ImageFileError/encodeFailed(reason:)`` when libexif cannot allocate.
  convenience init() throws(ImageFileError) {
    try self.init(loading: nil)
    exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL)
    exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
  }

  /// The block in `bytes`: an APP1 payload (`Exif\0\0…`) or a whole JPEG file, which libexif
  /// searches for its block; `nil` starts empty. Tags are kept as the camera wrote them.
  ///
  /// - Throws: ``ImageFileError/encodeFailed(reason:)`` when libexif cannot allocate.
  init(loading bytes: [UInt8]?) throws(ImageFileError) {
    guard let memory = exif_mem_new_default() else {
      throw .encodeFailed(reason: "libexif could not allocate memory")
    }
    guard let data = exif_data_new_mem(memory) else {
      exif_mem_unref(memory)
      throw .encodeFailed(reason: "libexif could not allocate memory")
    }
    self.memory = memory
    self.data = data
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
    if let bytes {
      bytes.withUnsafeBufferPointer { buffer in
        exif_data_load_data(data, buffer.baseAddress, UInt32(clamping: buffer.count))
      }
    }
  }

  deinit {
    exif_data_unref(data)
    exif_mem_unref(memory)
  }

  /// Whether numbers are stored big-endian (many cameras).
  private var isBigEndian: Bool { exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_MOTOROLA }

  private func content(_ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent>? {
    switch ifd {
    case EXIF_IFD_0: data.pointee.ifd.0
    case EXIF_IFD_EXIF: data.pointee.ifd.2
    case EXIF_IFD_GPS: data.pointee.ifd.3
    default: nil
    }
  }

  private func entry(
    _ ifd: ExifIfd, _ tag: UInt32, _ format: ExifFormat, size: UInt32
  )
    -> UnsafeMutablePointer<UInt8>?
  {
    guard let content = content(ifd),
      let entry = exif_content_get_entry(content, ExifTag(rawValue: tag)),
      entry.pointee.format == format, entry.pointee.size >= size
    else { return nil }
    return entry.pointee.data
  }

  /// A SHORT tag's first value.
  func short(_ ifd: ExifIfd, _ tag: UInt32) -> Int? {
    entry(ifd, tag, EXIF_FORMAT_SHORT, size: 2).map {
      Int(exif_get_short($0, exif_data_get_byte_order(data)))
    }
  }

  /// A RATIONAL tag's first value; `nil` when its denominator is zero.
  func rational(_ ifd: ExifIfd, _ tag: UInt32) -> Double? {
    guard let raw = entry(ifd, tag, EXIF_FORMAT_RATIONAL, size: 8) else { return nil }
    let value = exif_get_rational(raw, exif_data_get_byte_order(data))
    guard value.denominator != 0 else { return nil }
    return Double(value.numerator) / Double(value.denominator)
  }

  /// Adds `entries` in tag order, replacing any entry with the same tag; little-endian
  /// numbers are swapped for a big-endian block.
  ///
  /// - Throws: ``ImageFileError/encodeFailed(reason:)`` when libexif cannot allocate.
  func add(_ entries: [ExifBlock.Entry]) throws(ImageFileError) {
    for entry in entries.sorted(by: { ($0.ifd.rawValue, $0.tag) < ($1.ifd.rawValue, $1.tag) }) {
      guard let content = content(entry.ifd), let item = exif_entry_new_mem(memory)
      else { throw .encodeFailed(reason: "libexif could not allocate memory") }
      defer { exif_entry_unref(item) }
      if let existing = exif_content_get_entry(content, ExifTag(rawValue: UInt32(entry.tag))) {
        exif_content_remove_entry(content, existing)
      }
      guard let storage = exif_mem_alloc(memory, ExifLong(entry.bytes.count)) else {
        throw .encodeFailed(reason: "libexif could not allocate memory")
      }
      let target = storage.assumingMemoryBound(to: UInt8.self)
      // NB: libexif writes each entry's bytes as they are.
      let bytes = isBigEndian ? Self.swapped(entry.bytes, format: entry.format) : entry.bytes
      target.update(from: bytes, count: bytes.count)
      item.pointee.data = target
      item.pointee.size = UInt32(bytes.count)
      item.pointee.tag = ExifTag(rawValue: UInt32(entry.tag))
      item.pointee.format = entry.format
      item.pointee.components = UInt(entry.components)
      exif_content_add_entry(content, item)
    }
  }

  /// The block serialised, starting with `Exif\0\0`, ready to follow an APP1 marker.
  ///
  /// - Parameter what: What the block is, for the error (`"EXIF block"`).
  /// - Throws: ``ImageFileError/encodeFailed(reason:)`` when libexif fails or the block is
  ///   larger than an APP1 segment holds.
  func serialized(_ what: String = "EXIF block") throws(ImageFileError) -> [UInt8] {
    var buffer: UnsafeMutablePointer<UInt8>?
    var size: UInt32 = 0
    exif_data_save_data(data, &buffer, &size)
    guard let buffer, size > 0 else {
      throw .encodeFailed(reason: "libexif could not write the \(what)")
    }
    defer { exif_mem_free(memory, buffer) }
    guard size <= 65_533 else {
      throw .encodeFailed(reason: "the \(what) is \(size) bytes, more than APP1 holds")
    }
    return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
  }

  /// Little-endian numbers of `format` turned big-endian.
  private static func swapped(_ bytes: [UInt8], format: ExifFormat) -> [UInt8] {
    let width: Int =
      switch format {
      case EXIF_FORMAT_SHORT: 2
      case EXIF_FORMAT_LONG, EXIF_FORMAT_RATIONAL: 4
      default: 1
      }
    guard width > 1 else { return bytes }
    var result = bytes
    for start in stride(from: 0, to: bytes.count - width + 1, by: width) {
      for offset in 0..<width { result[start + offset] = bytes[start + width - 1 - offset] }
    }
    return result
  }
}
