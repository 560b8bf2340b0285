import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerImaging
import Testing

@testable import PhotoTimerSetup

/// A screen that keeps the previews it is shown.
private final class RecordingScreen: PreviewTarget {
  private let shown = Locked(0)
  private let first = OneShot<Void>()

  var previewRoom: PreviewSize? { PreviewSize(width: 64, height: 48) }
  var previewMirrored: Bool { false }
  var frames: Int { shown.withLock { $0 } }

  func show(preview frame: Frame) async {
    shown.withLock { $0 += 1 }
    first.fulfil(.success(()))
  }

  /// Returns once a preview was shown.
  func waitForFrame() async throws { try await first.value() }
}

@Suite("The screen's camera and its life, one owner for every front end")
@MainActor
struct ScreenStageTests {
  private func sceneOptions() throws -> CommandOptions.RunOptions {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stage-\(UUID().uuidString)")
    let parsed = try CommandOptions(arguments: [
      "--camera", "scene", "--no-location", "-o", folder.path,
    ])
    guard case .run(let run) = parsed.action else { throw CancellationError() }
    return run
  }

  /// What the stage reports, in order, as words.
  private func reports(of stage: ScreenStage) -> AsyncStream<String> {
    let (stream, input) = AsyncStream.makeStream(of: String.self)
    stage.report = { report in
      switch report {
      case .building: input.yield("building")
      case .buildFailed(let error): input.yield("build failed: \(error)")
      case .built: input.yield("built")
      case .opened: input.yield("opened")
      case .cameraFailed(let error): input.yield("camera failed: \(error)")
      case .previewStopped(let error): input.yield("preview stopped: \(error)")
      case .faces(let marks): input.yield("faces: \(marks.count)")
      }
    }
    return stream
  }

  @Test(
    "rebuilds queue: each camera closes before the next is built; the screen is fed; close ends it all"
  )
  func rebuildsQueue() async throws {
    let screen = RecordingScreen()
    let stage = ScreenStage(screen: screen)
    var said = reports(of: stage).makeAsyncIterator()
    let options = try sceneOptions()
    stage.rebuild(options, fallback: nil)
    #expect(await said.next() == "building")
    #expect(await said.next() == "built")
    let first = try #require(stage.camera)
    let firstModel = try #require(stage.model)
    stage.rebuild(options, fallback: nil)
    var next = await said.next()
    // NB: the first camera may open before the second rebuild tears it down.
    if next == "opened" { next = await said.next() }
    #expect(next == "building")
    #expect(first.isClosed)
    #expect(await said.next() == "built")
    #expect(await said.next() == "opened")
    let second = try #require(stage.camera)
    #expect(second !== first)
    #expect(stage.model !== firstModel)
    #expect(stage.identity?.kind == "scene")
    try await screen.waitForFrame()
    await stage.close()
    #expect(second.isClosed)
    #expect(stage.camera == nil && stage.model == nil)
    // Nothing is fed after close, and nothing rebuilds.
    let fed = screen.frames
    stage.rebuild(options, fallback: nil)
    await stage.close()
    #expect(stage.camera == nil)
    #expect(screen.frames == fed)
  }

  @Test(
    "what cannot be built (an output folder that cannot be made) and a camera that does not open are reported, and nothing is left open"
  )
  func failures() async throws {
    let stage = ScreenStage()
    var said = reports(of: stage).makeAsyncIterator()
    var options = try sceneOptions()
    options.output = "/nonexistent/parent/photos"
    stage.rebuild(options, fallback: nil)
    #expect(await said.next() == "building")
    let failure = try #require(await said.next())
    #expect(failure.hasPrefix("build failed"), "\(failure)")
    #expect(stage.camera == nil && stage.model == nil)
    options = try sceneOptions()
    options.camera = CameraChoice.file("/nonexistent/photo.jpg")
    stage.rebuild(options, fallback: nil)
    #expect(await said.next() == "building")
    #expect(await said.next() == "built")
    let opening = try #require(await said.next())
    #expect(opening.hasPrefix("camera failed"), "\(opening)")
    await stage.close()
    #expect(stage.camera == nil && stage.model == nil)
  }

  @Test(
    "a run in progress is cancelled by a rebuild: the model's run ends before the camera closes")
  func rebuildCancelsRun() async throws {
    let stage = ScreenStage()
    var said = reports(of: stage).makeAsyncIterator()
    var options = try sceneOptions()
    options.seconds = 30
    stage.rebuild(options, fallback: nil)
    #expect(await said.next() == "building")
    #expect(await said.next() == "built")
    #expect(await said.next() == "opened")
    let model = try #require(stage.model)
    model.startTimer()
    #expect(model.isSessionRunning)
    stage.rebuild(options, fallback: nil)
    #expect(await said.next() == "building")
    #expect(!model.isSessionRunning)
    await stage.close()
  }
}
