import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimer

/// A camera that must be handed over before it shoots (a DSLR's live view holds the device):
/// the machine starts the hand-over its lead before zero and the shutter waits for it.
@Suite("RunStateMachine: the camera's hand-over")
struct HandOverTests {
  private let settings = CameraSettings(aperture: "f/4", shutterSpeed: "1/125s", iso: 100)

  private func machine(
    seconds: Int, lead: Duration, order: PreparationOrder = .concurrent
  ) -> RunStateMachine {
    RunStateMachine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: seconds, cameraWaitLimit: .seconds(10), preparation: order),
      required: [.camera], skipped: [.location: "off", .filter: "off", .people: "off"],
      handOverLead: lead)
  }

  private func cameraReady(
    _ machine: inout RunStateMachine, at now: Duration
  ) -> [RunStateMachine
    .Action]
  {
    machine.handle(.stepEnded(.camera, .success(.camera(settings)), elapsed: now), at: now)
  }

  private func shutter(_ actions: [RunStateMachine.Action]) -> Duration? {
    actions.lazy.compactMap { action -> Duration? in
      if case .publish(let event) = action, event.kind == .shutter { return event.offset }
      return nil
    }.first
  }

  @Test("Its lead before zero is scheduled with the count; it starts then, and zero shoots at once")
  func startsItsLeadBeforeZero() {
    var machine = machine(seconds: 5, lead: ms(1500))
    #expect(machine.start().contains(.schedule(.handOver, at: ms(3500))))
    #expect(!cameraReady(&machine, at: ms(300)).contains(.startHandOver))
    #expect(machine.handle(.timerFired(.handOver), at: ms(3500)) == [.startHandOver])
    #expect(machine.handle(.handedOver(nil), at: ms(4700)).isEmpty)
    for second in 1...4 { _ = machine.handle(.timerFired(.tick), at: .seconds(second)) }
    #expect(shutter(machine.handle(.timerFired(.tick), at: .seconds(5))) == .seconds(5))
  }

  @Test("Still under way at zero: the run waits for the camera, and shoots the moment it is free")
  func waitsAtZero() {
    var machine = machine(seconds: 2, lead: ms(500))
    _ = machine.start()
    _ = cameraReady(&machine, at: ms(100))
    #expect(machine.handle(.timerFired(.handOver), at: ms(1500)) == [.startHandOver])
    _ = machine.handle(.timerFired(.tick), at: .seconds(1))
    let zero = machine.handle(.timerFired(.tick), at: .seconds(2))
    #expect(
      zero == [
        .publish(PhotoTimerEvent(offset: .seconds(2), kind: .waiting(for: [.camera]))),
        .schedule(.waitLimit, at: .seconds(12)),
      ])
    #expect(shutter(machine.handle(.handedOver(nil), at: ms(2700))) == ms(2700))
  }

  @Test("A lead longer than the count is due at once; it starts when the camera is ready")
  func leadLongerThanTheCount() {
    var machine = machine(seconds: 2, lead: .seconds(3))
    #expect(machine.start().contains(.schedule(.handOver, at: .zero)))
    #expect(machine.handle(.timerFired(.handOver), at: .zero).isEmpty)
    #expect(cameraReady(&machine, at: ms(800)).contains(.startHandOver))
  }

  @Test("Take it now: the hand-over starts at once, and the shutter waits for it")
  func takeItNow() {
    var machine = machine(seconds: 10, lead: .seconds(2))
    _ = machine.start()
    _ = cameraReady(&machine, at: ms(200))
    let now = machine.handle(.shootNow, at: .seconds(3))
    #expect(now.first == .startHandOver)
    #expect(
      now.contains(.publish(PhotoTimerEvent(offset: .seconds(3), kind: .waiting(for: [.camera])))))
    #expect(shutter(now) == nil)
    // The lead's own timer, later, changes nothing.
    #expect(machine.handle(.timerFired(.handOver), at: .seconds(8)).isEmpty)
    #expect(shutter(machine.handle(.handedOver(nil), at: ms(4200))) == ms(4200))
  }

  @Test("A camera not ready at zero: the hand-over starts when it is, the shutter after both")
  func cameraLate() {
    var machine = machine(seconds: 1, lead: ms(500))
    _ = machine.start()
    _ = machine.handle(.timerFired(.handOver), at: ms(500))
    let zero = machine.handle(.timerFired(.tick), at: .seconds(1))
    #expect(
      zero.first == .publish(PhotoTimerEvent(offset: .seconds(1), kind: .waiting(for: [.camera]))))
    let ready = cameraReady(&machine, at: ms(1400))
    #expect(ready.contains(.startHandOver))
    #expect(shutter(ready) == nil)
    #expect(shutter(machine.handle(.handedOver(nil), at: ms(2000))) == ms(2000))
  }

  @Test("A hand-over that never ends: the bounded wait fails the run, naming the live view")
  func neverEnds() {
    var machine = machine(seconds: 1, lead: ms(500))
    _ = machine.start()
    _ = cameraReady(&machine, at: ms(100))
    _ = machine.handle(.timerFired(.handOver), at: ms(500))
    _ = machine.handle(.timerFired(.tick), at: .seconds(1))
    let late = machine.handle(.timerFired(.waitLimit), at: .seconds(11))
    guard case .finish(.failed(let failure)) = late.last else {
      Issue.record("no failure: \(late)")
      return
    }
    #expect(failure.cause == .notReadyInTime([.camera]))
    #expect(failure.message.contains("live view") && failure.message.contains("10.0 s"))
    // Its late end changes nothing.
    #expect(machine.handle(.handedOver(nil), at: .seconds(12)).isEmpty)
  }

  @Test("A hand-over that fails ends the run at once, with its reason")
  func fails() {
    var machine = machine(seconds: 5, lead: .seconds(1))
    _ = machine.start()
    _ = cameraReady(&machine, at: ms(100))
    _ = machine.handle(.timerFired(.handOver), at: .seconds(4))
    let failed = machine.handle(.handedOver(.init(message: "gphoto2 hung")), at: ms(4500))
    guard case .finish(.failed(let failure)) = failed.last else {
      Issue.record("no failure: \(failed)")
      return
    }
    #expect(failure.cause == .stepFailed(.camera))
    #expect(failure.message == "camera not free to shoot: gphoto2 hung")
  }

  @Test("Sequential preparations: the lead counts from where the count starts")
  func sequential() {
    var machine = machine(seconds: 3, lead: .seconds(1), order: .sequential)
    _ = machine.start()
    let ready = cameraReady(&machine, at: ms(1200))
    #expect(ready.contains(.schedule(.handOver, at: ms(3200))))
    #expect(ready.contains(.schedule(.tick, at: ms(2200))))
  }

  @Test("A camera without a hand-over shoots at zero, as ever, with no hand-over timer")
  func none() {
    var machine = RunStateMachine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 1), required: [.camera],
      skipped: [.location: "off", .filter: "off", .people: "off"])
    let start = machine.start()
    #expect(!start.contains { if case .schedule(.handOver, _) = $0 { true } else { false } })
    _ = cameraReady(&machine, at: ms(100))
    #expect(shutter(machine.handle(.timerFired(.tick), at: .seconds(1))) == .seconds(1))
  }
}

