import Foundation
import PhotoTimerImaging
import Testing

@testable import PhotoTimerJPEG

@Suite("Motion JPEG")
struct MJPEGSplitterTests {
  /// A small real JPEG of one colour.
  private func picture(_ level: UInt8) throws -> [UInt8] {
    var frame = Frame(width: 40, height: 30)
    for index in frame.pixels.indices { frame.pixels[index] = level }
    return try JPEGCodec.encode(frame, quality: 80)
  }

  @Test("Pictures one after another come out whole, however the stream is cut, junk skipped")
  func split() throws {
    let a = try picture(40)
    let b = try picture(200)
    let stream = [0x00, 0x12, 0xFF] + a + [0x0A, 0x0D] + b + a
    for chunk in [1, 3, 7, 64, 4096] {
      var splitter = MJPEGSplitter()
      var pictures: [[UInt8]] = []
      var offset = 0
      while offset < stream.count {
        pictures += splitter.append(stream[offset..<min(offset + chunk, stream.count)])
        offset += chunk
      }
      #expect(pictures == [a, b, a], "in chunks of \(chunk)")
    }
  }

  @Test("An end marker inside a segment (an EXIF thumbnail) does not end the picture")
  func thumbnailInside() throws {
    let a = try picture(90)
    // An APP1 segment right after SOI whose payload holds FF D8 … FF D9.
    let payload: [UInt8] = Array("Exif\0\0".utf8) + [0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9]
    let length = payload.count + 2
    let withSegment =
      Array(a[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
      + Array(a[2...])
    var splitter = MJPEGSplitter()
    let pictures = splitter.append(withSegment + a)
    #expect(pictures == [withSegment, a])
    #expect(try JPEGCodec.decode(pictures[0], path: "test").width == 40)
  }

  @Test("A broken start, a zero length and an oversized picture are dropped, the next is found")
  func damaged() throws {
    let a = try picture(10)
    var splitter = MJPEGSplitter(limit: 1 << 16)
    // FF D8 then garbage (no marker), then a zero-length segment.
    let broken: [UInt8] = [0xFF, 0xD8, 0x41, 0x42, 0x43, 0x44, 0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]
    #expect(splitter.append(broken + a) == [a])
    // A start that never ends, larger than the limit, then a whole picture.
    var huge: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]
    huge += [UInt8](repeating: 0x11, count: 1 << 17)
    #expect(splitter.append(huge).isEmpty)
    #expect(splitter.append(a) == [a])
  }
}
