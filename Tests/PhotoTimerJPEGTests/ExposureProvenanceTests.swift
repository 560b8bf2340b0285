import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerJPEG

/// Nothing invented in a photo: its EXIF exposure is what the camera reported, or absent.
@Suite("The exposure a photo records is its camera's", .serialized, .timeLimit(.minutes(3)))
struct ExposureProvenanceTests {
  /// Takes a photo from `source` on the real clock (no count) and reads its EXIF back.
  private func shoot(
    _ source: some CameraSource, in folder: TemporaryFolder
  ) async throws
    -> [String: Any]
  {
    let clock = ContinuousClock()
    let pipeline = CameraPipeline(
      source: source, sink: PhotoStore(folder: folder.url), clock: clock)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0, cameraWaitLimit: .seconds(120)),
      services: pipeline.services(
        location: Preparation(isRequired: false) { throw CancellationError() }),
      clock: clock)
    let result = await engine.run { _ in }
    guard case .captured(let photo) = result else {
      throw Failure(description: "expected a photo, got \(result)")
    }
    return try await exiftool(try #require(photo.file).path)
  }

  private struct Failure: Error, CustomStringConvertible { var description: String }

  /// A grey JPEG in `folder`, with the given exposure in its EXIF or none at all.
  private func picture(
    in folder: TemporaryFolder, exposure: CameraSettings?
  ) throws -> String {
    var grey = Frame(width: 64, height: 48)
    for y in 0..<48 { for x in 0..<64 { grey[x, y] = RGB(grey: 118) } }
    let path = folder.path + "/source-\(exposure == nil ? "bare" : "exposed").jpg"
    let bytes: [UInt8]
    if let exposure {
      var metadata = testMetadata()
      metadata.settings = exposure
      bytes = try JPEGFile.make(grey, metadata: metadata, quality: 95)
    } else {
      bytes = try JPEGCodec.encode(grey, quality: 95)
    }
    #expect(JPEGFile.recordedExposure(in: bytes) == nil || exposure != nil)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("A file that records no exposure gives a photo with none: no f-number, time or ISO")
  func bareFile() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let path = try picture(in: folder, exposure: nil)
    let tags = try await shoot(ImageFileCamera(path: path, clock: ContinuousClock()), in: folder)
    for tag in ["ExifIFD:FNumber", "ExifIFD:ExposureTime", "ExifIFD:ISO"] {
      #expect(tags[tag] == nil, "\(tag) is \(tags[tag] ?? "")")
    }
    #expect(tags["IFD0:Model"] as? String == "Image file (source-bare.jpg)")
  }

  @Test("A file that records its exposure gives a photo with that exposure, unchanged")
  func exposedFile() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let recorded = CameraSettings.recorded(fNumber: 5.6, exposureTime: 1.0 / 250, iso: 200)
    let path = try picture(in: folder, exposure: recorded)
    let tags = try await shoot(ImageFileCamera(path: path, clock: ContinuousClock()), in: folder)
    #expect(tags["ExifIFD:FNumber"] as? Double == 5.6)
    #expect(abs((tags["ExifIFD:ExposureTime"] as? Double ?? 0) - 0.004) < 1e-9)
    #expect(tags["ExifIFD:ISO"] as? Int == 200)
  }

  @Test("The scene camera, ours, records its simulated exposure and says it is the scene camera")
  func sceneCamera() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let clock = ContinuousClock()
    let tags = try await shoot(
      SceneCamera(preset: .daylight, width: 320, height: 240, clock: clock), in: folder)
    #expect(tags["IFD0:Make"] as? String == "phototimer")
    #expect(tags["IFD0:Model"] as? String == "Scene camera (daylight)")
    #expect(tags["ExifIFD:FNumber"] != nil)
    #expect(tags["ExifIFD:ExposureTime"] != nil)
    #expect(tags["ExifIFD:ISO"] != nil)
  }
}
