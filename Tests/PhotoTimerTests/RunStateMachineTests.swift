import Testing

@testable import PhotoTimer

@Suite("RunStateMachine")
struct RunStateMachineTests {
  private func machine(seconds: Int, required: Set<PreparationStep> = [.camera]) -> RunStateMachine
  {
    RunStateMachine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: seconds, cameraWaitLimit: .seconds(10)),
      required: required)
  }

  private let settings = CameraSettings(aperture: "f/4", shutterSpeed: "1/125s", iso: 100)

  @Test("Start publishes started and schedules the first whole-second tick")
  func start() {
    var machine = machine(seconds: 3)
    #expect(
      machine.start() == [
        .publish(PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 3))),
        .schedule(.tick, at: .seconds(1)),
      ])
  }

  @Test("A required location is waited for at zero, and its failure fails the run")
  func requiredLocation() {
    var machine = machine(seconds: 1, required: [.location])
    _ = machine.start()
    _ = machine.handle(
      .stepEnded(.camera, .success(.camera(settings)), elapsed: ms(200)), at: ms(200))
    let atZero = machine.handle(.timerFired(.tick), at: .seconds(1))
    #expect(
      atZero == [
        .publish(PhotoTimerEvent(offset: .seconds(1), kind: .waiting(for: [.location]))),
        .schedule(.waitLimit, at: .seconds(11)),
      ])
    let failed = machine.handle(
      .stepEnded(.location, .failure(.init(message: "gpsd not running")), elapsed: ms(1500)),
      at: ms(1500))
    let failure = PhotoTimerFailure(
      cause: .stepFailed(.location), message: "location failed: gpsd not running")
    #expect(failed.last == .finish(.failed(failure)))
  }

  @Test("Inputs after the run finished are ignored")
  func ignoresLateInputs() {
    var machine = machine(seconds: 0)
    _ = machine.start()
    let shoot = machine.handle(
      .stepEnded(.camera, .success(.camera(settings)), elapsed: ms(10)), at: ms(10))
    #expect(shoot.contains(where: { if case .capture = $0 { true } else { false } }))
    #expect(machine.handle(.timerFired(.tick), at: ms(20)) == [])
    #expect(machine.handle(.timerFired(.waitLimit), at: ms(20)) == [])
    #expect(
      machine.handle(
        .stepEnded(.filter, .success(.filter(FilterSuggestion(filter: .mono))), elapsed: ms(30)),
        at: ms(30)) == [])
    let done = machine.handle(.captureEnded(.success(.init(url: nil))), at: ms(40))
    #expect(done.count == 2)
    #expect(machine.handle(.captureEnded(.success(.init(url: nil))), at: ms(50)) == [])
  }

  @Test("The request carries the location and suggested look when they arrived in time")
  func captureRequest() {
    var machine = machine(seconds: 1)
    _ = machine.start()
    let tag = LocationTag(name: "Paris")
    _ = machine.handle(.stepEnded(.location, .success(.location(tag)), elapsed: ms(5)), at: ms(5))
    _ = machine.handle(
      .stepEnded(.filter, .success(.filter(FilterSuggestion(filter: .warm))), elapsed: ms(6)),
      at: ms(6))
    _ = machine.handle(.stepEnded(.camera, .success(.camera(settings)), elapsed: ms(7)), at: ms(7))
    let actions = machine.handle(.timerFired(.tick), at: .seconds(1))
    #expect(
      actions.last
        == .capture(
          CaptureRequest(
            settings: settings, location: tag, filter: .warm, shutterOffset: .seconds(1))))
  }
}
