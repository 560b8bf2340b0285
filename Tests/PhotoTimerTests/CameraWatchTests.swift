import PhotoTimer
import PhotoTimerTesting
import Testing

@Suite(
  "A ready camera is watched: lost mid-count, the run ends then, not at zero",
  .timeLimit(.minutes(1)))
struct CameraWatchTests {
  struct Unplugged: Error, CustomStringConvertible {
    var description: String { "the camera /dev/video0 was disconnected" }
  }

  /// The seed's services, with a camera that goes away `lostAt` after the start.
  static func services(_ clock: TestClock, lostAt: Duration) -> PhotoTimerServices {
    var services = PhotoTimerServices.simulated(clock: clock)
    let start = clock.now
    services.camera.watch = {
      try await clock.sleep(until: start.advanced(by: lostAt), tolerance: nil)
      throw Unplugged()
    }
    return services
  }

  @Test(
    "Unplugged at 3 s of a 10 s count: failed at 3 s with the camera's words, nothing left",
    arguments: [false, true])
  func lostMidCount(mapped: Bool) async throws {
    // NB: mapped: the command's error advice wraps the services; the watch must survive it.
    let harness = EngineHarness(seconds: 10) {
      let services = Self.services($0, lostAt: ms(3000))
      return mapped ? services.mapErrors { $0 } : services
    }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    await harness.advance(to: ms(1400), newEvents: 1, sleepers: 4)  // camera ready; watch asleep
    harness.clock.advance(to: ms(3000))
    let result = await harness.run.value
    let failure = PhotoTimerFailure(
      cause: .cameraLost, message: "camera lost: the camera /dev/video0 was disconnected")
    #expect(result == .failed(failure))
    #expect(
      harness.recorder.events.last == PhotoTimerEvent(offset: ms(3000), kind: .failed(failure)))
    #expect(!harness.recorder.kinds.contains(.shutter))
    #expect(harness.clock.sleeperCount == 0)
  }

  @Test("A camera that stays until the shutter: the photo, and the watch ends with the run")
  func keptToTheEnd() async throws {
    let harness = EngineHarness(seconds: 2) { Self.services($0, lostAt: .seconds(60)) }
    await harness.recorder.waitForEvents(1)
    await harness.clock.waitForSleepers(4)
    harness.clock.advance(to: ms(5000))
    guard case .captured = await harness.run.value else {
      Issue.record("expected a photo, got \(harness.recorder.kinds)")
      return
    }
    #expect(harness.clock.sleeperCount == 0)
  }
}
