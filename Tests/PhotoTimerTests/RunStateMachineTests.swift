import Testing

@testable import PhotoTimer

@Suite("RunStateMachine")
struct RunStateMachineTests {
  /// A machine of the seed's three steps (the people step off), or of all four.
  private func machine(
    seconds: Int, required: Set<PreparationStep> = [.camera],
    order: PreparationOrder = .concurrent, people: Bool = false
  ) -> RunStateMachine {
    RunStateMachine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: seconds, cameraWaitLimit: .seconds(10), preparation: order),
      required: required, skipped: people ? [:] : [.people: "off"])
  }

  private let settings = CameraSettings(aperture: "f/4", shutterSpeed: "1/125s", iso: 100)

  @Test("Start publishes started, starts every step and schedules the first whole-second tick")
  func start() {
    var machine = machine(seconds: 3, people: true)
    #expect(
      machine.start() == [
        .publish(PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 3))),
        .startStep(.camera), .startStep(.location), .startStep(.filter), .startStep(.people),
        .schedule(.tick, at: .seconds(1)),
      ])
  }

  @Test("Sequential: started first, each step when the one before ended, then the count")
  func sequential() {
    var machine = machine(seconds: 2, order: .sequential, people: true)
    #expect(
      machine.start() == [
        .publish(PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 2))),
        .startStep(.camera),
      ])
    let camera = machine.handle(
      .stepEnded(.camera, .success(.camera(settings)), elapsed: ms(1400)), at: ms(1400))
    #expect(camera.last == .startStep(.location))
    let location = machine.handle(
      .stepEnded(.location, .failure(.init(message: "no fix")), elapsed: ms(2800)), at: ms(2800))
    #expect(location.last == .startStep(.filter))
    let filter = machine.handle(
      .stepEnded(.filter, .success(.filter(FilterSuggestion(filter: .vivid))), elapsed: ms(4200)),
      at: ms(4200))
    // The count starts where the preparations ended: its ticks fall on whole seconds from there;
    // the people step, which watches the count, starts with it.
    #expect(filter.suffix(2) == [.startStep(.people), .schedule(.tick, at: ms(5200))])
    let tick = machine.handle(.timerFired(.tick), at: ms(5200))
    #expect(
      tick == [
        .publish(PhotoTimerEvent(offset: ms(5200), kind: .tick(remaining: 1))),
        .schedule(.tick, at: ms(6200)),
      ])
    let zero = machine.handle(.timerFired(.tick), at: ms(6200))
    #expect(zero == [.askReady([.people])])
    let shutter = machine.handle(
      .readyAtShutter([.people: .failure(.init(message: "no one yet"))]), at: ms(6200))
    #expect(shutter.contains(.publish(PhotoTimerEvent(offset: ms(6200), kind: .shutter))))
  }

  @Test("The people step runs until the shutter; its last word goes into the photo")
  func peopleAtShutter() {
    var machine = machine(seconds: 1, people: true)
    #expect(machine.start().contains(.startStep(.people)))
    _ = machine.handle(.stepEnded(.camera, .success(.camera(settings)), elapsed: ms(7)), at: ms(7))
    _ = machine.handle(.statusChanged(.people, "2 people · eyes open"), at: ms(500))
    let zero = machine.handle(.timerFired(.tick), at: .seconds(1))
    #expect(zero == [.askReady([.location, .filter, .people])])
    let two = PeopleSummary(count: 2, eyesClosed: 0)
    let answered = machine.handle(
      .readyAtShutter([
        .location: .failure(.init(message: "no fix yet")),
        .filter: .failure(.init(message: "no look")), .people: .success(.people(two)),
      ]), at: .seconds(1))
    guard case .capture(let request)? = answered.last else {
      Issue.record("no capture: \(answered)")
      return
    }
    #expect(request.people == two)
    let captured = machine.handle(
      .captureEnded(.success(RunStateMachine.CapturedFile(url: nil))), at: .seconds(1) + ms(50))
    guard case .finish(.captured(let photo))? = captured.last else {
      Issue.record("not captured: \(captured)")
      return
    }
    #expect(photo.people == two)
    #expect(photo.report(for: .people)?.outcome == .succeeded(.people(two)))
  }

  @Test("At the shutter the machine asks what the running steps know, and uses the answers")
  func asksAtShutter() {
    var machine = machine(seconds: 1)
    _ = machine.start()
    _ = machine.handle(.stepEnded(.camera, .success(.camera(settings)), elapsed: ms(7)), at: ms(7))
    let zero = machine.handle(.timerFired(.tick), at: .seconds(1))
    #expect(zero == [.askReady([.location, .filter])])
    let look = FilterSuggestion(filter: .warm)
    let answered = machine.handle(
      .readyAtShutter([
        .location: .failure(.init(message: "no fix yet")), .filter: .success(.filter(look)),
      ]), at: .seconds(1))
    #expect(
      answered.contains(
        .publish(
          PhotoTimerEvent(
            offset: .seconds(1),
            kind: .stepFinished(
              StepReport(
                step: .location, outcome: .dropped(reason: "no fix yet"), elapsed: .seconds(1)))
          ))))
    #expect(
      answered.last
        == .capture(
          CaptureRequest(
            settings: settings, location: nil, filter: .warm, shutterOffset: .seconds(1))))
  }

  @Test("A camera that reports the exposure it used is reported with it, and its note")
  func cameraReportedSettings() {
    var machine = machine(seconds: 0)
    _ = machine.start()
    _ = machine.handle(.stepEnded(.camera, .success(.camera(settings)), elapsed: ms(5)), at: ms(5))
    _ = machine.handle(
      .readyAtShutter([
        .location: .failure(.init(message: "late")), .filter: .failure(.init(message: "late")),
      ]), at: ms(5))
    let used = CameraSettings(aperture: "f/9", shutterSpeed: "1/200s", iso: 200)
    let done = machine.handle(
      .captureEnded(.success(.init(url: nil, settings: used, settingsNote: "the camera's own"))),
      at: ms(9))
    guard case .finish(.captured(let photo))? = done.last else {
      Issue.record("expected a photo")
      return
    }
    #expect(photo.settings == used)
    #expect(photo.settingsNote == "the camera's own")
  }

  @Test("A capture ending that never started is an internal inconsistency, not a message")
  func impossibleInput() async {
    await #expect(processExitsWith: .failure) {
      var machine = RunStateMachine(
        configuration: PhotoTimerConfiguration(countdownSeconds: 3), required: [.camera])
      _ = machine.start()
      _ = machine.handle(.captureEnded(.success(.init(url: nil))), at: .zero)
    }
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
    let zero = machine.handle(
      .stepEnded(.camera, .success(.camera(settings)), elapsed: ms(10)), at: ms(10))
    #expect(zero.last == .askReady([.location, .filter]))
    let late = RunStateMachine.StepError(message: "late")
    let shoot = machine.handle(
      .readyAtShutter([.location: .failure(late), .filter: .failure(late)]), at: ms(10))
    #expect(shoot.contains(where: { if case .capture = $0 { true } else { false } }))
    #expect(machine.handle(.timerFired(.tick), at: ms(20)) == [])
    #expect(machine.handle(.timerFired(.waitLimit), at: ms(20)) == [])
    #expect(
      machine.handle(
        .stepEnded(.filter, .success(.filter(FilterSuggestion(filter: .mono))), elapsed: ms(30)),
        at: ms(30)) == [])
    let done = machine.handle(.captureEnded(.success(.init(url: nil))), at: ms(40))
    #expect(done.count == 2)
    #expect(machine.isFinished)
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
