import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

/// A session with a ring: `held` are the frames it holds at the shutter instant, `coming`
/// the frames that arrive after it, one per call; after them the stream ends, or fails with
/// `failure`.
private final class RingSession: CameraSession {
  let held: [Frame]
  let coming: [Frame]
  let instant: Duration
  let failure: (any Error)?
  let read = Locked(0)

  init(held: [Frame], coming: [Frame], instant: Duration, failure: (any Error)? = nil) {
    self.held = held
    self.coming = coming
    self.instant = instant
    self.failure = failure
  }

  func nextPreview() async throws -> Frame { try #require(held.last) }
  func capture() async throws -> Frame { try #require(held.last) }
  func close() async {}

  func shutterFrames(lead: Duration) async throws -> ShutterFrames? {
    let coming = coming
    let failure = failure
    let read = read
    return ShutterFrames(
      instant: instant, interval: .milliseconds(33),
      held: held.filter { $0.timestamp >= instant - lead }.map { frame in
        ShutterFrames.Held(timestamp: frame.timestamp) { frame }
      },
      delivered: 0
    ) { after in
      read.withLock { $0 += 1 }
      if after < coming.count { return (after + 1, coming[after]) }
      if let failure { throw failure }
      return nil
    }
  }
}

private struct StreamEnded: Error {}

/// The frame at zero chosen for the people in it, on recorded frames: one person (a square
/// the finder sees as a face), whose eyes are shut in the frames painted darker.
@Suite("The photo's frame: the first around zero where every eye is open")
struct FrameAtZeroTests {
  private static let face = PixelBox(x: 200, y: 100, width: 120, height: 120)
  private static let finder = SquareFinder(closedBelow: 240)

  /// A frame `milliseconds` from the count's start (zero is at 10 s), eyes open or shut.
  private func scene(_ milliseconds: Int, open: Bool) -> Frame {
    frame(
      width: 640, height: 360, squares: [Self.face],
      timestamp: .milliseconds(10_000 + milliseconds),
      level: open ? 255 : 220)
  }

  /// A pipeline whose people step has followed the person for `looks` looks a tenth of a
  /// second apart up to 0.3 s before zero, eyes open in those `open` says (by index).
  private func pipeline(
    window: Duration = .seconds(1), finder: SquareFinder = Self.finder,
    looks: Int = EyeBaseline.trustedAfter + 5, open: (Int) -> Bool = { _ in true }
  ) async throws
    -> CameraPipeline<TestClock>
  {
    let pipeline = CameraPipeline(
      source: StillCamera(picture: scene(0, open: true)), sink: nil, clock: TestClock(),
      filter: .none, blinkWindow: window)
    let watcher = PeopleWatcher(search: FaceSearch(finder: finder))
    let (stream, input) = AsyncStream.makeStream(of: Frame.self)
    for index in 0..<looks {
      input.yield(scene(-300 - 100 * (looks - 1 - index), open: open(index)))
    }
    input.finish()
    let summary = try await watcher.watch(stream) { _ in }
    #expect(summary == PeopleSummary(count: 1, eyesClosed: 0))
    pipeline.run().watcher.withLock { $0 = watcher }
    return pipeline
  }

  private func choose(
    _ pipeline: CameraPipeline<TestClock>, _ session: RingSession
  ) async throws -> (Frame, PeopleSummary)? {
    try await pipeline.peopleFrame(session, run: pipeline.run())
  }

  @Test("eyes shut at zero: the first frame after it with them open, and its offset")
  func firstOpenAfterZero() async throws {
    let session = RingSession(
      held: [scene(-200, open: true), scene(-100, open: false), scene(-10, open: false)],
      coming: [23, 56, 90, 123, 156].map { scene($0, open: $0 >= 90) },
      instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline(), session))
    #expect(frame.timestamp == .milliseconds(10_090))
    #expect(people.count == 1 && people.eyesClosed == 0)
    #expect(
      people.frame == KeptFrame(offset: .milliseconds(90), passed: true, reason: "every eye open"))
    #expect(people.sentence == "1 person, eyes open · frame +0.09 s")
    // NB: settled at +90 ms: the frames after it were never read.
    #expect(session.read.withLock { $0 } == 3)
  }

