import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

/// Frames handed over by the test, one `push` at a time: a stream whose pace the test sets.
final class Feed: Sendable {
  private struct State {
    var queued: [Result<Frame, any Error>] = []
    var waiter: CheckedContinuation<Frame, any Error>?
  }

  private let state = Locked(State())

  func push(_ frame: Frame) { hand(.success(frame)) }
  func fail(_ error: any Error) { hand(.failure(error)) }

  private func hand(_ result: Result<Frame, any Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<Frame, any Error>? in
      guard let waiter = state.waiter else {
        state.queued.append(result)
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(with: result)
  }

  func next() async throws -> Frame {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = state.withLock { state -> Result<Frame, any Error>? in
          if !state.queued.isEmpty { return state.queued.removeFirst() }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiter = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}

/// A camera whose stream is a ``Feed``; it counts how often it was opened and closed.
final class FeedCamera: CameraSource {
  let feed = Feed()
  let opens = Locked(0)
  let closes = Locked(0)
  let captures = Locked(0)

  var make: String { "Test" }
  var model: String { "Feed camera" }

  func open() async throws -> any CameraSession {
    opens.withLock { $0 += 1 }
    return FeedSession(camera: self)
  }

  /// The photo: dark on the left, bright on the right (a mirror would show).
  static let photo: Frame = {
    var frame = Frame(width: 64, height: 48, timestamp: .seconds(10), exposureEV: 12)
    for y in 0..<48 { for x in 0..<64 { frame[x, y] = RGB(grey: x < 32 ? 30 : 220) } }
    return frame
  }()

  /// A grey frame of `level`, taken at `milliseconds`.
  static func frame(_ milliseconds: Int, level: UInt8 = 118, width: Int = 64) -> Frame {
    var frame = Frame(
      width: width, height: width * 3 / 4, timestamp: .milliseconds(milliseconds), exposureEV: 12)
    for index in frame.pixels.indices { frame.pixels[index] = level }
    return frame
  }
}

final class FeedSession: CameraSession {
  let camera: FeedCamera
  init(camera: FeedCamera) { self.camera = camera }

  func nextPreview() async throws -> Frame { try await camera.feed.next() }

  func capture() async throws -> Frame {
    camera.captures.withLock { $0 += 1 }
    return FeedCamera.photo
  }

  func close() async { camera.closes.withLock { $0 += 1 } }
}

@Suite("Live camera and preview stream", .timeLimit(.minutes(3)))
struct LiveCameraTests {
  /// Waits until the camera has delivered `count` frames.
  private func delivered(_ camera: LiveCamera, _ count: Int) async throws {
    _ = try await camera.frame(after: count - 1)
  }

  @Test("Previews are scaled down to fit, never up: a frame smaller than the room comes as it is")
  func neverEnlarged() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    var large = camera.previews(fitting: PreviewSize(width: 640, height: 480)).makeAsyncIterator()
    source.feed.push(FeedCamera.frame(33))
    try await delivered(camera, 1)
    let same = try #require(try await large.next())
    #expect(same == FeedCamera.frame(33))
    var narrow = camera.previews(fitting: PreviewSize(width: 32, height: 480)).makeAsyncIterator()
    let fitted = try #require(try await narrow.next())
    #expect(fitted.width == 32 && fitted.height == 24)
    var mirrored = camera.previews(fitting: PreviewSize(width: 640, height: 480), mirrored: true)
      .makeAsyncIterator()
    let flipped = try #require(try await mirrored.next())
    #expect(flipped.width == 64 && flipped.height == 48)
    await camera.close()
  }

  @Test(
    "A slow consumer always gets the newest frame: timestamps never go back, none skipped to an old one"
  )
  func newestOnly() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    var previews = camera.previews(fitting: PreviewSize(width: 32, height: 32)).makeAsyncIterator()
    var pushed = 0
    var last = Duration.zero
    for round in 1...50 {
      // The consumer sleeps while the camera delivers 1 to 7 frames.
      for _ in 0..<(round % 7 + 1) {
        pushed += 1
        source.feed.push(FeedCamera.frame(pushed * 33))
      }
      try await delivered(camera, pushed)
      let frame = try #require(try await previews.next())
      #expect(frame.timestamp == .milliseconds(pushed * 33))
      #expect(frame.timestamp > last)
      #expect(frame.width == 32 && frame.height == 24)
      last = frame.timestamp
    }
    await camera.close()
    #expect(try await previews.next() == nil)
    #expect(source.opens.withLock { $0 } == 1)
    #expect(source.closes.withLock { $0 } == 1)
  }

  @Test("A consumer waiting for a frame gets the next one; closing ends every stream")
  func waitingConsumer() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    let room = PreviewSize(width: 16, height: 16)
    let reader = Task {
      var timestamps: [Duration] = []
      for try await frame in camera.previews(fitting: room) { timestamps.append(frame.timestamp) }
      return timestamps
    }
    let other = Task { try await camera.previews(fitting: room).first { _ in false } }
    source.feed.push(FeedCamera.frame(1))
    try await delivered(camera, 1)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 { group.addTask { await camera.close() } }
    }
    let timestamps = try await reader.value
    #expect(timestamps.count <= 1)
    #expect(try await other.value == nil)
    #expect(source.closes.withLock { $0 } == 1)
    #expect(camera.isClosed)
  }

  @Test("A failing stream fails its consumers with the camera's error")
  func failure() async throws {
    struct Unplugged: Error, Equatable {}
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8)).makeAsyncIterator()
    source.feed.fail(Unplugged())
    await #expect(throws: Unplugged.self) { _ = try await previews.next() }
    await camera.close()
  }

  @Test("Runs borrow the open camera: one open for several runs, closed only by the screen")
  func runsBorrow() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    // The camera has settled before any run: the last previews all agree.
    for index in 1...8 { source.feed.push(FeedCamera.frame(index * 33)) }
    try await delivered(camera, 8)
    let clock = TestClock()
    let sink = RecordingSink()
    let pipeline = CameraPipeline(source: camera, sink: sink, clock: clock, filter: .none)
    let service = pipeline.camera()
    for shot in 1...3 {
      // Settled already: the camera step needs no new frame.
      let settings = try await service.prepare()
      #expect((settings.iso ?? 0) > 0)
      let request = CaptureRequest(
        settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(1))
      _ = try await service.capture(request)
      await service.release()
      #expect(sink.saved.withLock { $0.count } == shot)
    }
    #expect(source.opens.withLock { $0 } == 1)
    #expect(source.closes.withLock { $0 } == 0)
    #expect(source.captures.withLock { $0 } == 3)
    // A mirrored preview never mirrors the photo: it is the camera's frame as taken.
    var mirrored = camera.previews(fitting: PreviewSize(width: 16, height: 16), mirrored: true)
      .makeAsyncIterator()
    source.feed.push(FeedCamera.frame(400))
    _ = try await mirrored.next()
    #expect(
      sink.saved.withLock { $0.map(\.frame.pixels) }
        == Array(repeating: FeedCamera.photo.pixels, count: 3))
    await camera.close()
    #expect(source.closes.withLock { $0 } == 1)
  }

  @Test("Cancelling a run that waits for the camera leaves the stream running")
  func cancelKeepsPreview() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    try await camera.start()
    let pipeline = CameraPipeline(source: camera, sink: nil, clock: TestClock(), filter: .none)
    let service = pipeline.camera()
    // Not settled: the step waits for frames that do not come.
    let prepare = Task { try await service.prepare() }
    prepare.cancel()
    await #expect(throws: CancellationError.self) { _ = try await prepare.value }
    await service.release()
    source.feed.push(FeedCamera.frame(40))
    var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8)).makeAsyncIterator()
    #expect(try await previews.next()?.timestamp == .milliseconds(40))
    #expect(source.closes.withLock { $0 } == 0)
    await camera.close()
  }

  @Test("Closing before the camera opened: start fails, nothing is left open")
  func closeFirst() async throws {
    let source = FeedCamera()
    let camera = LiveCamera(source)
    await camera.close()
    await #expect(throws: CancellationError.self) { try await camera.start() }
    #expect(source.opens.withLock { $0 } == 0)
  }

  @Test("Scaling to fit keeps proportions and colour; mirroring flips left and right")
  func scaling() throws {
    var frame = Frame(width: 640, height: 480)
    for y in 0..<480 {
      for x in 0..<640 {
        frame[x, y] = x < 320 ? RGB(red: 0x33, green: 0x66, blue: 0xCC) : RGB(grey: 200)
      }
    }
    let fitted = frame.scaled(toFit: PreviewSize(width: 120, height: 70))
    #expect(fitted.width == 93 && fitted.height == 70)
    #expect(fitted[0, 0] == RGB(red: 0x33, green: 0x66, blue: 0xCC))
    #expect(fitted[92, 69] == RGB(grey: 200))
    let mirrored = frame.scaled(toFit: PreviewSize(width: 120, height: 70), mirrored: true)
    #expect(mirrored[0, 0] == RGB(grey: 200))
    #expect(mirrored[92, 0] == RGB(red: 0x33, green: 0x66, blue: 0xCC))
    let enlarged = frame.resized(width: 1280, height: 960)
    #expect(enlarged[1279, 959] == RGB(grey: 200))
  }
}
