import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimer

/// A session on a test clock with a quick camera, no location or filter step, and a capture
/// that takes `captureTime(shot)` (shots counted from 0).
private struct SessionHarness {
  let clock = TestClock()
  let session: PhotoTimerSession<TestClock>
  let run: Task<PhotoTimerResult, Never>
  var events: AsyncStream<PhotoTimerSessionEvent>.Iterator

  static let cameraTime = ms(200)

  init(
    seconds: Int = 1, timeLapse: TimeLapse?,
    captureTime: @escaping @Sendable (Int) -> Duration = { _ in .zero }
  ) {
    let clock = clock
    let shots = Locked(0)
    let services = PhotoTimerServices(
      camera: CameraService(
        prepare: {
          try await clock.sleep(for: Self.cameraTime)
          return Seed.settings
        },
        capture: { _ in
          let shot = shots.withLock { count -> Int in
            defer { count += 1 }
            return count
          }
          let time = captureTime(shot)
          if time > .zero { try await clock.sleep(for: time) }
          return nil
        }),
      location: .disabled(reason: "off"), filter: .disabled(reason: "off"))
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(countdownSeconds: seconds), services: services,
      clock: clock, timeLapse: timeLapse)
    self.session = session
    let (stream, continuation) = AsyncStream.makeStream(of: PhotoTimerSessionEvent.self)
    events = stream.makeAsyncIterator()
    run = Task {
      let result = await session.run { continuation.yield($0) }
      continuation.finish()
      return result
    }
  }

  /// Reads events until one matches; returns it with its time on the session's axis.
  mutating func next(
    _ matches: (PhotoTimerSessionEvent) -> Bool
  ) async -> (event: PhotoTimerSessionEvent, at: Duration)? {
    while let event = await events.next() {
      if matches(event) {
        if case .run(let inner, let start) = event { return (event, start + inner.offset) }
        return (event, .zero)
      }
    }
    return nil
  }

  /// The shutter of the current run, on the session's axis.
  mutating func shutter() async -> Duration? {
    await next {
      if case .run(let event, _) = $0, event.kind == .shutter { return true }
      return false
    }?.at
  }

  mutating func cameraReady() async {
    _ = await next {
      if case .run(let event, _) = $0, case .stepFinished(let report) = event.kind {
        return report.step == .camera
      }
      return false
    }
  }

  /// Takes one time-lapse shot that is due at `deadline`: the session is asleep until its
  /// lead, the camera gets ready, the tick fires on the deadline.
  mutating func shoot(dueAt deadline: Duration) async -> Duration? {
    await clock.waitForSleepers(1)
    guard let start = clock.deadlines.first else { return nil }
    _ = clock.advance(to: start)
    await clock.waitForSleepers(2)
    _ = clock.advance(to: start + Self.cameraTime)
    await cameraReady()
    _ = clock.advance(to: deadline)
    return await shutter()
  }

  /// The first photo, with a count of one second.
  mutating func firstShot() async -> Duration? {
    await clock.waitForSleepers(2)
    _ = clock.advance(to: Self.cameraTime)
    await cameraReady()
    _ = clock.advance(to: .seconds(1))
    return await shutter()
  }
}

