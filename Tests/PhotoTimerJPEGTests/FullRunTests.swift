import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerTesting
import Testing

@testable import PhotoTimerJPEG

/// The whole thing on the real clock: engine, scene camera, metering, filter, JPEG, EXIF.
@Suite("A full run with the scene camera", .serialized, .timeLimit(.minutes(3)))
struct FullRunTests {
  @Test("Produces a valid JPEG that exiftool and libjpeg accept, with the run's metadata")
  func producesPhoto() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let clock = ContinuousClock()
    let pipeline = CameraPipeline(
      source: SceneCamera(preset: .goldenHour, width: 640, height: 480, clock: clock),
      sink: PhotoStore(folder: folder.url), clock: clock)
    let location = LocationTag(
      name: "Parkside, San Francisco, United States",
      coordinate: Coordinate(latitude: 37.7694, longitude: -122.4862, altitude: 50))
    // NB: 1 s is shorter than the camera may take to settle under load: the shutter then waits
    // for the camera, and the look, computed as it settles, is used all the same. The wait is
    // bounded generously: with every suite of the process running at once (AddressSanitizer),
    // the niced renderer took over 10 s to settle 640×480.
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 1, cameraWaitLimit: .seconds(120)),
      services: pipeline.services(location: Preparation(isRequired: false) { location }),
      clock: clock)
    let result = await engine.run { _ in }
    guard case .captured(let photo) = result else {
      Issue.record("expected a photo, got \(result)")
      return
    }
    let file = try #require(photo.file)
    #expect(try folder.contents() == [file.lastPathComponent])
    #expect(photo.filter == .warm)
    let tags = try await exiftool(file.path)
    #expect(tags["IFD0:Model"] as? String == "Scene camera (golden-hour)")
    #expect(
      tags["IFD0:ImageDescription"] as? String
        == "Warm look, Parkside, San Francisco, United States")
    #expect(tags["File:ImageWidth"] as? Int == 640)
    #expect(tags["File:ImageHeight"] as? Int == 480)
    #expect(tags["GPS:GPSLongitudeRef"] as? String == "W")
    // The light value exiftool computes from our aperture, shutter and ISO is the preset's.
    let lightValue = try #require(tags["Composite:LightValue"] as? Double)
    #expect(abs(lightValue - 11) < 0.5, "\(lightValue)")
    let djpeg = try await ChildProcess.run(["djpeg", "-outfile", "/dev/null", file.path])
    #expect(djpeg.succeeded && djpeg.standardError.isEmpty, "djpeg: \(djpeg.standardError)")
  }

  @Test("Cancelled while the photo is being written: no file, partial or temporary")
  func cancelDuringCapture() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let clock = ContinuousClock()
    let pipeline = CameraPipeline(
      source: SceneCamera(preset: .daylight, width: 4000, height: 3000, clock: clock),
      sink: PhotoStore(folder: folder.url), clock: clock)
    let recorder = EventRecorder()
    // The camera may wait as long as it needs: a 12-megapixel scene settles slowly under a
    // sanitizer on a loaded machine, and the default 10 s limit would end the run unshot.
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0, cameraWaitLimit: .seconds(600)),
      services: pipeline.services(location: .disabled(reason: "off")), clock: clock)
    let run = Task { await engine.run(onEvent: recorder.record) }
    // Cancel the moment the shutter fires: the 12-megapixel filter and encode are under way.
    // NB: each wait is for one more event than the last snapshot looked at, so an event that
    // arrives between the look and the wait is never missed (it was, under TSan: the test then
    // slept until the photo was written). A run that ends unshot ends the wait too.
    var events = await recorder.waitForEvents(1)
    while !events.contains(where: { $0.kind == .shutter || $0.kind.endsRun }) {
      events = await recorder.waitForEvents(events.count + 1)
    }
    try #require(recorder.kinds.contains(.shutter), "the run ended unshot: \(recorder.kinds)")
    run.cancel()
    let result = await run.value
    if case .captured(let photo) = result {
      // The photo was complete before the cancel arrived: then it must be whole.
      let file = try #require(photo.file)
      #expect(try folder.contents() == [file.lastPathComponent])
    } else {
      #expect(result == .cancelled)
      #expect(try folder.contents().isEmpty)
    }
  }
}

extension PhotoTimerEvent.Kind {
  /// Whether this event is a run's last: a photo, a cancel or a failure.
  fileprivate var endsRun: Bool {
    switch self {
    case .captured, .cancelled, .failed: true
    default: false
    }
  }
}
