import CExif
import Foundation
import PhotoTimer
import PhotoTimerImaging

/// The photo's EXIF block (the body of a JPEG's APP1 segment), built with libexif.
///
/// IFD0 holds the camera, software, orientation and description; the Exif IFD the exposure,
/// the dates with their offset and sub-seconds, and the pixel size; the GPS IFD, when the
/// location has a coordinate, latitude and longitude with their refs, altitude, the GPS date
/// and time (the fix's own GPS time when known, else the shutter time in UTC), the accuracy
/// and the map datum.
///
/// ```swift
/// let app1 = try ExifBlock(metadata: metadata, width: 1920, height: 1080).bytes()
/// ```
public struct ExifBlock: Sendable {
  /// What to write.
  public var metadata: PhotoMetadata
  /// The image's width in pixels.
  public var width: Int
  /// The image's height in pixels.
  public var height: Int

  /// Creates the block's description.
  public init(metadata: PhotoMetadata, width: Int, height: Int) {
    self.metadata = metadata
    self.width = width
    self.height = height
  }

  /// An entry to write: its IFD, tag, format and raw bytes in little-endian order.
  struct Entry {
    var ifd: ExifIfd
    var tag: UInt16
    var format: ExifFormat
    var components: Int
    var bytes: [UInt8]
  }

  /// The serialised block, starting with `Exif\0\0`, ready to follow an APP1 marker.
  ///
  /// - Throws: ``ImageFileError/encodeFailed(reason:)`` when libexif fails or the block is
  ///   larger than an APP1 segment can hold.
  public func bytes() throws(ImageFileError) -> [UInt8] {
    let document = try ExifDocument()
    try document.add(entries())
    return try document.serialized()
  }

  /// A camera's own JPEG with our EXIF added (description, software, GPS), its pixels and
  /// every other tag left as they are: no re-encoding.
  ///
  /// - Parameters:
  ///   - metadata: What to add.
  ///   - jpeg: The camera's file.
  /// - Returns: The same file with its EXIF block replaced by the merged one.
  public static func merging(
    _ metadata: PhotoMetadata, into jpeg: [UInt8]
  ) throws(ImageFileError)
    -> [UInt8]
  {
    guard jpeg.starts(with: [0xFF, 0xD8]) else { throw .notAnImage(path: "the camera's file") }
    if let damage = JPEGFile.damage(in: jpeg) {
      throw .damaged(path: "the camera's file", reason: damage)
    }
    guard let segment = exifSegment(in: jpeg) else {
      // No EXIF at all: ours, whole.
      let size = try JPEGCodec.size(of: jpeg, path: "the camera's file")
      let block = try ExifBlock(metadata: metadata, width: size.width, height: size.height).bytes()
      return JPEGFile.inserting(exif: block, into: jpeg, keepingJFIF: true)
    }
    let document = try ExifDocument(
      loading: Array(jpeg[(segment.lowerBound + 4)..<segment.upperBound]))
    let ours = ExifBlock(metadata: metadata, width: 0, height: 0).entries().filter {
      $0.ifd == EXIF_IFD_GPS || $0.tag == 0x010E || $0.tag == 0x0131
    }
    try document.add(ours)
    let block = try document.serialized("merged EXIF block")
    let length = block.count + 2
    var result = Array(jpeg[0..<segment.lowerBound])
    result += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
    result += block
    result += jpeg[segment.upperBound...]
    return result
  }

