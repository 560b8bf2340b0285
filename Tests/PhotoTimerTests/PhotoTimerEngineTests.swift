import Foundation
import PhotoTimer
import PhotoTimerTesting
import Testing

@Suite("PhotoTimerEngine", .timeLimit(.minutes(1)))
struct PhotoTimerEngineTests {
  @Test("The seed scenario: every event at its exact instant, captured at 5 s with all three")
  func seedTimeline() async throws {
    let harness = EngineHarness(seconds: 5)
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)  // tick 1 s, camera, location, filter
    #expect(harness.clock.deadlines == [ms(1000), ms(1400), ms(2800), ms(4200)])

    // Nothing is due before the first deadline, so nothing can happen.
    #expect(harness.clock.advance(to: ms(999)) == 0)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(2000), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(2800), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(3000), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(4000), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(4200), newEvents: 1, sleepers: 1)
    await harness.advance(to: ms(5000), newEvents: 2, sleepers: 0)

    let result = await harness.run.value
    let photo = CapturedPhoto(
      settings: Seed.settings, location: Seed.location, filter: .vivid,
      reports: [
        StepReport(step: .camera, outcome: .succeeded(.camera(Seed.settings)), elapsed: ms(1400)),
        StepReport(
          step: .location, outcome: .succeeded(.location(Seed.location)), elapsed: ms(2800)),
        StepReport(step: .filter, outcome: .succeeded(.filter(Seed.filter)), elapsed: ms(4200)),
        Seed.peopleOff,
      ],
      shutterOffset: ms(5000))
    #expect(result == .captured(photo))
    #expect(
      harness.recorder.events == [
        PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 5)),
        PhotoTimerEvent(offset: .zero, kind: .stepFinished(Seed.peopleOff)),
        PhotoTimerEvent(offset: ms(1000), kind: .tick(remaining: 4)),
        .step(.camera, .succeeded(.camera(Seed.settings)), at: ms(1400)),
        PhotoTimerEvent(offset: ms(2000), kind: .tick(remaining: 3)),
        .step(.location, .succeeded(.location(Seed.location)), at: ms(2800)),
        PhotoTimerEvent(offset: ms(3000), kind: .tick(remaining: 2)),
        PhotoTimerEvent(offset: ms(4000), kind: .tick(remaining: 1)),
        .step(.filter, .succeeded(.filter(Seed.filter)), at: ms(4200)),
        PhotoTimerEvent(offset: ms(5000), kind: .shutter),
        PhotoTimerEvent(offset: ms(5000), kind: .captured(photo)),
      ])
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Countdown 0 shoots as soon as the camera is ready, dropping the optional steps")
  func countdownZero() async throws {
    let harness = EngineHarness(seconds: 0)
    await harness.recorder.waitForEvents(3)
    await harness.clock.waitForSleepers(4)  // three steps and the wait limit
    #expect(
      harness.recorder.kinds == [
        .started(countdownSeconds: 0), .stepFinished(Seed.peopleOff), .waiting(for: [.camera]),
      ])
    let events = await harness.advance(to: ms(1400), newEvents: 5, sleepers: 0)
    #expect(
      events.map(\.kind).prefix(3) == [
        .stepFinished(
          StepReport(step: .camera, outcome: .succeeded(.camera(Seed.settings)), elapsed: ms(1400))),
        .stepFinished(
          StepReport(
            step: .location, outcome: .dropped(reason: "no fix before the shutter"),
            elapsed: ms(1400))),
        .stepFinished(
          StepReport(
            step: .filter,
            outcome: .dropped(
              reason: "no suggestion before the shutter; the neutral look was used"),
            elapsed: ms(1400))),
      ])
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == ms(1400))
    #expect(photo.location == nil)
    #expect(photo.locationUnavailableReason == "no fix before the shutter")
    #expect(photo.filter == .natural)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("Countdown 1 s waits for the camera until 1.4 s, showing that it waits")
  func countdownOneWaitsForCamera() async throws {
    let harness = EngineHarness(seconds: 1)
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    let atZero = await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    #expect(atZero == [PhotoTimerEvent(offset: ms(1000), kind: .waiting(for: [.camera]))])
    #expect(harness.clock.deadlines.contains(ms(11_000)))  // the bounded wait
    let atCamera = await harness.advance(to: ms(1400), newEvents: 5, sleepers: 0)
    #expect(atCamera.map(\.offset) == Array(repeating: ms(1400), count: 5))
    // NB: a wait cut short (the time limit) gives fewer: a failure, never a crash.
    try #require(atCamera.count == 5)
    #expect(atCamera[3].kind == .shutter)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == ms(1400))
  }

  @Test("Countdown 3 s drops the filter: neutral look, reason recorded, location kept")
  func countdownThreeDropsFilter() async throws {
    let harness = EngineHarness(seconds: 3)
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(2000), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(2800), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(3000), newEvents: 3, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.filter == .natural)
    #expect(photo.location == Seed.location)
    #expect(
      photo.report(for: .filter)?.outcome
        == .dropped(reason: "no suggestion before the shutter; the neutral look was used"))
    #expect(
      photo.timings == [.camera: ms(1400), .location: ms(2800), .filter: ms(3000), .people: .zero])
  }

  @Test("A required failure cancels the other steps and fails with the step's message")
  func requiredFailure() async throws {
    let harness = EngineHarness(seconds: 5) { clock in
      .simulated(
        clock: clock,
        camera: .fail(after: ms(100), message: "no camera at /dev/video0 — is it plugged in?"))
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(100), newEvents: 2, sleepers: 0)
    let failure = PhotoTimerFailure(
      cause: .stepFailed(.camera),
      message: "camera failed: no camera at /dev/video0 — is it plugged in?")
    #expect(await harness.run.value == .failed(failure))
    #expect(
      harness.recorder.events.suffix(2) == [
        .step(
          .camera, .failed(reason: "no camera at /dev/video0 — is it plugged in?"), at: ms(100)),
        PhotoTimerEvent(offset: ms(100), kind: .failed(failure)),
      ])
    // The failure surfaced at 100 ms, not when the slower steps would have finished.
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("An optional failure is recorded and the photo is still taken")
  func optionalFailure() async throws {
    let harness = EngineHarness(seconds: 5) { clock in
      .simulated(
        clock: clock,
        location: .fail(after: ms(500), message: "gpsd not running on localhost:2947"))
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    let failed = await harness.advance(to: ms(500), newEvents: 1, sleepers: 3)
    #expect(
      failed == [
        .step(.location, .failed(reason: "gpsd not running on localhost:2947"), at: ms(500))
      ]
    )
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 2)
    for second in 2...4 {
      await harness.advance(to: .seconds(second), newEvents: 1, sleepers: 2)
    }
    await harness.advance(to: ms(4200), newEvents: 1, sleepers: 1)
    await harness.advance(to: ms(5000), newEvents: 2, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.location == nil)
    #expect(photo.locationUnavailableReason == "gpsd not running on localhost:2947")
    #expect(photo.filter == .vivid)
  }

  @Test("The wait at zero is bounded: a camera that never gets ready fails with a reason")
  func cameraNeverReady() async throws {
    let harness = EngineHarness(seconds: 2, waitLimit: .seconds(3)) { clock in
      .simulated(clock: clock, camera: .never)
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    await harness.advance(to: ms(2000), newEvents: 1, sleepers: 3)  // waiting; loc, filter left
    await harness.advance(to: ms(2800), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(4200), newEvents: 1, sleepers: 1)
    #expect(harness.clock.deadlines == [ms(5000), .seconds(100 * 365 * 86_400)].sorted())
    await harness.advance(to: ms(5000), newEvents: 1, sleepers: 0)
    guard case .failed(let failure) = await harness.run.value else {
      Issue.record("expected a failure, got \(harness.recorder.kinds)")
      return
    }
    #expect(failure.cause == .notReadyInTime([.camera]))
    #expect(failure.message.hasPrefix("camera not ready 3.0 s after the countdown ended"))
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("After a stall the current count is published once: no burst of stale ticks")
  func stallSkipsTicks() async throws {
    let harness = EngineHarness(seconds: 5) { clock in
      .simulated(clock: clock, camera: .succeed(after: ms(500)), location: .never, filter: .never)
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(500), newEvents: 1, sleepers: 3)
    // Only the 1 s tick is due at 3.5 s: it shows 2 and the next tick is at 4 s, not 2 s.
    let stalled = await harness.advance(to: ms(3500), newEvents: 1, sleepers: 3)
    #expect(stalled == [PhotoTimerEvent(offset: ms(3500), kind: .tick(remaining: 2))])
    #expect(harness.clock.deadlines.first == ms(4000))
    // A stall past zero shoots once, at once.
    await harness.advance(to: ms(9000), newEvents: 4, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == ms(9000))
    let ticks = harness.recorder.kinds.filter {
      if case .tick = $0 { return true }
      return false
    }
    #expect(ticks == [.tick(remaining: 2)])
  }

  @Test("Cancelling the run's task stops every step and publishes cancelled last")
  func cancelStopsEverything() async throws {
    let harness = EngineHarness(seconds: 5)
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1400), newEvents: 2, sleepers: 3)
    harness.run.cancel()
    #expect(await harness.run.value == .cancelled)
    #expect(harness.recorder.kinds.last == .cancelled)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("A failing capture ends the run in failure with the camera's message")
  func captureFailure() async throws {
    let harness = EngineHarness(seconds: 1) { clock in
      .simulated(
        clock: clock, camera: .succeed(after: ms(10)), location: .never, filter: .never,
        capture: .fail(after: .zero, message: "disk full writing /tmp/x.jpg"))
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(10), newEvents: 1, sleepers: 3)
    harness.clock.advance(to: ms(1000))
    let failure = PhotoTimerFailure(
      cause: .captureFailed, message: "capture failed: disk full writing /tmp/x.jpg")
    #expect(await harness.run.value == .failed(failure))
    #expect(harness.recorder.kinds.suffix(2) == [.shutter, .failed(failure)])
  }

  @Test("A capture that completes despite a cancel is reported: the photo exists")
  func captureCompletesDespiteCancel() async throws {
    let file = URL(fileURLWithPath: "/tmp/IMG_20261130_120000.jpg")
    let harness = EngineHarness(seconds: 1) { clock in
      var services = PhotoTimerServices.simulated(
        clock: clock, camera: .succeed(after: ms(10)), location: .never, filter: .never)
      services.camera.capture = { _ in
        // A camera that cannot stop mid-write finishes the file, then returns.
        try? await clock.sleep(for: ms(300))
        return file
      }
      return services
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(10), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(1000), newEvents: 3, sleepers: 1)  // 2 dropped, shutter
    harness.run.cancel()
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected the finished photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.file == file)
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("events() publishes the run and cancels it when the consumer stops")
  func eventStream() async throws {
    let clock = TestClock()
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5),
      services: .simulated(clock: clock), clock: clock)
    var iterator = engine.events().makeAsyncIterator()
    #expect(await iterator.next()?.kind == .started(countdownSeconds: 5))
    #expect(await iterator.next()?.kind == .stepFinished(Seed.peopleOff))
    await clock.waitForSleepers(4)
    clock.advance(to: ms(1000))
    #expect(await iterator.next()?.kind == .tick(remaining: 4))
    await clock.waitForSleepers(4)
    clock.advance(to: ms(5000))
    var last: PhotoTimerEvent.Kind?
    while let event = await iterator.next() { last = event.kind }
    guard case .captured = last else {
      Issue.record("expected captured last, got \(String(describing: last))")
      return
    }
    #expect(clock.sleeperCount == 0)
  }
}

