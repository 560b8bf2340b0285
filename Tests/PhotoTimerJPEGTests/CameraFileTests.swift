import Foundation
import PhotoTimer
import PhotoTimerImaging
import Testing

@testable import PhotoTimerJPEG

/// A "camera" JPEG with its own EXIF, as a DSLR hands it over.
private func cameraFile() throws -> [UInt8] {
  var frame = Frame(width: 64, height: 48)
  for y in 0..<48 {
    for x in 0..<64 { frame[x, y] = RGB(red: UInt8(x * 4), green: 90, blue: UInt8(y * 5)) }
  }
  return try JPEGFile.make(frame, metadata: metadata())
}

private func metadata() -> PhotoMetadata {
  PhotoMetadata(
    make: "Canon", model: "Canon EOS 80D", date: Date(timeIntervalSince1970: 1_796_040_000),
    settings: ExposureProgram.standard.settings(forSceneEV: 13), filter: .natural, location: nil)
}

@Suite("A camera's file: damaged structure is refused, never trapped on")
struct CameraFileTests {
  @Test("An intact camera file merges; so does one with bytes after its end marker")
  func intact() throws {
    let file = try cameraFile()
    #expect(JPEGFile.damage(in: file) == nil)
    _ = try ExifBlock.merging(metadata(), into: file)
    let padded = file + [UInt8](repeating: 0, count: 100)
    #expect(JPEGFile.damage(in: padded) == nil)
    _ = try ExifBlock.merging(metadata(), into: padded)
  }

  @Test(
    "A header segment that declares a length of 0 or 1 is damage, not a crash",
    arguments: [0, 1])
  func zeroLength(length: UInt8) throws {
    let file = try cameraFile()
    let broken = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, length] + file.dropFirst(2)
    #expect(ExifBlock.exifSegment(in: broken) == nil)
    #expect(throws: ImageFileError.self) { _ = try ExifBlock.merging(metadata(), into: broken) }
    #expect(JPEGFile.damage(in: broken)?.contains("declares a length of \(length)") == true)
  }

  @Test("A file cut short is refused with how it is damaged", arguments: [3, 2])
  func cutShort(divisor: Int) throws {
    let file = try cameraFile()
    let cut = Array(file.prefix(file.count / divisor))
    let error = #expect(throws: ImageFileError.self) {
      _ = try ExifBlock.merging(metadata(), into: cut)
    }
    #expect("\(error.map(String.init(describing:)) ?? "")".contains("cut short"))
  }

  @Test("A segment whose length points past the end is damage")
  func pastTheEnd() throws {
    let file = try cameraFile()
    let broken = [0xFF, 0xD8, 0xFF, 0xE2, 0xFF, 0xF0] + file.dropFirst(2).prefix(100)
    #expect(JPEGFile.damage(in: broken)?.contains("past the end") == true)
  }

  @Test("An APP1 of the largest length (65,535) is walked and replaced by ours")
  func largestAPP1() throws {
    let file = try cameraFile()
    // NB: an Exif APP1 whose payload fills the whole 16-bit length, before the camera's own.
    let payload = Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0x41, count: 65_533 - 6)
    let big = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + payload + file.dropFirst(2)
    #expect(JPEGFile.damage(in: big) == nil)
    #expect(ExifBlock.exifSegment(in: big) == 2..<(2 + 2 + 65_535))
    let merged = try ExifBlock.merging(metadata(), into: big)
    #expect(JPEGFile.damage(in: merged) == nil)
    #expect(merged.count < big.count)
  }

  @Test("10,000 empty APP segments are a valid, if odd, file: merged without trouble")
  func manyEmptySegments() throws {
    let file = try cameraFile()
    let padded =
      [0xFF, 0xD8] + Array(repeating: [0xFF, 0xE2, 0x00, 0x02], count: 10_000).joined()
      + file.dropFirst(2)
    #expect(JPEGFile.damage(in: padded) == nil)
    let merged = try ExifBlock.merging(metadata(), into: padded)
    #expect(JPEGFile.damage(in: merged) == nil)
  }
}
