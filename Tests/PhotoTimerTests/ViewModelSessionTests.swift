import PhotoTimer
import PhotoTimerTesting
import Testing

/// What the terminal needs from the view model, on a test clock: restarts, and a time-lapse
/// whose session goes on between shots.
@MainActor
@Suite("PhotoTimerViewModel: restarts and time-lapses", .timeLimit(.minutes(2)))
struct ViewModelSessionTests {
  @Test("A restart mid-count counts again from the top, never idle, and says so")
  func restartMidCount() async {
    let harness = ModelHarness()
    let model = harness.model
    await harness.start()
    for step in seedSchedule where step.offset <= ms(2000) {
      await harness.advance(to: step.offset, newEvents: step.events, sleepers: step.sleepers)
    }
    #expect(model.status == .counting(remaining: 3))
    let before = harness.history.count
    model.restart()
    #expect(model.status == .counting(remaining: 5))
    #expect(model.restarts == 1 && model.note == "restarted (1)")
    #expect(model.presentation().note == "restarted (1)")
    #expect(!harness.statuses(since: before).contains(.idle))
    #expect(model.isSessionRunning)
    model.cancel()
    await model.waitForRun()
    #expect(model.status == .idle && !model.isSessionRunning && model.note == nil)
  }

  @Test("What the gate refuses is never done in silence: its reason is the note")
  func refusalsSaid() async {
    let harness = ModelHarness()
    let model = harness.model
    model.takeNow()
    #expect(model.status == .idle && !model.hasRun)
    #expect(model.note == "not now: no count is running")
    #expect(model.presentation().note == "not now: no count is running")
    // An allowed intent happens and clears it.
    model.startTimer()
    #expect(model.status == .counting(remaining: 5) && model.note == nil)
    model.cancel()
    await model.waitForRun()
  }

  /// A count of one second, the camera ready `camera` in, nothing else prepared.
  private static func oneSecondCount(camera: Duration) -> ModelHarness {
    ModelHarness(seconds: 1) { clock in
      PhotoTimerServices(
        camera: CameraService(
          prepare: {
            try await clock.sleep(for: camera)
            return Seed.settings
          }, capture: { _ in nil }),
        location: .disabled(reason: "off"), filter: .disabled(reason: "off"))
    }
  }

  @Test("A restart's note lasts as long as its count: the photo after it does not say it")
  func restartNoteEnds() async {
    let camera = ms(200)
    let harness = Self.oneSecondCount(camera: camera)
    let model = harness.model
    model.startTimer()
    await harness.clock.waitForSleepers(2)
    model.restart()
    #expect(model.note == "restarted (1)")
    await harness.clock.waitForSleepers(2)
    harness.clock.advance(to: camera)
    await harness.recorder.waitUntil { $0.contains { $0.kind.isCameraReady } }
    harness.clock.advance(to: .seconds(1))
    await harness.recorder.waitUntil { $0.contains { $0.kind.isCaptured } }
    await model.waitForRun()
    guard case .captured = model.status else {
      Issue.record("expected the photo, got \(model.status)")
      return
    }
    #expect(model.note == nil)
    #expect(model.presentation().note == nil)
  }

  @Test("A time-lapse goes on between shots: cancel only, the shot in the note, then it ends")
  func timeLapse() async {
    let camera = ms(200)
    let harness = Self.oneSecondCount(camera: camera)
    let model = harness.model
    model.timeLapse = TimeLapse(interval: .seconds(2), count: 2)
    model.startTimer()
    // The first photo: the camera, then the count of one.
    await harness.clock.waitForSleepers(2)
    harness.clock.advance(to: camera)
    await harness.recorder.waitUntil { $0.contains { $0.kind.isCameraReady } }
    harness.clock.advance(to: .seconds(1))
    await harness.recorder.waitUntil { $0.filter(\.kind.isCaptured).count == 1 }
    #expect(model.isSessionRunning)
    #expect(model.presentation().actions == [.cancel])
    // A restart no longer applies once a photo was taken: the gate's refusal is the note.
    model.restart()
    #expect(model.restarts == 0)
    #expect(model.note == "not now: a time-lapse is waiting for its next shot: cancel it first")
    model.takeNow()
    #expect(model.note == "not now: a time-lapse is waiting for its next shot: cancel it first")
    guard case .captured = model.status else {
      Issue.record("expected the first photo, got \(model.status)")
      return
    }
    // The second shot: its run starts one lead before its deadline (3 s).
    await harness.clock.waitForSleepers(1)
    let start = harness.clock.deadlines[0]
    harness.clock.advance(to: start)
    await harness.clock.waitForSleepers(2)
    #expect(model.note == "time-lapse: shot 2 of 2")
    #expect(model.presentation().note == "time-lapse: shot 2 of 2")
    harness.clock.advance(to: start + camera)
    await harness.recorder.waitUntil { $0.filter(\.kind.isCameraReady).count == 2 }
    harness.clock.advance(to: .seconds(3))
    await model.waitForRun()
    #expect(harness.recorder.kinds.filter(\.isCaptured).count == 2)
    #expect(!model.isSessionRunning)
    #expect(model.presentation().actions == [.start, .quit])
  }
}

extension PhotoTimerEvent.Kind {
  fileprivate var isCaptured: Bool {
    if case .captured = self { return true }
    return false
  }

  fileprivate var isCameraReady: Bool {
    if case .stepFinished(let report) = self { return report.step == .camera }
    return false
  }
}