  @Test("eyes open at zero: that frame, and nothing after it is read")
  func openAtZero() async throws {
    let session = RingSession(
      held: [scene(-100, open: false), scene(-10, open: true)],
      coming: [scene(23, open: false)], instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline(), session))
    #expect(frame.timestamp == .milliseconds(9_990))
    #expect(people.frame?.offsetText == "-0.01 s")
    #expect(session.read.withLock { $0 } == 0)
  }

  @Test("shut through the whole window: the last open frame before zero")
  func openBeforeZero() async throws {
    let session = RingSession(
      held: [scene(-200, open: true), scene(-100, open: false), scene(-40, open: false)],
      coming: stride(from: 0, through: 1100, by: 100).map { scene($0, open: false) },
      instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline(), session))
    #expect(frame.timestamp == .milliseconds(9_800))
    #expect(people.frame?.reason == "every eye open, just before zero")
  }

  @Test("shut in every frame: the best there was, and why")
  func noneOpen() async throws {
    let session = RingSession(
      held: [scene(-10, open: false)],
      coming: stride(from: 100, through: 1100, by: 100).map { scene($0, open: false) },
      instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline(), session))
    #expect(frame.timestamp == .milliseconds(9_990))
    #expect(people.eyesClosed == 1)
    #expect(people.frame?.passed == false)
    #expect(people.frame?.reason == "the best there was: 1 blinking")
    #expect(people.sentence == "1 person, blinking · frame -0.01 s")
  }

  @Test(
    "too few looks during the count to know her open eyes: the window teaches them, and a half-shut blink is not kept"
  )
  func unlearnedEyes() async throws {
    // NB: half shut (0.2) is above the fixed threshold used before her eyes are known (0.17),
    // and well below her open eyes (0.35).
    let finder = SquareFinder(aspectRatio: 0.35, closedBelow: 240, closedRatio: 0.2)
    let pipeline = try await pipeline(finder: finder, looks: 3)
    let atZero = try #require(pipeline.run().watcher.withLock { $0 }?.atZero)
    #expect(!atZero.eyesLearned)
    let session = RingSession(
      held: [scene(-100, open: false), scene(-10, open: false)],
      coming: stride(from: 23, through: 1023, by: 100).map { scene($0, open: $0 >= 223) },
      instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline, session))
    #expect(frame.timestamp == .milliseconds(10_223), "\(people)")
    #expect(people.eyesClosed == 0)
    #expect(people.frame?.reason == "every eye open")
    // NB: nothing kept early: the whole window was looked at first.
    #expect(session.read.withLock { $0 } == 11)
  }

  @Test(
    "a few looks that fell mostly in blinks: her shut eyes are not taken for open; the window teaches them, and the first open frame is kept"
  )
  func fewLooksMostlyShut() async throws {
    // NB: six looks, five of them half shut (0.2 against her open 0.35): enough for the live
    // status's baseline, whose open value is then a shut one; a shut frame measured against
    // it would pass as open.
    let finder = SquareFinder(aspectRatio: 0.35, closedBelow: 240, closedRatio: 0.2)
    let pipeline = try await pipeline(finder: finder, looks: 6) { $0 == 5 }
    let atZero = try #require(pipeline.run().watcher.withLock { $0 }?.atZero)
    let learned = atZero.tracker.people.map(\.baseline.isLearned)
    #expect(learned == [true])
    #expect(!atZero.eyesLearned)
    let session = RingSession(
      held: [scene(-100, open: false), scene(-10, open: false)],
      coming: stride(from: 23, through: 1023, by: 100).map { scene($0, open: $0 >= 423) },
      instant: .seconds(10))
    let (frame, people) = try #require(try await choose(pipeline, session))
    #expect(frame.timestamp == .milliseconds(10_423), "\(people)")
    #expect(people.eyesClosed == 0)
    #expect(people.frame?.reason == "every eye open")
  }

  @Test(
    "too few looks, and a window seen only shut: the ring's last second teaches her open eyes, and no shut frame is called open"
  )
  func unlearnedShutWindow() async throws {
    let finder = SquareFinder(aspectRatio: 0.35, closedBelow: 240, closedRatio: 0.2)
    let pipeline = try await pipeline(finder: finder, looks: 3)
    // Open in the ring's older frames (the count's last second), shut from -250 ms on.
    let older = stride(from: -950, through: -300, by: 50).map { scene($0, open: true) }
    let shut = stride(from: -250, through: -10, by: 60).map { scene($0, open: false) }
    let session = RingSession(
      held: older + shut,
      coming: stride(from: 23, through: 1023, by: 100).map { scene($0, open: false) },
      instant: .seconds(10))
    let (_, people) = try #require(try await choose(pipeline, session))
    #expect(people.eyesClosed == 1, "\(people)")
    #expect(people.frame?.passed == false)
    #expect(people.frame?.reason == "the best there was: 1 blinking")
  }

  @Test("the stream fails after a frame was judged: the best judged so far is the photo")
  func streamFails() async throws {
    let session = RingSession(
      held: [scene(-10, open: false)], coming: [scene(30, open: false)], instant: .seconds(10),
      failure: StreamEnded())
    let (frame, _) = try #require(try await choose(pipeline(), session))
    #expect(frame.timestamp == .milliseconds(9_990) || frame.timestamp == .milliseconds(10_030))
  }

  @Test("no window, or no ring: no choice, the photo is the frame at zero as before")
  func noChoice() async throws {
    let session = RingSession(
      held: [scene(-10, open: false)], coming: [scene(30, open: true)], instant: .seconds(10))
    #expect(try await choose(pipeline(window: .zero), session) == nil)
    let still = StillSession(picture: scene(0, open: true))
    let pipeline = try await pipeline()
    #expect(try await pipeline.peopleFrame(still, run: pipeline.run()) == nil)
  }

  @Test("the picker settles at the first passing frame from zero on, never before zero")
  func picker() {
    var picker = FramePicker(people: 2, reference: 100, nearZero: .milliseconds(16))
    func add(_ milliseconds: Int, faces: Int, closed: Int, sharpness: Double) -> Bool {
      picker.add(
        FrameCandidate(
          offset: .milliseconds(milliseconds), faces: faces, eyesClosed: closed,
          sharpness: sharpness))
    }
    // Before zero, one shut, one blurred (below 40 % of the count's sharpness), one missing.
    let settled = [
      add(-100, faces: 2, closed: 0, sharpness: 100), add(0, faces: 2, closed: 1, sharpness: 100),
      add(33, faces: 2, closed: 0, sharpness: 30), add(66, faces: 1, closed: 0, sharpness: 100),
      add(100, faces: 2, closed: 0, sharpness: 90),
    ]
    #expect(settled == [false, false, false, false, true])
    #expect(picker.choice?.index == 4)
  }

  @Test(
    "offsets in words",
    arguments: [(270, "+0.27 s"), (-100, "-0.10 s"), (0, "+0.00 s"), (1006, "+1.01 s")])
  func offsetText(milliseconds: Int, text: String) {
    #expect(
      KeptFrame(offset: .milliseconds(milliseconds), passed: true, reason: "").offsetText == text)
  }
}
