import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerSetup
import Synchronization
import Testing

/// A camera's controls as a booth uses them: what was held and given back, in order.
final class RecordingControls: CameraControls {
  let calls = Mutex<[String]>([])
  let names: [String]
  let fails: Bool

  init(names: [String] = ["exposure", "gain"], fails: Bool = false) {
    self.names = names
    self.fails = fails
  }

  struct Refused: Error, CustomStringConvertible {
    var description: String { "/dev/video0: ioctl(VIDIOC_S_CTRL) refused" }
  }

  func available() async -> [String] { names }

  func hold() async throws -> [HeldControl] {
    calls.withLock { $0.append("hold") }
    if fails { throw Refused() }
    return names.enumerated().map { HeldControl(name: $0.element, value: 10 + $0.offset) }
  }

  func release() async throws { calls.withLock { $0.append("release") } }
}

/// The booth holds its camera's controls through each session (BoothRunner): held at the first
/// shot, kept through the retakes and later shots, given back at the session's end, on
/// cancel and on exit; a camera without them is said once.
@MainActor
@Suite("A booth holds the camera's controls through each session")
struct BoothControlsTests {
  /// A booth with its events gathered.
  static func booth() throws -> (
    BoothRunner, AsyncStream<BoothEvent>, AsyncStream<BoothEvent>.Continuation
  ) {
    let layout = try BoothLayout.load("strip", shots: 4)
    let store = PhotoStore(folder: FileManager.default.temporaryDirectory)
    let runner = BoothRunner(layout: layout, store: store, clock: ContinuousClock())
    let (events, sink) = AsyncStream<BoothEvent>.makeStream()
    runner.report = { for event in $0 { sink.yield(event) } }
    return (runner, events, sink)
  }

  /// The next event for the controls.
  static func next(_ events: inout AsyncStream<BoothEvent>.Iterator) async -> BoothEvent? {
    while let event = await events.next(isolation: #isolation) {
      switch event {
      case .held, .released, .controlsFailed, .controlsUnavailable: return event
      default: continue
      }
    }
    return nil
  }

  @Test("Held at the first shot, through the retake and the next shots; given back at the end")
  func session() async throws {
    let (booth, stream, _) = try Self.booth()
    var events = stream.makeAsyncIterator()
    let controls = RecordingControls()
    func carry(_ effect: FrontEndSession.Effect) {
      booth.carryOut(effect, photo: nil, faces: [], controls: .controls(controls)) { _ in }
    }
    carry(.boothStarted(shots: 2))
    carry(.review(shot: 1, seconds: 60))
    #expect(
      await Self.next(&events)
        == .held(
          session: 1,
          controls: [
            HeldControl(name: "exposure", value: 10), HeldControl(name: "gain", value: 11),
          ]
        ))
    carry(.discardShot(1))
    carry(.review(shot: 1, seconds: 60))
    carry(.keepShot(1))
    carry(.keepShot(2))
    carry(.boothEnded(kept: 2, complete: false))
    #expect(await Self.next(&events) == .released(session: 1))
    #expect(controls.calls.withLock { $0 } == ["hold", "release"])
    // The next session holds again.
    carry(.boothStarted(shots: 2))
    carry(.keepShot(1))
    #expect(
      await Self.next(&events)
        == .held(
          session: 2,
          controls: [
            HeldControl(name: "exposure", value: 10), HeldControl(name: "gain", value: 11),
          ]))
    // Exit mid-session gives them back before finish returns.
    await booth.finish()
    #expect(controls.calls.withLock { $0 } == ["hold", "release", "hold", "release"])
    #expect(
      BoothEvent.held(session: 1, controls: [HeldControl(name: "gain", value: 57)]).jsonLine(
        time: .seconds(2)
      ).contains("\"event\":\"controls\",\"t\":2,\"session\":1,\"state\":\"held\",\"gain\":57"))
  }

  @Test("A hold refused: said with its reason, and nothing is given back that was not held")
  func refused() async throws {
    let (booth, stream, _) = try Self.booth()
    var events = stream.makeAsyncIterator()
    let controls = RecordingControls(fails: true)
    booth.carryOut(.boothStarted(shots: 2), photo: nil, faces: []) { _ in }
    booth.carryOut(.keepShot(1), photo: nil, faces: [], controls: .controls(controls)) { _ in
    }
    let failed = await Self.next(&events)
    #expect(failed?.notice?.contains("the camera's controls were not held: /dev/video0") == true)
    booth.carryOut(.boothEnded(kept: 1, complete: false), photo: nil, faces: []) { _ in }
    await booth.finish()
    #expect(controls.calls.withLock { $0 } == ["hold"])
  }

  @Test("A camera without the controls, or out of reach, is said once in the evening")
  func saidOnce() async throws {
    for reach in [
      BoothRunner.ControlReach.controls(RecordingControls(names: [])),
      .unreachable("the exposure of the pipewire camera cannot be held from here"),
    ] {
      let (booth, stream, sink) = try Self.booth()
      var events = stream.makeAsyncIterator()
      for _ in 0..<3 {
        booth.carryOut(.boothStarted(shots: 1), photo: nil, faces: []) { _ in }
        booth.carryOut(.keepShot(1), photo: nil, faces: [], controls: reach) { _ in }
        booth.carryOut(.boothEnded(kept: 1, complete: false), photo: nil, faces: []) { _ in }
      }
      await booth.finish()
      sink.finish()
      let first = await Self.next(&events)
      guard case .controlsUnavailable = first else {
        Issue.record("\(String(describing: first))")
        continue
      }
      var more: [BoothEvent] = []
      while let event = await Self.next(&events) { more.append(event) }
      #expect(more.isEmpty, "\(more)")
    }
  }
}
