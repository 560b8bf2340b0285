import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

// NB: the limit catches a hang, not slowness: on a test clock these tests take a tenth of a
// second alone, but they wait for the main actor hundreds of times, and with every suite of
// the package running beside them under AddressSanitizer on two cores the 200-restart test
// took over a minute (53 s in the plain pass of the same run).
@MainActor
@Suite("PhotoTimerViewModel", .timeLimit(.minutes(5)))
struct PhotoTimerViewModelTests {
  @Test("The seed timeline: every status and prep change at its exact instant")
  func seedTimeline() async throws {
    let harness = ModelHarness()
    let model = harness.model
    #expect(model.status == .idle)
    await harness.start()
    #expect(model.status == .counting(remaining: 5))
    #expect(model.prep == PreparationProgress())

    typealias Expected = (status: PhotoTimerStatus, prep: PreparationProgress)
    let expected: [Expected] = [
      (.counting(remaining: 4), .init()),
      (.counting(remaining: 4), .init(cameraReady: true)),
      (.counting(remaining: 3), .init(cameraReady: true)),
      (.counting(remaining: 3), .init(cameraReady: true, locationTagged: true)),
      (.counting(remaining: 2), .init(cameraReady: true, locationTagged: true)),
      (.counting(remaining: 1), .init(cameraReady: true, locationTagged: true)),
      (.counting(remaining: 1), .init(cameraReady: true, locationTagged: true, filterChosen: true)),
    ]
    for (step, want) in zip(seedSchedule, expected) {
      // Just before each deadline nothing is due, so nothing may change.
      #expect(harness.clock.advance(to: step.offset - .nanoseconds(1)) == 0)
      await harness.advance(to: step.offset, newEvents: step.events, sleepers: step.sleepers)
      #expect(model.status == want.status, "at \(step.offset)")
      #expect(model.prep == want.prep, "at \(step.offset)")
      // The checklist's lines: one report for each step that has ended (the simulation's
      // people step is off from the start).
      #expect(
        model.reports.count
          == 1
          + [want.prep.cameraReady, want.prep.locationTagged, want.prep.filterChosen].filter { $0 }
          .count)
    }
    #expect(model.reports[.camera]?.elapsed == ms(1400))
    await harness.advance(to: ms(5000), newEvents: 2, sleepers: 0)
    await model.waitForRun()
    guard case .captured(let photo) = model.status else {
      Issue.record("expected captured, got \(model.status)")
      return
    }
    #expect(photo.settings == Seed.settings)
    #expect(photo.location == Seed.location)
    #expect(photo.filter == .vivid)
    #expect(photo.shutterOffset == ms(5000))
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test(
    "Cancel at every half second ends idle with everything stopped",
    arguments: Array(stride(from: 0, through: 5000, by: 500)))
  func cancelAtEveryHalfSecond(at milliseconds: Int) async throws {
    let harness = ModelHarness()
    let model = harness.model
    await harness.start()
    let instant = ms(milliseconds)
    for step in seedSchedule where step.offset <= instant {
      await harness.advance(to: step.offset, newEvents: step.events, sleepers: step.sleepers)
    }
    harness.clock.advance(to: instant)
    if milliseconds < 5000 {
      #expect(model.status == .counting(remaining: 5 - milliseconds / 1000))
    } else {
      #expect(model.status.isRunning == false)
    }

    model.cancel()
    #expect(model.status == .idle)
    #expect(model.prep == PreparationProgress())
    await model.waitForRun()
    #expect(model.status == .idle)
    #expect(model.prep == PreparationProgress())
    #expect(harness.clock.sleeperCount == 0)
    if milliseconds < 5000 {
      let last = await harness.recorder.waitForEvents(seedEventCount(before: instant) + 1).last
      #expect(last?.kind == .cancelled)
    }
    // Time moving on changes nothing: the cancelled run is gone.
    #expect(harness.clock.advance(to: .seconds(60)) == 0)
    #expect(model.status == .idle)
  }