@Suite("The engine hands the camera over before the shutter", .timeLimit(.minutes(1)))
struct EngineHandOverTests {
  @Test("Still closing at zero: the run waits, says why, and shoots the moment the camera is free")
  func waitsForTheCamera() async throws {
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    let underWay = Locked(false)
    let handOver = CameraHandOver(
      lead: { .seconds(1) },
      perform: {
        underWay.withLock { $0 = true }
        StepStatus.report("waiting for the camera to end its live view…")
        for await _ in gate { break }
        underWay.withLock { $0 = false }
      })
    var services = PhotoTimerServices.simulated()
    let harness = EngineHarness(seconds: 2) { clock in
      services = .simulated(clock: clock)
      services.camera.handOver = handOver
      return services
    }
    await harness.recorder.waitForEvents(1)
    // The steps, the first tick and the hand-over's lead before zero.
    await harness.clock.waitForSleepers(5)
    #expect(harness.clock.deadlines.contains(.seconds(1)))
    // At 1.4 s the camera is ready: the hand-over (due since 1 s) starts.
    // Its status is published as the camera's, and a wait at zero says it.
    let ready = await harness.advance(to: ms(1400), newEvents: 3, sleepers: 3)
    #expect(
      ready.last?.kind == .stepStatus(.camera, "waiting for the camera to end its live view…"))
    let zero = await harness.advance(to: .seconds(2), newEvents: 1, sleepers: 3)
    #expect(zero.map(\.kind) == [.waiting(for: [.camera])])
    #expect(underWay.withLock { $0 })
    var state = PhotoTimerState()
    for event in harness.recorder.events { state.apply(event) }
    #expect(
      PhotoTimerStatus.waitingLine(for: [.camera], activity: state.activity)
        == "waiting for the camera to end its live view…")
    #expect(!harness.recorder.kinds.contains(.shutter))
    open.yield()
    guard case .captured(let photo) = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(photo.shutterOffset == .seconds(2))
    #expect(harness.clock.sleeperCount == 0)
  }
}
