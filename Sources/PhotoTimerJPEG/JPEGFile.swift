import CExif
import Foundation
import PhotoTimer
import PhotoTimerImaging

/// Whole JPEG files: pixels and EXIF together.
public enum JPEGFile {
  /// A complete photo file: the frame encoded, with `metadata` as its EXIF block.
  ///
  /// - Parameters:
  ///   - frame: The pixels.
  ///   - metadata: The EXIF contents.
  ///   - quality: JPEG quality, 1…100.
  public static func make(
    _ frame: Frame, metadata: PhotoMetadata, quality: Int = 92
  )
    throws(ImageFileError) -> [UInt8]
  {
    let exif = try ExifBlock(metadata: metadata, width: frame.width, height: frame.height).bytes()
    return try inserting(exif: exif, into: JPEGCodec.encode(frame, quality: quality))
  }

  /// `jpeg` with its JFIF header replaced by an APP1 segment holding `exif`, right after SOI,
  /// as the Exif standard places it.
  static func inserting(exif: [UInt8], into jpeg: [UInt8], keepingJFIF: Bool = false) -> [UInt8] {
    var rest = jpeg[2...]
    // Drop a JFIF APP0 segment: an Exif file carries APP1 first.
    if !keepingJFIF, rest.count > 4, rest[rest.startIndex] == 0xFF,
      rest[rest.startIndex + 1] == 0xE0
    {
      let length = Int(rest[rest.startIndex + 2]) << 8 | Int(rest[rest.startIndex + 3])
      rest = rest.dropFirst(2 + length)
    }
    let segmentLength = exif.count + 2
    var file: [UInt8] = [
      0xFF, 0xD8, 0xFF, 0xE1, UInt8(segmentLength >> 8), UInt8(segmentLength & 0xFF),
    ]
    file.reserveCapacity(jpeg.count + exif.count + 4)
    file += exif
    file += rest
    return file
  }

  /// The EXIF orientation a JPEG records (1…8: how its stored rows must be turned to be
  /// seen upright), or `nil` when it records none or a value out of range.
  public static func recordedOrientation(in bytes: [UInt8]) -> Int? {
    guard let value = (try? ExifDocument(loading: bytes))?.short(EXIF_IFD_0, 0x0112) else {
      return nil
    }
    return (1...8).contains(value) ? value : nil
  }

  /// The exposure recorded in a JPEG's EXIF, when it has one.
  ///
  /// - Returns: The exposure time, f-number and ISO, or `nil` when any is missing.
  public static func recordedExposure(
    in bytes: [UInt8]
  ) -> (
    exposureTime: Double, fNumber: Double, iso: Int
  )? {
    guard let exif = try? ExifDocument(loading: bytes),
      let time = exif.rational(EXIF_IFD_EXIF, 0x829A),
      let fNumber = exif.rational(EXIF_IFD_EXIF, 0x829D),
      let iso = exif.short(EXIF_IFD_EXIF, 0x8827),
      time > 0, fNumber > 0, iso > 0
    else { return nil }
    return (time, fNumber, iso)
  }

  /// What is wrong with a JPEG's structure, or `nil` when it is whole: its header segments
  /// walk cleanly to the image data, and the image data ends with its end marker.
  ///
  /// NB: the entropy-coded image data cannot hold `FF D9` (a data byte FF is always followed
  /// by 00 or a restart marker), and an embedded thumbnail's end marker lies before the image
  /// data, so an end marker after the start of scan means the file was not cut short.
  ///
  /// - Parameter bytes: The file.
  /// - Returns: The damage, in words, or `nil`.
  public static func damage(in bytes: [UInt8]) -> String? {
    guard bytes.starts(with: [0xFF, 0xD8]) else { return "no JPEG start marker" }
    var offset = 2
    while true {
      guard offset + 4 <= bytes.count else {
        return "the file ends inside its headers, at byte \(offset) of \(bytes.count)"
      }
      guard bytes[offset] == 0xFF else {
        return "no marker at byte \(offset) where the headers go on"
      }
      let marker = bytes[offset + 1]
      if marker == 0xFF {
        offset += 1  // fill byte
        continue
      }
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      guard length >= 2 else {
        return "a header segment (marker \(hex(marker))) declares a length of \(length)"
      }
      let end = offset + 2 + length
      guard end <= bytes.count else {
        return "a header segment (marker \(hex(marker))) runs \(end - bytes.count) bytes past "
          + "the end of the file"
      }
      if marker == 0xDA {
        var index = end
        while index + 1 < bytes.count {
          if bytes[index] == 0xFF, bytes[index + 1] == 0xD9 { return nil }
          index += 1
        }
        return "the image data stops without its end marker: the file is cut short "
          + "(\(bytes.count) bytes)"
      }
      offset = end
    }
  }

  private static func hex(_ marker: UInt8) -> String {
    let digits = String(marker, radix: 16, uppercase: true)
    return "FF" + (digits.count == 1 ? "0" : "") + digits
  }
}