  @Test("Cancel while waiting for the camera at zero")
  func cancelWhileWaiting() async throws {
    let harness = ModelHarness(seconds: 1)
    let model = harness.model
    await harness.start()
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    #expect(model.status == .waiting(for: [.camera]))
    model.cancel()
    await model.waitForRun()
    #expect(model.status == .idle)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Cancel while capturing stops the capture")
  func cancelWhileCapturing() async throws {
    let harness = ModelHarness(seconds: 1) { clock in
      .simulated(
        clock: clock, camera: .succeed(after: ms(100)), location: .never, filter: .never,
        capture: .succeed(after: ms(700)))
    }
    let model = harness.model
    await harness.start()
    await harness.advance(to: ms(100), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(1000), newEvents: 3, sleepers: 1)  // 2 dropped, shutter
    #expect(model.status == .capturing)
    model.cancel()
    await model.waitForRun()
    #expect(model.status == .idle)
    #expect(harness.clock.sleeperCount == 0)
    #expect(harness.recorder.kinds.last == .cancelled)
  }

  @Test("A required failure shows a failed status with the actionable message")
  func requiredFailure() async throws {
    let message = "no camera at /dev/video0 — is it plugged in? `phototimer doctor` lists cameras"
    let harness = ModelHarness { clock in
      .simulated(clock: clock, camera: .fail(after: ms(300), message: message))
    }
    await harness.start()
    await harness.advance(to: ms(300), newEvents: 2, sleepers: 0)
    await harness.model.waitForRun()
    #expect(
      harness.model.status
        == .failed(
          PhotoTimerFailure(cause: .stepFailed(.camera), message: "camera failed: \(message)")))
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Restarting mid-run shows counting at once and the old run never writes again")
  func restartMidRun() async throws {
    let harness = ModelHarness()
    let model = harness.model
    await harness.start()
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 3)
    let restart = harness.history.count
    model.startTimer()
    #expect(model.status == .counting(remaining: 5))
    #expect(model.prep == PreparationProgress())
    await harness.clock.waitForSleepers(4)
    // The old run has unwound completely (the new one waited for it) and wrote nothing.
    #expect(model.status == .counting(remaining: 5))
    #expect(harness.clock.deadlines == [ms(2400), ms(2800), ms(4200), ms(5600)])
    harness.clock.advance(to: ms(6400))
    await model.waitForRun()
    guard case .captured(let photo) = model.status else {
      Issue.record("expected captured, got \(model.status)")
      return
    }
    #expect(photo.shutterOffset == ms(5000))
    #expect(!harness.statuses(since: restart).contains(.idle))
  }

  @Test("200 restarts at seeded random instants: never idle, captured 5 s after the last")
  func restartRace() async throws {
    let harness = ModelHarness()
    let model = harness.model
    var random = SeededRandomNumberGenerator(seed: 0x5EED)
    await harness.start()
    let first = harness.history.count
    var now = Duration.zero
    for _ in 0..<200 {
      now += ms(Int.random(in: 0...6000, using: &random))
      harness.clock.advance(to: now)
      model.startTimer()
      #expect(model.status == .counting(remaining: 5))
      await harness.clock.waitForSleepers(4)
      #expect(model.status == .counting(remaining: 5))
      #expect(harness.clock.sleeperCount == 4)
    }
    harness.clock.advance(to: now + .seconds(5))
    await model.waitForRun()
    guard case .captured(let photo) = model.status else {
      Issue.record("expected captured, got \(model.status)")
      return
    }
    #expect(photo.shutterOffset == .seconds(5))
    #expect(harness.clock.sleeperCount == 0)
    // Not even for an instant: a stale run's write of `.idle` would show here.
    #expect(!harness.statuses(since: first).contains(.idle))
  }

  @Test("A restart opens the camera only after the old run has released it")
  func restartNeverOverlapsCamera() async throws {
    let cameras = OpenCameras()
    let harness = ModelHarness { clock in
      var services = PhotoTimerServices.simulated(clock: clock)
      let prepare = services.camera.prepare
      services.camera.prepare = {
        try cameras.open()
        defer { cameras.close() }
        return try await prepare()
      }
      return services
    }
    await harness.start()
    for _ in 0..<50 {
      harness.model.startTimer()
      await harness.clock.waitForSleepers(4)
    }
    harness.model.cancel()
    await harness.model.waitForRun()
    #expect(cameras.maximumOpen == 1)
    #expect(cameras.opened == 51)
  }

  @Test("Releasing the view model mid-run cancels the run; nothing keeps it alive")
  func releaseMidRun() async throws {
    let clock = TestClock()
    var model: PhotoTimerViewModel? = PhotoTimerViewModel(
      countdownSeconds: 5, services: .simulated(clock: clock), clock: clock)
    weak let weakModel = model
    let events = try #require(model?.events())
    model?.startTimer()
    await clock.waitForSleepers(4)
    clock.advance(to: ms(1400))
    model = nil
    #expect(weakModel == nil)
    // The run's children were cancelled: nothing sleeps, and the event stream has ended.
    #expect(clock.sleeperCount == 0)
    var seen = 0
    for await _ in events { seen += 1 }
    #expect(seen <= 3)
    #expect(clock.advance(to: .seconds(60)) == 0)
  }

  @Test("The countdown can change between runs without affecting the run in progress")
  func changeCountdownBetweenRuns() async throws {
    let harness = ModelHarness()
    let model = harness.model
    await harness.start()
    model.countdownSeconds = 2
    #expect(model.status == .counting(remaining: 5))
    model.startTimer()
    #expect(model.status == .counting(remaining: 2))
    model.cancel()
    await model.waitForRun()
  }

  private func seedEventCount(before instant: Duration) -> Int {
    1 + seedSchedule.filter { $0.offset <= instant }.reduce(0) { $0 + $1.events }
  }
}

/// Counts cameras held open at once, as a device that can be opened only once would.
final class OpenCameras: Sendable {
  private struct State {
    var open = 0
    var maximumOpen = 0
    var opened = 0
  }
  private let state = Locked(State())

  func open() throws {
    state.withLock {
      $0.open += 1
      $0.opened += 1
      $0.maximumOpen = max($0.maximumOpen, $0.open)
    }
  }

  func close() { state.withLock { $0.open -= 1 } }
  var maximumOpen: Int { state.withLock { $0.maximumOpen } }
  var opened: Int { state.withLock { $0.opened } }
}
