import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

/// A camera whose previews come at once (no clock), all the same picture: it settles after
/// the settler's window of frames.
struct StillCamera: CameraSource {
  let picture: Frame
  let sessions = Locked<[StillSession]>([])

  var make: String { "Test" }
  var model: String { "Still camera" }

  func open() async throws -> any CameraSession {
    let session = StillSession(picture: picture)
    sessions.withLock { $0.append(session) }
    return session
  }
}

final class StillSession: CameraSession {
  let picture: Frame
  let closed = Locked(false)
  let previews = Locked(0)

  init(picture: Frame) { self.picture = picture }

  func nextPreview() async throws -> Frame {
    try Task.checkCancellation()
    previews.withLock { $0 += 1 }
    return picture.downscaled(maxWidth: 64)
  }

  func capture() async throws -> Frame { picture }

  func close() async { closed.withLock { $0 = true } }
}

/// Remembers what it was asked to save.
final class RecordingSink: PhotoSink {
  let saved = Locked<[(frame: Frame, metadata: PhotoMetadata, variant: String?)]>([])

  func save(_ frame: Frame, metadata: PhotoMetadata, variant: String?) async throws -> URL {
    let count = saved.withLock { saved -> Int in
      saved.append((frame, metadata, variant))
      return saved.count
    }
    return URL(fileURLWithPath: "/photos/\(count).jpg")
  }
}

@Suite("Camera pipeline", .timeLimit(.minutes(1)))
struct CameraPipelineTests {
  private func run(
    _ pipeline: CameraPipeline<TestClock>, clock: TestClock, seconds: Int = 1,
    location: Preparation<LocationTag> = .disabled(reason: "off")
  ) async -> (PhotoTimerResult, EventRecorder) {
    let recorder = EventRecorder()
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: seconds),
      services: pipeline.services(location: location), clock: clock)
    let task = Task { await engine.run(onEvent: recorder.record) }
    // The camera and filter steps need no time here: wait until both reported, then count.
    _ = await recorder.waitForEvents(4)  // started, location skipped, camera, filter
    for second in 1...max(seconds, 1) {
      await clock.waitForSleepers(1)
      clock.advance(to: .seconds(second))
    }
    return (await task.value, recorder)
  }

  @Test("Prepare meters the settled preview, the filter step analyses it, capture writes it")
  func fullRun() async throws {
    let clock = TestClock()
    let camera = StillCamera(picture: settledPreview(.overcast, width: 640, height: 360))
    let sink = RecordingSink()
    let pipeline = CameraPipeline(
      source: camera, sink: sink, clock: clock, keepOriginal: true,
      now: { Date(timeIntervalSince1970: 1_796_040_000) })
    let (result, recorder) = await run(pipeline, clock: clock)
    guard case .captured(let photo) = result else {
      Issue.record("expected a photo, got \(recorder.kinds)")
      return
    }
    // Metered EV 12 from the overcast preview (exposed at 12, shown as mid-grey).
    let sceneEV = try #require(photo.settings.sceneEV)
    #expect(abs(sceneEV - 12) < 0.3, "\(sceneEV)")
    #expect(photo.settings == ExposureProgram.standard.settings(forSceneEV: sceneEV))
    #expect(photo.filter == .vivid)
    #expect(photo.file == URL(fileURLWithPath: "/photos/1.jpg"))
    let saved = sink.saved.withLock { $0 }
    #expect(saved.map(\.variant) == [nil, "original"])
    #expect(saved.first?.metadata.model == "Still camera")
    #expect(saved.first?.metadata.filter == .vivid)
    #expect(saved.last?.metadata.filter == .natural)
    #expect(saved.first?.metadata.date == Date(timeIntervalSince1970: 1_796_040_000))
    // The filtered photo differs from the original; the original is the camera's picture.
    #expect(saved.first?.frame != saved.last?.frame)
    #expect(saved.last?.frame == camera.picture)
    // Settled after the settler's window of identical previews, then closed at the end.
    let session = try #require(camera.sessions.withLock { $0.first })
    #expect(session.previews.withLock { $0 } == 5)
    #expect(session.closed.withLock { $0 })
  }

  @Test("A fixed look skips the analysis; none skips the step and applies nothing")
  func filterChoices() async throws {
    let clock = TestClock()
    let camera = StillCamera(picture: settledPreview(.daylight, width: 64, height: 36))
    let sink = RecordingSink()
    let fixed = CameraPipeline(source: camera, sink: sink, clock: clock, filter: .fixed(.mono))
    let (result, _) = await run(fixed, clock: clock)
    guard case .captured(let photo) = result else {
      Issue.record("expected a photo")
      return
    }
    #expect(photo.filter == .mono)
    #expect(photo.report(for: .filter)?.outcome.succeeded == true)

    let none = CameraPipeline(
      source: camera, sink: sink, clock: TestClock(), filter: .none, keepOriginal: true)
    #expect(none.filterStep().isEnabled == false)
  }

  @Test("Cancelling during the count closes the camera before `cancelled` is published")
  func cancelClosesCamera() async throws {
    let clock = TestClock()
    let camera = StillCamera(picture: settledPreview(.indoor, width: 64, height: 36))
    let pipeline = CameraPipeline(source: camera, sink: RecordingSink(), clock: clock)
    let recorder = EventRecorder()
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5),
      services: pipeline.services(location: .disabled(reason: "off")), clock: clock)
    let task = Task { await engine.run(onEvent: recorder.record) }
    _ = await recorder.waitForEvents(4)
    await clock.waitForSleepers(1)
    let session = try #require(camera.sessions.withLock { $0.first })
    #expect(!session.closed.withLock { $0 })
    task.cancel()
    #expect(await task.value == .cancelled)
    #expect(session.closed.withLock { $0 })
    #expect(recorder.kinds.last == .cancelled)
  }

  @Test("A camera that fails to open fails the run, and the filter step says why")
  func openFails() async {
    struct NoCamera: Error, CustomStringConvertible {
      var description: String { "no camera at /dev/video9" }
    }
    struct Broken: CameraSource {
      var make: String { "Test" }
      var model: String { "Broken" }
      func open() async throws -> any CameraSession {
        throw NoCamera()
      }
    }
    let clock = TestClock()
    let pipeline = CameraPipeline(source: Broken(), sink: RecordingSink(), clock: clock)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 3),
      services: pipeline.services(location: .disabled(reason: "off")), clock: clock)
    let result = await engine.run { _ in }
    guard case .failed(let failure) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(failure.message == "camera failed: no camera at /dev/video9")
  }
}