@Suite("A session: restarts and time-lapses on a test clock", .timeLimit(.minutes(2)))
struct PhotoTimerSessionTests {
  @Test("1,000 time-lapse shots: every shutter exactly on first + k × interval")
  func thousandShots() async {
    let lapse = TimeLapse(interval: .seconds(2), count: 1000)
    var harness = SessionHarness(timeLapse: lapse)
    let first = await harness.firstShot()
    #expect(first == .seconds(1))
    var misses: [Int] = []
    for shot in 1..<1000 {
      let deadline = lapse.deadline(ofShot: shot, first: .seconds(1))
      if await harness.shoot(dueAt: deadline) != deadline { misses.append(shot) }
    }
    #expect(misses.isEmpty, "shots off their deadline: \(misses.prefix(10))")
    guard case .captured = await harness.run.value else {
      Issue.record("the time-lapse did not end with a photo")
      return
    }
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Each later shot's run starts one lead (camera time + margin) before its deadline")
  func leadBeforeDeadline() async {
    let lapse = TimeLapse(interval: .seconds(2), count: 2)
    var harness = SessionHarness(timeLapse: lapse)
    _ = await harness.firstShot()
    await harness.clock.waitForSleepers(1)
    #expect(harness.clock.deadlines == [.seconds(3) - SessionHarness.cameraTime - TimeLapse.margin])
    #expect(await harness.shoot(dueAt: .seconds(3)) == .seconds(3))
    _ = await harness.run.value
  }

  @Test("A slow shot skips the slots it overran, with a note, and the next lands on its own")
  func slowShotSkips() async {
    let lapse = TimeLapse(interval: .seconds(2), count: 8)
    var harness = SessionHarness(timeLapse: lapse) { shot in shot == 2 ? .seconds(5) : .zero }
    _ = await harness.firstShot()
    #expect(await harness.shoot(dueAt: .seconds(3)) == .seconds(3))
    #expect(await harness.shoot(dueAt: .seconds(5)) == .seconds(5))
    // Shot 3 (0-based 2) captures until 10 s: the slots at 7 s and 9 s have passed.
    await harness.clock.waitForSleepers(1)
    _ = harness.clock.advance(to: .seconds(10))
    let skipped = await harness.next {
      if case .timeLapseSkipped = $0 { return true }
      return false
    }
    #expect(skipped?.event == .timeLapseSkipped(4...5))
    #expect(await harness.shoot(dueAt: .seconds(11)) == .seconds(11))
    #expect(await harness.shoot(dueAt: .seconds(13)) == .seconds(13))
    #expect(await harness.shoot(dueAt: .seconds(15)) == .seconds(15))
    guard case .captured = await harness.run.value else {
      Issue.record("the time-lapse did not end with a photo")
      return
    }
  }

  @Test("Cancel between shots: cancelled at once, nothing left asleep")
  func cancelBetweenShots() async {
    var harness = SessionHarness(timeLapse: TimeLapse(interval: .seconds(2), count: 10))
    _ = await harness.firstShot()
    #expect(await harness.shoot(dueAt: .seconds(3)) == .seconds(3))
    await harness.clock.waitForSleepers(1)
    harness.run.cancel()
    #expect(await harness.run.value == .cancelled)
    let last = await harness.next {
      if case .run(let event, _) = $0 { return event.kind == .cancelled }
      return false
    }
    #expect(last != nil)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Cancel during a shot: the run is cancelled, nothing left asleep")
  func cancelDuringShot() async {
    var harness = SessionHarness(timeLapse: TimeLapse(interval: .seconds(2), count: 10))
    _ = await harness.firstShot()
    await harness.clock.waitForSleepers(1)
    _ = harness.clock.advance(to: harness.clock.deadlines.first ?? .zero)
    await harness.clock.waitForSleepers(2)
    harness.run.cancel()
    #expect(await harness.run.value == .cancelled)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Restart cancels the count and starts it again; the photo comes from the new run")
  func restart() async {
    var harness = SessionHarness(seconds: 3, timeLapse: nil)
    await harness.clock.waitForSleepers(2)
    harness.session.restart()
    let restarted = await harness.next {
      if case .restarted = $0 { return true }
      return false
    }
    #expect(restarted?.event == .restarted(count: 1))
    await harness.clock.waitForSleepers(2)
    _ = harness.clock.advance(by: SessionHarness.cameraTime)
    await harness.cameraReady()
    for second in 1...3 {
      await harness.clock.waitForSleepers(1)
      _ = harness.clock.advance(to: .seconds(second))
    }
    #expect(await harness.shutter() == .seconds(3))
    guard case .captured = await harness.run.value else {
      Issue.record("no photo after the restart")
      return
    }
  }

  @Test("After the first photo a restart does nothing: the time-lapse's shots go on")
  func restartIgnoredAfterPhoto() async {
    let lapse = TimeLapse(interval: .seconds(2), count: 3)
    var harness = SessionHarness(timeLapse: lapse)
    _ = await harness.firstShot()
    await harness.clock.waitForSleepers(1)
    _ = harness.clock.advance(to: harness.clock.deadlines.first ?? .zero)
    await harness.clock.waitForSleepers(2)
    harness.session.restart()  // during shot 2's run
    _ = harness.clock.advance(to: .seconds(1) + .seconds(2) - TimeLapse.margin)
    await harness.cameraReady()
    _ = harness.clock.advance(to: .seconds(3))
    #expect(await harness.shutter() == .seconds(3))
    #expect(await harness.shoot(dueAt: .seconds(5)) == .seconds(5))
    guard case .captured = await harness.run.value else {
      Issue.record("a restart after the first photo ended the time-lapse")
      return
    }
  }

  @Test("The schedule: deadlines, leads, and the next shot after a late one")
  func schedule() {
    let lapse = TimeLapse(interval: .seconds(10), count: 100)
    #expect(lapse.deadline(ofShot: 3, first: .seconds(5)) == .seconds(35))
    #expect(lapse.lead(preparation: ms(400)) == ms(900))
    #expect(lapse.lead(preparation: .seconds(30)) == .seconds(10))
    #expect(lapse.nextShot(after: 3, first: .seconds(5), now: .seconds(40)) == 4)
    #expect(lapse.nextShot(after: 3, first: .seconds(5), now: .seconds(48)) == 5)
    #expect(lapse.nextShot(after: 98, first: .zero, now: .zero) == 99)
    #expect(lapse.nextShot(after: 99, first: .zero, now: .zero) == nil)
  }
}
