import Foundation
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerTesting
import Testing

@testable import PhotoTimerGStreamer

@Suite(
  "GStreamer's test pattern through the camera: raw and MJPEG, capture, close",
  .timeLimit(.minutes(5)))
struct GStreamerCameraTests {
  static func camera(
    _ format: PixelFormat, width: Int = 320, height: Int = 240, rate: Int = 30
  )
    -> GStreamerCamera<ContinuousClock>
  {
    GStreamerCamera(
      device: .testPattern("smpte"),
      mode: StreamMode(
        format: format, size: FrameSize(width: width, height: height),
        rate: FrameRate(frames: rate)),
      make: "GStreamer", model: "test pattern", streamWidth: 160, clock: ContinuousClock())
  }

  @Test(
    "A raw stream gives whole RGB frames with rising capture times",
    arguments: [PixelFormat.yuyv, PixelFormat(fourCC: "NV12")])
  func rawStream(format: PixelFormat) async throws {
    let session = try await Self.camera(format).open()
    defer { Task { await session.close() } }
    var last = Duration.zero
    for _ in 0..<5 {
      let frame = try await session.nextFrame()
      #expect(frame.width == 320 && frame.height == 240)
      #expect(frame.timestamp >= last)
      last = frame.timestamp
    }
    // SMPTE bars: the leftmost bar is light grey, the second yellow.
    let frame = try await session.capture()
    #expect(frame.width == 320)
    let yellow = frame[60, 40]
    #expect(yellow.red > 150 && yellow.green > 150 && yellow.blue < 80)
    await session.close()
  }

  @Test("MJPEG stays compressed: the stream is decoded at DCT scale, the photo whole")
  func mjpegStream() async throws {
    let opened = try await Self.camera(.mjpeg, width: 640, height: 480).open()
    let session = try #require(opened as? GStreamerSession<ContinuousClock>)
    let frame = try await session.nextFrame()
    // 640 / 4 = 160: the smallest DCT scale at least as wide as the stream width.
    #expect(frame.width == 160 && frame.height == 120)
    let photo = try await session.capture()
    #expect(photo.width == 640 && photo.height == 480)
    let statistics = session.statistics
    #expect(statistics.frames >= 1)
    #expect(statistics.ringBytes > 0)
    // JPEG frames of bars: a small part of the same frames raw.
    #expect(statistics.ringBytes < statistics.frames * 640 * 480 * 3)
    await session.close()
    // The account kept sample by sample is what the ring holds.
    let counted = session.ringCounted
    #expect(session.statistics.ringBytes == counted.bytes)
    #expect(session.statistics.ringFrames == counted.frames)
  }

  @Test("The kept frame is the one whose capture time is nearest the shutter")
  func nearestByCaptureTime() async throws {
    let opened = try await Self.camera(.yuyv).open()
    let session = try #require(opened as? GStreamerSession<ContinuousClock>)
    for _ in 0..<4 { _ = try await session.nextFrame() }
    let photo = try await session.capture()
    let after = try await session.nextFrame()
    // The next frame of the stream is later than the kept one: the choice is by capture time
    // among frames already taken, never a newer one. (How near the shutter it is depends on
    // the machine's load: a figure of `make bench`, not a test.)
    #expect(after.timestamp > photo.timestamp)
    await session.close()
  }

  @Test("A burst is the nearest frame and the next ones, each newer")
  func burst() async throws {
    let session = try await Self.camera(.mjpeg).open()
    let frames = try await session.burst(count: 3)
    #expect(frames.count == 3)
    #expect(frames[0].timestamp < frames[1].timestamp && frames[1].timestamp < frames[2].timestamp)
    #expect(frames.allSatisfy { $0.width == 320 })
    await session.close()
  }

  @Test("Closing ends every waiter with a clear error, and closing twice is safe")
  func closing() async throws {
    let session = try await Self.camera(.yuyv).open()
    await session.close()
    await session.close()
    await #expect(throws: GStreamerError.self) { try await session.nextFrame() }
  }

  @Test("A camera's own settings carry the mode and nothing invented")
  func ownSettings() async throws {
    let session = try await Self.camera(.mjpeg, rate: 25).open()
    let settings = try #require(try await session.ownSettings())
    #expect(settings.isCameraOwn)
    #expect(settings.aperture == nil && settings.iso == nil && settings.fNumber == nil)
    #expect(settings.description == "320×240 MJPEG 25 fps · exposure: the camera's own")
    await session.close()
  }

  @Test("A missing V4L2 node is a clear error before any stream")
  func missingDevice() throws {
    #expect(throws: GStreamerError.noSuchDevice("/dev/video99")) {
      try GStreamerCamera.v4l2("/dev/video99", clock: ContinuousClock())
    }
  }

  @Test("A node that is not a V4L2 device is refused with its name")
  func notVideo() throws {
    #expect(throws: GStreamerError.notCapture("/dev/null", card: "not a V4L2 device")) {
      try GStreamerCamera.v4l2("/dev/null", clock: ContinuousClock())
    }
  }

  @Test("A stream that stops sending fails at the stall limit, in words, and every waiter hears it")
  func stall() async throws {
    // The stall limit is timed on a test clock; the source is paused (a live source then
    // sends nothing and does not end), so no frame can race the clock.
    let clock = TestClock()
    let camera = GStreamerCamera(
      device: .testPattern("smpte"),
      mode: StreamMode(
        format: .yuyv, size: FrameSize(width: 160, height: 120), rate: FrameRate(frames: 30)),
      make: "GStreamer", model: "test pattern", stallTimeout: .milliseconds(300), clock: clock)
    let opened = try await camera.open()
    let session = try #require(opened as? GStreamerSession<TestClock>)
    await session.pauseSource()
    await clock.waitForSleepers(1)
    // NB: the watchdog may be asleep on the first-frame limit still; it re-arms on the last
    // frame's time, which has passed too.
    clock.advance(by: .seconds(20))
    let expected = GStreamerError.stalled("test pattern smpte", seconds: 0.3, started: true)
    await #expect(throws: expected) { try await session.watch() }
    await #expect(throws: expected) { _ = try await session.nextFrame() }
    await #expect(throws: expected) { _ = try await session.capture() }
    #expect(
      expected.description
        == "the camera test pattern smpte sent no frame for 0.3 s: is it still connected?")
    await session.close()
    #expect(clock.sleeperCount == 0)
  }
}