@Suite("Turned-off steps and live drop reasons", .timeLimit(.minutes(1)))
struct PreparationStatusTests {
  @Test("Location off: skipped at once, its work never called, the photo has no location")
  func locationOff() async throws {
    let harness = EngineHarness(seconds: 2) { clock in
      var services = PhotoTimerServices.simulated(clock: clock)
      services.location = .disabled(reason: "location off")
      return services
    }
    await harness.recorder.waitForEvents(3)
    // A tick, the camera and the filter: no third preparation sleeps.
    await harness.clock.waitForSleepers(3)
    #expect(harness.clock.deadlines == [ms(1000), ms(1400), ms(4200)])
    #expect(
      harness.recorder.events == [
        PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 2)),
        .step(.location, .skipped(reason: "location off"), at: .zero),
        PhotoTimerEvent(offset: .zero, kind: .stepFinished(Seed.peopleOff)),
      ])
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 2)
    await harness.advance(to: ms(2000), newEvents: 3, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.location == nil)
    #expect(photo.locationUnavailableReason == "location off")
    #expect(photo.reports.map(\.step) == PreparationStep.allCases)
  }

  @Test("A required step that is turned off is not waited for")
  func requiredButOff() async throws {
    let harness = EngineHarness(seconds: 1) { clock in
      var services = PhotoTimerServices.simulated(clock: clock)
      services.filter = .disabled(reason: "filter off")
      services.filter.isRequired = true
      return services
    }
    await harness.recorder.waitForEvents(3)
    await harness.clock.waitForSleepers(3)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 2)  // waiting for the camera
    await harness.advance(to: ms(1400), newEvents: 4, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.filter == .natural)
    #expect(photo.report(for: .filter)?.outcome == .skipped(reason: "filter off"))
  }

  @Test("A step dropped at the shutter gives the status it last reported as the reason")
  func liveDropReason() async throws {
    let harness = EngineHarness(seconds: 2) { clock in
      var services = PhotoTimerServices.simulated(clock: clock, location: .never)
      let perform = services.location.perform
      services.location = Preparation(isRequired: false) {
        StepStatus.report("no fix yet: connecting")
        StepStatus.report("no fix yet: the receiver has no satellites")
        return try await perform()
      }
      return services
    }
    await harness.recorder.waitForEvents(4)
    #expect(
      harness.recorder.kinds.dropFirst(2)
        == [
          .stepStatus(.location, "no fix yet: connecting"),
          .stepStatus(.location, "no fix yet: the receiver has no satellites"),
        ])
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 4)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 3)
    await harness.advance(to: ms(2000), newEvents: 4, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.locationUnavailableReason == "no fix yet: the receiver has no satellites")
    // A step without a status keeps the general reason.
    #expect(
      photo.report(for: .filter)?.outcome
        == .dropped(reason: "no suggestion before the shutter; the neutral look was used"))
  }
}

