import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

@Suite("Settling", .timeLimit(.minutes(3)))
struct SettleTests {
  @Test("Settled means the last frames agree within the tolerance")
  func rule() {
    let settler = ExposureSettler(window: 3, tolerance: 0.02)
    #expect(!settler.isSettled([0.18, 0.18]))
    #expect(settler.isSettled([0.05, 0.18, 0.181, 0.179]))
    #expect(!settler.isSettled([0.18, 0.18, 0.2]))
  }

  @Test(
    "The scene camera opens badly exposed and settles in about half a second",
    arguments: [ScenePreset.daylight, .night])
  func sceneCameraSettles(preset: ScenePreset) async throws {
    let clock = TestClock()
    let camera = SceneCamera(preset: preset, width: 320, height: 180, clock: clock)
    let session = try await camera.open()
    let settler = ExposureSettler()
    var frames: [Frame] = []
    var brightness: [Double] = []
    while !settler.isSettled(brightness), frames.count < 90 {
      let frame = try await Self.frame(session, clock)
      frames.append(frame)
      brightness.append(SceneStatistics(frame).meanLinear)
    }
    await session.close()
    let first = try #require(frames.first)
    let last = try #require(frames.last)
    // First frames are three stops dark; settled ones are mid-grey.
    #expect(SceneStatistics(first).meanLinear < 0.05, "\(SceneStatistics(first))")
    #expect(abs(Metering.sceneEV(of: last) - preset.ev) < 0.5)
    // Frames carry the instant they were taken: one every 1/30 s.
    #expect(last.timestamp == .seconds(1) / 30 * frames.count)
    let seconds = Double(frames.count) / 30
    #expect((0.25...0.8).contains(seconds), "settled after \(frames.count) frames")
  }

  @Test("Settling reads frames until they agree, and reports the last one")
  func settle() async throws {
    let levels: [UInt8] = [20, 60, 100, 117, 118, 118, 118, 118, 118, 200]
    let session = ScriptedSession(levels: levels, clock: TestClock())
    let report = try await ExposureSettler().settle(session, clock: TestClock())
    #expect(report.settled)
    // 117 is within 2 % of 118 in linear light: frames 4 to 8 agree.
    #expect(report.frames == 8)
    #expect(report.preview[0, 0] == RGB(grey: 118))
  }

  @Test("A camera that never settles is used as it is after the time limit")
  func timeout() async throws {
    let clock = TestClock()
    // Flickers forever between two levels; each frame takes 1/30 s of the test clock.
    let session = ScriptedSession(
      levels: Array(repeating: [80, 160], count: 100).flatMap { $0 },
      clock: clock)
    let report = try await ExposureSettler(timeout: .seconds(1)).settle(session, clock: clock)
    #expect(!report.settled)
    // 30 × (1/30 s) falls an attosecond short of 1 s: the 31st frame is the first past it.
    #expect(report.frames == 31)
  }

  private static func frame(
    _ session: any CameraSession, _ clock: TestClock
  ) async throws
    -> Frame
  {
    let task = Task { try await session.nextPreview() }
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(1) / 30)
    return try await task.value
  }
}

/// A camera that shows a scripted grey level per frame, each taking 1/30 s on `clock`
/// (moved by the session itself, so no test has to pump it).
final class ScriptedSession: CameraSession {
  private let levels: [UInt8]
  private let clock: TestClock
  private let index = Locked(0)

  init(levels: [UInt8], clock: TestClock) {
    self.levels = levels
    self.clock = clock
  }

  func nextPreview() async throws -> Frame {
    let level = index.withLock { index -> UInt8 in
      defer { index += 1 }
      return levels[min(index, levels.count - 1)]
    }
    clock.advance(by: .seconds(1) / 30)
    var frame = Frame(width: 4, height: 4, exposureEV: 10)
    for y in 0..<4 { for x in 0..<4 { frame[x, y] = RGB(grey: level) } }
    return frame
  }

  func capture() async throws -> Frame { try await nextPreview() }

  func close() async {}
}