  /// Where the `Exif` APP1 segment is (from its marker to its end), if the file has one.
  package static func exifSegment(in jpeg: [UInt8]) -> Range<Int>? {
    var offset = 2
    let header = Array("Exif".utf8) + [0, 0]
    while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
      let marker = jpeg[offset + 1]
      if marker == 0xDA || marker == 0xD9 { return nil }  // image data: no more headers
      let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
      // NB: a length counts its own two bytes; less is a damaged file, not a segment.
      guard length >= 2 else { return nil }
      let end = offset + 2 + length
      guard end <= jpeg.count else { return nil }
      if marker == 0xE1, jpeg[(offset + 4)..<min(offset + 10, end)].elementsEqual(header) {
        return offset..<end
      }
      offset = end
    }
    return nil
  }

  /// Every entry, unsorted.
  func entries() -> [Entry] {
    let settings = metadata.settings
    var entries: [Entry] = [
      ascii(EXIF_IFD_0, 0x010E, metadata.imageDescription),
      short(EXIF_IFD_0, 0x0112, [UInt16(clamping: metadata.orientation)]),
      rational(EXIF_IFD_0, 0x011A, [(72, 1)]),
      rational(EXIF_IFD_0, 0x011B, [(72, 1)]),
      short(EXIF_IFD_0, 0x0128, [2]),  // resolution in inches
      ascii(EXIF_IFD_0, 0x0131, metadata.software),
      ascii(EXIF_IFD_0, 0x0132, dateText),
      short(EXIF_IFD_0, 0x0213, [1]),  // YCbCr centred
      undefined(EXIF_IFD_EXIF, 0x9000, Array("0232".utf8)),
      ascii(EXIF_IFD_EXIF, 0x9003, dateText),
      ascii(EXIF_IFD_EXIF, 0x9004, dateText),
      ascii(EXIF_IFD_EXIF, 0x9010, offsetText),
      ascii(EXIF_IFD_EXIF, 0x9011, offsetText),
      ascii(EXIF_IFD_EXIF, 0x9012, offsetText),
      undefined(EXIF_IFD_EXIF, 0x9101, [1, 2, 3, 0]),
      ascii(EXIF_IFD_EXIF, 0x9291, subSecondText),
      undefined(EXIF_IFD_EXIF, 0xA000, Array("0100".utf8)),
      short(EXIF_IFD_EXIF, 0xA001, [1]),  // sRGB
      long(EXIF_IFD_EXIF, 0xA002, [UInt32(clamping: width)]),
      long(EXIF_IFD_EXIF, 0xA003, [UInt32(clamping: height)]),
    ]
    // NB: no Make or Model rather than an invented one (an IP camera that names no maker).
    if !metadata.make.isEmpty { entries.append(ascii(EXIF_IFD_0, 0x010F, metadata.make)) }
    if !metadata.model.isEmpty { entries.append(ascii(EXIF_IFD_0, 0x0110, metadata.model)) }
    // NB: only what the camera gave: a webcam reports no ISO, and none is made up.
    if let iso = settings.iso, iso > 0 {
      entries.append(short(EXIF_IFD_EXIF, 0x8827, [UInt16(clamping: iso)]))
    }
    if let time = settings.exposureTime, time > 0 {
      entries.append(rational(EXIF_IFD_EXIF, 0x829A, [Self.exposureRational(time)]))
    }
    if let fNumber = settings.fNumber, fNumber > 0 {
      entries.append(rational(EXIF_IFD_EXIF, 0x829D, [(UInt32(fNumber * 10 + 0.5), 10)]))
    }
    if let location = metadata.location, let coordinate = location.coordinate {
      entries += gpsEntries(location, coordinate)
    }
    return entries
  }

  private func gpsEntries(_ location: LocationTag, _ coordinate: Coordinate) -> [Entry] {
    var entries: [Entry] = [
      byte(EXIF_IFD_GPS, 0x0000, [2, 3, 0, 0]),
      ascii(EXIF_IFD_GPS, 0x0001, coordinate.latitude < 0 ? "S" : "N"),
      rational(EXIF_IFD_GPS, 0x0002, Self.degrees(abs(coordinate.latitude))),
      ascii(EXIF_IFD_GPS, 0x0003, coordinate.longitude < 0 ? "W" : "E"),
      rational(EXIF_IFD_GPS, 0x0004, Self.degrees(abs(coordinate.longitude))),
      ascii(EXIF_IFD_GPS, 0x0012, "WGS-84"),
    ]
    if let altitude = coordinate.altitude, altitude.isFinite {
      entries.append(byte(EXIF_IFD_GPS, 0x0005, [altitude < 0 ? 1 : 0]))
      entries.append(
        rational(EXIF_IFD_GPS, 0x0006, [(UInt32(min(abs(altitude), 1e6) * 100 + 0.5), 100)]))
    }
    // The GPS stamps are UTC: the fix's own time when known, else the shutter's.
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = utc.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .nanosecond],
      from: location.fixTime ?? metadata.date)
    let seconds = Double(parts.second ?? 0) + Double(parts.nanosecond ?? 0) / 1e9
    entries.append(
      rational(
        EXIF_IFD_GPS, 0x0007,
        [
          (UInt32(parts.hour ?? 0), 1), (UInt32(parts.minute ?? 0), 1),
          (UInt32(seconds * 1000 + 0.5), 1000),
        ]))
    entries.append(
      ascii(
        EXIF_IFD_GPS, 0x001D,
        "\(Self.padded(parts.year ?? 0, 4)):\(Self.padded(parts.month ?? 1, 2)):"
          + "\(Self.padded(parts.day ?? 1, 2))"))
    if let error = location.horizontalError, error.isFinite, error >= 0 {
      entries.append(rational(EXIF_IFD_GPS, 0x001F, [(UInt32(min(error, 1e6) * 10 + 0.5), 10)]))
    }
    return entries
  }

  // MARK: - Formatting

  private var localParts: DateComponents {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = metadata.timeZone
    return calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .nanosecond], from: metadata.date)
  }

  /// `2026:11:30 14:15:03`, in the photo's time zone.
  var dateText: String {
    let parts = localParts
    return "\(Self.padded(parts.year ?? 0, 4)):\(Self.padded(parts.month ?? 1, 2)):"
      + "\(Self.padded(parts.day ?? 1, 2)) \(Self.padded(parts.hour ?? 0, 2)):"
      + "\(Self.padded(parts.minute ?? 0, 2)):\(Self.padded(parts.second ?? 0, 2))"
  }

  /// `+01:00`.
  var offsetText: String {
    let seconds = metadata.timeZone.secondsFromGMT(for: metadata.date)
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return "\(sign)\(Self.padded(minutes / 60, 2)):\(Self.padded(minutes % 60, 2))"
  }

  /// Milliseconds, `"042"`.
  var subSecondText: String {
    Self.padded(min((localParts.nanosecond ?? 0) / 1_000_000, 999), 3)
  }

  private static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  /// Degrees, minutes and seconds (to 1/10,000 s) as three rationals.
  static func degrees(_ value: Double) -> [(UInt32, UInt32)] {
    let totalSeconds = (value * 3600 * 10_000).rounded() / 10_000
    let degrees = (totalSeconds / 3600).rounded(.down)
    let minutes = ((totalSeconds - degrees * 3600) / 60).rounded(.down)
    let seconds = totalSeconds - degrees * 3600 - minutes * 60
    return [
      (UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32((seconds * 10_000).rounded()), 10_000),
    ]
  }

  /// 1/60 s as 1/60, 0.3 s as 3/10, 2 s as 2/1.
  static func exposureRational(_ seconds: Double) -> (UInt32, UInt32) {
    if seconds < 1 {
      let denominator = 1 / seconds
      if abs(denominator - denominator.rounded()) < 0.01 {
        return (1, UInt32(denominator.rounded()))
      }
      return (UInt32((seconds * 10).rounded()), 10)
    }
    return (UInt32((seconds * 10).rounded()), 10)
  }

  // MARK: - Entries

  private func ascii(_ ifd: ExifIfd, _ tag: UInt16, _ text: String) -> Entry {
    let bytes = Array(text.utf8) + [0]
    return Entry(
      ifd: ifd, tag: tag, format: EXIF_FORMAT_ASCII, components: bytes.count, bytes: bytes)
  }

  private func byte(_ ifd: ExifIfd, _ tag: UInt16, _ values: [UInt8]) -> Entry {
    Entry(ifd: ifd, tag: tag, format: EXIF_FORMAT_BYTE, components: values.count, bytes: values)
  }

  private func undefined(_ ifd: ExifIfd, _ tag: UInt16, _ values: [UInt8]) -> Entry {
    Entry(
      ifd: ifd, tag: tag, format: EXIF_FORMAT_UNDEFINED, components: values.count, bytes: values)
  }

  private func short(_ ifd: ExifIfd, _ tag: UInt16, _ values: [UInt16]) -> Entry {
    Entry(
      ifd: ifd, tag: tag, format: EXIF_FORMAT_SHORT, components: values.count,
      bytes: values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
  }

  private func long(_ ifd: ExifIfd, _ tag: UInt16, _ values: [UInt32]) -> Entry {
    Entry(
      ifd: ifd, tag: tag, format: EXIF_FORMAT_LONG, components: values.count,
      bytes: values.flatMap(Self.littleEndian))
  }

  private func rational(_ ifd: ExifIfd, _ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
    Entry(
      ifd: ifd, tag: tag, format: EXIF_FORMAT_RATIONAL, components: values.count,
      bytes: values.flatMap { Self.littleEndian($0.0) + Self.littleEndian($0.1) })
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF),
      UInt8(value >> 24),
    ]
  }
}
