import Foundation
import PhotoTimerImaging
import Testing

@testable import PhotoTimerGStreamer

/// NB: serialized: PipeWire's runtime folder is process-wide, and each test has its own daemon.
@Suite("A PipeWire camera (a daemon, WirePlumber and a node of the test's own)", .serialized)
struct PipeWireTests {
  @Test("The device monitor lists the node with its modes, and the camera streams from it")
  func listedAndStreamed() async throws {
    let pipewire = try PipeWireCamera()
    defer { pipewire.stop() }
    let cameras = PipeWireCameras.list()
    let listed = try #require(cameras.first { $0.node == "fakecam" }, "listed: \(cameras)")
    #expect(listed.name == "Fake camera")
    #expect(listed.modes.contains { $0.size == FrameSize(width: 640, height: 480) })
    let camera = GStreamerCamera(
      device: .pipewire("fakecam"), mode: nil, make: "PipeWire", model: "fakecam",
      clock: ContinuousClock())
    let session = try await camera.open()
    let frame = try await session.nextFrame()
    #expect(frame.width == 640 && frame.height == 480)
    let photo = try await session.capture()
    // SMPTE bars: the second bar is yellow.
    let yellow = photo[120, 40]
    #expect(yellow.red > 150 && yellow.green > 150 && yellow.blue < 80)
    await session.close()
  }

  @Test("PipeWire going away mid-stream fails the stream with words, at once")
  func daemonGone() async throws {
    let pipewire = try PipeWireCamera()
    defer { pipewire.stop() }
    let camera = GStreamerCamera(
      device: .pipewire("fakecam"), mode: nil, make: "PipeWire", model: "fakecam",
      stallTimeout: .seconds(1), clock: ContinuousClock())
    let session = try await camera.open()
    _ = try await session.nextFrame()
    pipewire.stopDaemon()
    let stopped = ContinuousClock.now
    do {
      try await session.watch()
      Issue.record("the watch returned without the failure")
    } catch let error as GStreamerError {
      // The daemon's end is heard as it happens (the stream's error or its end), never only
      // through the 5 s stall limit.
      #expect(ContinuousClock.now - stopped < .seconds(4), "\(error)")
      #expect(!error.description.isEmpty)
    }
    await session.close()
  }

  @Test("No PipeWire at all: a clear error naming it")
  func noDaemon() async throws {
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-nopw-\(getpid())")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: runtime) }
    setenv("PIPEWIRE_RUNTIME_DIR", runtime.path, 1)
    let camera = GStreamerCamera(
      device: .pipewire(nil), mode: nil, make: "PipeWire", model: "camera",
      firstFrameTimeout: .seconds(5), clock: ContinuousClock())
    await #expect {
      _ = try await camera.open()
    } throws: { error in
      guard case .pipeWireUnavailable = error as? GStreamerError else { return false }
      return "\(error)".contains("PipeWire is not available")
    }
    #expect(PipeWireCameras.list().isEmpty)
  }
}
