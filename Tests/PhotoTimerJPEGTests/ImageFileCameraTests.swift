import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerTesting
import Testing

@testable import PhotoTimerJPEG

@Suite("Image files as a camera")
struct ImageFileCameraTests {
  @Test("A PNG is decoded; transparency is laid on white")
  func png() throws {
    let frame = try ImageFileCamera<TestClock>.load(try fixture("gradient.png"))
    #expect(frame.width == 64 && frame.height == 48)
    #expect(frame[10, 20] == RGB(red: 40, green: 100, blue: 90))
    let alpha = try ImageFileCamera<TestClock>.load(try fixture("alpha.png"))
    #expect(alpha[0, 0] == RGB(red: 255, green: 255, blue: 255))
    #expect(alpha[15, 0] == RGB(red: 255, green: 0, blue: 0))
  }

  @Test("A JPEG's recorded exposure becomes the frame's, so metering knows the scene")
  func jpegExposure() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    var metadata = testMetadata()
    metadata.settings = ExposureProgram.standard.settings(forSceneEV: 12)
    // A mid-grey picture exposed for EV 12 shows a scene of EV 12.
    var grey = Frame(width: 64, height: 48)
    for y in 0..<48 { for x in 0..<64 { grey[x, y] = RGB(grey: 118) } }
    let path = folder.path + "/grey.jpg"
    try Data(JPEGFile.make(grey, metadata: metadata, quality: 98)).write(
      to: URL(fileURLWithPath: path))
    let frame = try ImageFileCamera<TestClock>.load(path)
    let exposure = try #require(frame.exposureEV)
    #expect(abs(exposure - 12) < 0.2, "\(exposure)")
    #expect(abs(Metering.sceneEV(of: frame) - 12) < 0.25)
  }

  @Test(
    "Bad files are refused with the path and what to do",
    arguments: [
      ("missing.jpg", "no image file at {path}; check the path"),
      ("not-an-image.txt", "{path} is not a JPEG or PNG image; give a .jpg or .png file"),
      ("zero.png", "{path} has no pixels (0 × 0); use a real photo"),
      (
        "huge.png",
        "{path} is 100000 × 100000 pixels, more than the 100 megapixels phototimer handles; "
          + "scale it down first"
      ),
      ("truncated.png", "{path} is damaged or cut short"),
    ])
  func badFiles(name: String, message: String) throws {
    let path =
      name == "missing.jpg" ? "/nonexistent/missing.jpg" : try fixture(name)
    #expect {
      _ = try ImageFileCamera<TestClock>.load(path)
    } throws: { error in
      let text = String(describing: error)
      let expected = message.replacingOccurrences(of: "{path}", with: path)
      return text.hasPrefix(expected)
    }
  }

  @Test("Truncated, headerless and oversized JPEGs are refused, not crashed on")
  func badJPEGs() throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let whole = try JPEGCodec.encode(gradient(width: 256, height: 192))
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
      let path = folder.path + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }
    // Cut in the middle of the image data.
    let truncated = try write(Array(whole.prefix(whole.count * 2 / 3)), "truncated.jpg")
    #expect(throws: ImageFileError.self) { try ImageFileCamera<TestClock>.load(truncated) }
    // Only the first bytes: no frame header.
    let stub = try write(Array(whole.prefix(30)), "stub.jpg")
    #expect(throws: ImageFileError.self) { try ImageFileCamera<TestClock>.load(stub) }
    // A header claiming 65535 × 65535: refused before any allocation.
    var giant = whole
    let sof = try #require(
      (2..<giant.count - 1).first { giant[$0] == 0xFF && giant[$0 + 1] == 0xC0 })
    giant[sof + 5] = 0xFF
    giant[sof + 6] = 0xFF
    giant[sof + 7] = 0xFF
    giant[sof + 8] = 0xFF
    let giantPath = try write(giant, "giant.jpg")
    #expect(
      throws: ImageFileError.tooLarge(
        path: giantPath, width: 65535, height: 65535, limit: JPEGCodec.pixelLimit)
    ) {
      try ImageFileCamera<TestClock>.load(giantPath)
    }
    // A directory is not an image file.
    #expect(throws: ImageFileError.self) { try ImageFileCamera<TestClock>.load(folder.path) }
  }

  @Test(
    "A PNG whose sides multiply past Int is refused as too large, not trapped on (found by the fuzzer)"
  )
  func sidesOverflow() throws {
    // The fuzzer's input: IHDR with 3,233,824,768 × 4,291,266,329 pixels.
    let bytes: [UInt8] = [
      0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
      0xC0, 0xC0, 0x40, 0x00, 0xFF, 0xC7, 0x87, 0x19, 0x46, 0x0D, 0x18, 0x35,
    ]
    #expect {
      _ = try ImageFileCamera<TestClock>.decode(bytes, path: "evil.png")
    } throws: { error in
      guard case .tooLarge(_, let width, let height, _) = error as? ImageFileError else {
        return false
      }
      return width == 3_233_824_768 && height == 4_291_266_329
    }
  }
}