@Suite("Values ready at the shutter", .timeLimit(.minutes(1)))
struct ReadyAtShutterTests {
  @Test("A step still running at the shutter whose value is ready is used, not dropped")
  func readyValueIsUsed() async throws {
    let harness = EngineHarness(seconds: 1) { clock in
      var services = PhotoTimerServices.simulated(clock: clock, filter: .never)
      let perform = services.filter.perform
      services.filter = Preparation(
        isRequired: false, ready: { FilterSuggestion(filter: .mono, reason: "ready") },
        perform: perform)
      return services
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1000), newEvents: 1, sleepers: 3)  // waiting for the camera
    await harness.advance(to: ms(1400), newEvents: 5, sleepers: 0)
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.filter == .mono)
    #expect(
      photo.report(for: .filter)
        == StepReport(
          step: .filter,
          outcome: .succeeded(.filter(FilterSuggestion(filter: .mono, reason: "ready"))),
          elapsed: ms(1400)))
    // The location had no ready value: dropped as before.
    #expect(photo.locationUnavailableReason == "no fix before the shutter")
  }
}

@Suite("Take it now", .timeLimit(.minutes(1)))
struct TakeNowTests {
  @Test("A press during the count ends it: the shutter fires at once when the camera is ready")
  func pressAfterCameraReady() async throws {
    let clock = TestClock()
    let recorder = EventRecorder()
    let (presses, button) = AsyncStream.makeStream(of: Void.self)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5),
      services: .simulated(clock: clock), clock: clock)
    let run = Task { await engine.run(shootNow: presses, onEvent: recorder.record) }
    await recorder.waitForEvents(1)
    await clock.waitForSleepers(4)
    clock.advance(to: ms(1400))  // the camera is ready
    await recorder.waitForEvents(3)
    await clock.waitForSleepers(3)
    button.yield()
    guard case .captured(let photo) = await run.value else {
      Issue.record("expected a photo, got \(recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == ms(1400))
    #expect(photo.locationUnavailableReason == "no fix before the shutter")
    #expect(!recorder.kinds.contains(.tick(remaining: 3)))
  }

  @Test("A press before the camera is ready waits for it, like the end of the count")
  func pressBeforeCameraReady() async throws {
    let clock = TestClock()
    let recorder = EventRecorder()
    let (presses, button) = AsyncStream.makeStream(of: Void.self)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5),
      services: .simulated(clock: clock), clock: clock)
    let run = Task { await engine.run(shootNow: presses, onEvent: recorder.record) }
    await recorder.waitForEvents(1)
    await clock.waitForSleepers(4)
    button.yield()
    await recorder.waitForEvents(3)
    #expect(recorder.kinds.last == .waiting(for: [.camera]))
    await clock.waitForSleepers(4)  // the wait limit joined the three steps
    clock.advance(to: ms(1400))
    guard case .captured(let photo) = await run.value else {
      Issue.record("expected a photo, got \(recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == ms(1400))
  }
}
