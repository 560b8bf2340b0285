import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerTesting
import Testing

@testable import PhotoTimerGPhoto2

/// A stand-in DSLR that behaves like one over USB: `--capture-movie --stdout` streams a
/// motion JPEG (one colour, 25 pictures a second) and holds the device while it runs; a
/// capture while the device is held fails as gphoto2 does ("Could not claim the USB
/// device"), else it hands over the camera's JPEG. `liveViewDelay` seconds pass before the
/// first picture, as with a camera that takes its time to raise its mirror.
private struct StandInDSLR {
  let folder: URL
  var script: URL { folder.appendingPathComponent("gphoto2.sh") }
  var held: URL { folder.appendingPathComponent("device-held") }

  init(liveViewDelay: Double = 0) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-dslr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var live = Frame(width: 64, height: 48)
    for y in 0..<48 { for x in 0..<64 { live[x, y] = RGB(red: 0x33, green: 0x66, blue: 0xCC) } }
    try Data(try JPEGCodec.encode(live, quality: 90)).write(
      to: folder.appendingPathComponent("live.jpg"))
    var photo = Frame(width: 96, height: 64)
    for index in photo.pixels.indices { photo.pixels[index] = 128 }
    let metadata = PhotoMetadata(
      make: "Canon", model: "Canon EOS 80D", date: Date(timeIntervalSince1970: 1_796_040_000),
      settings: ExposureProgram.standard.settings(forSceneEV: 13), filter: .natural,
      location: nil)
    try Data(try JPEGFile.make(photo, metadata: metadata)).write(
      to: folder.appendingPathComponent("photo.jpg"))
    let dir = folder.path
    try """
    case "$1" in
      --auto-detect) printf 'Model                          Port\\n----------\\nCanon EOS 80D                  usb:001,005\\n' ;;
      --capture-movie)
        trap 'kill $! 2>/dev/null; rm -f "\(dir)/device-held"; exit 0' TERM
        touch "\(dir)/device-held"
        # NB: in the background and waited for, so SIGTERM is handled at once, not after it.
        sleep \(liveViewDelay) & wait $!
        while :; do cat "\(dir)/live.jpg"; sleep 0.04; done ;;
      --capture-image-and-download)
        if [ -e "\(dir)/device-held" ]; then
          echo "*** Error: Could not claim the USB device ***" >&2; exit 1
        fi
        target=$(echo "$3" | sed 's/%C/jpg/'); cp "\(dir)/photo.jpg" "$target" ;;
      --capture-preview) echo "*** Error (-6: 'Unsupported operation') ***"; exit 1 ;;
    esac
    """.write(to: script, atomically: true, encoding: .utf8)
  }

  func view() -> GPhoto2LiveView<ContinuousClock> {
    GPhoto2LiveView(executable: script.path, launcher: ["/bin/sh"], clock: ContinuousClock())
  }

  func camera(store: PhotoStore?) -> GPhoto2Camera<ContinuousClock> {
    camera(store: store, clock: ContinuousClock())
  }

  func camera<C: Clock>(store: PhotoStore?, clock: C) -> GPhoto2Camera<C>
  where C.Duration == Duration {
    GPhoto2Camera(executable: script.path, launcher: ["/bin/sh"], store: store, clock: clock)
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("A DSLR's live view (stand-in gphoto2)", .serialized, .timeLimit(.minutes(1)))
struct GPhoto2LiveViewTests {
  @Test(
    "The live view streams the camera's pictures; a capture while it streams finds the device busy")
  func streamsAndHoldsTheDevice() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    let camera = LiveCamera(dslr.view())
    try await camera.start()
    var previews = camera.previews(fitting: PreviewSize(width: 32, height: 24)).makeAsyncIterator()
    let frame = try #require(try await previews.next())
    let pixel = frame[16, 12]
    #expect(abs(Int(pixel.red) - 0x33) < 8 && abs(Int(pixel.blue) - 0xCC) < 8)
    // The stand-in is a real busy device: shooting without stopping the live view fails.
    let store = PhotoStore(folder: dslr.folder)
    let request = CaptureRequest(
      settings: ExposureProgram.standard.settings(forSceneEV: 12), location: nil,
      filter: .natural, shutterOffset: .seconds(1))
    await #expect(throws: GPhoto2Error.cameraClaimed) {
      _ = try await dslr.camera(store: store).capture(request, camera: nil)
    }
    await camera.close()
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  @Test("A run meters on the live view, stops it before zero, shoots, and streams again after")
  func shootsBetweenStreams() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    let store = PhotoStore(folder: dslr.folder)
    // NB: the run's clock is a test clock: the stop before zero happens when the test says.
    let clock = TestClock()
    // NB: the margin is a real stop's time, measured. A stop as long as the count is due at
    // once, so there is no sleeper to wait for: with a 1 s count and both cores busy, make
    // stress saw this test wait for ever (a stand-in whose stop outlasts a 0.5 s count does
    // the same). A 10 s count keeps the stop ahead of zero; a longer stop fails, not hangs.
    let countdown = Duration.seconds(10)
    let services = dslr.camera(store: store, clock: clock).services(
      location: .disabled(reason: "off"), liveView: camera, view: view, countdown: countdown)
    for shot in 1...2 {
      let session = try #require(view.session)
      let margin = session.margin ?? .milliseconds(500)
      try #require(margin < countdown, "a stop took \(margin)")
      let start = clock.now
      let settings = try await services.camera.prepare()
      #expect((settings.iso ?? 0) > 0)
      // The stop is timed a stop's length before zero: at that instant it begins, and the
      // device is free before zero.
      await clock.waitForSleepers(1)
      #expect(clock.deadlines == [start.offset + countdown - margin], "shot \(shot)")
      clock.advance(to: start.advanced(by: countdown - margin))
      while session.isStreaming { await Task.yield() }
      #expect(clock.now < start.advanced(by: countdown))
      clock.advance(to: start.advanced(by: countdown))
      let request = CaptureRequest(
        settings: settings, location: nil, filter: .natural, shutterOffset: countdown)
      let shotResult = try await services.camera.shoot(request)
      let file = try #require(shotResult.file)
      #expect(FileManager.default.fileExists(atPath: file.path), "shot \(shot)")
      #expect(shotResult.settings != nil)  // the camera's own exposure, read back
      await services.camera.release()
      // Streaming again: new pictures arrive.
      let seen = camera.frameCount
      var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8)).makeAsyncIterator()
      _ = try await previews.next()
      _ = try await previews.next()
      #expect(camera.frameCount > seen)
    }
    // The stop was measured: that is the margin kept before zero.
    let margin = try #require(view.session?.margin)
    #expect(margin > .zero)
    await camera.close()
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  @Test("doctor's probe: the live view's size and the measured stop")
  func probe() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    let probe = try await dslr.camera(store: nil).probeLiveView(for: .milliseconds(600))
    #expect(probe.frames > 0 && probe.width == 64 && probe.height == 48)
    #expect(probe.margin != nil)
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  @Test("doctor's probe waits for a live view slow to start, and looks from its first picture")
  func probeSlowStart() async throws {
    let dslr = try StandInDSLR(liveViewDelay: 1)
    defer { dslr.remove() }
    // NB: a look shorter than the start: counted from the start, it would see nothing.
    let probe = try await dslr.camera(store: nil).probeLiveView(for: .milliseconds(300))
    #expect(probe.frames > 0 && probe.width == 64 && probe.height == 48)
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  @Test("A camera that never starts its live view: the probe gives up after its limit")
  func probeNeverStarts() async throws {
    let dslr = try StandInDSLR(liveViewDelay: 30)
    defer { dslr.remove() }
    await #expect(throws: GPhoto2Error.self) {
      _ = try await dslr.camera(store: nil).probeLiveView(
        for: .milliseconds(300), firstPictureLimit: .milliseconds(500))
    }
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  /// A stand-in gphoto2 for a camera without a live view: it says so on stderr and exits 1.
  private func withoutLiveView(_ body: (LiveCamera) async throws -> Void) async throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-nolive-\(UUID().uuidString).sh")
    try "echo \"*** Error (-6: 'Unsupported operation') ***\" >&2; exit 1\n".write(
      to: script, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: script) }
    let camera = LiveCamera(
      GPhoto2LiveView(executable: script.path, launcher: ["/bin/sh"], clock: ContinuousClock()))
    try await camera.start()
    do {
      try await body(camera)
    } catch {
      await camera.close()
      throw error
    }
    await camera.close()
  }

  @Test("A live view that fails at once, 200 times: its failure always reaches the reader")
  func failsAtOnceRepeatedly() async throws {
    // NB: the stream's reader could see gphoto2 end before the stream had recorded it, take
    // it for a paused stream and drop the failure: the wait then never ended (make stress).
    for attempt in 1...200 {
      try await withoutLiveView { camera in
        var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8))
          .makeAsyncIterator()
        await #expect(throws: GPhoto2Error.self, "attempt \(attempt)") {
          _ = try await previews.next()
        }
      }
    }
  }

  @Test("A live view that cannot be read: the stream fails with the reason, gphoto2 is stopped")
  func unreadable() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    let plan = FaultPlan()
    // NB: the reader's wait for the stream is the first poll under the plan.
    plan.fail("poll", with: .ioError)
    let session = try await FaultPlan.$current.withValue(plan) { try await dslr.view().open() }
    let error = await #expect(throws: GPhoto2Error.self) { _ = try await session.nextFrame() }
    #expect(
      error?.description.contains("could not be read") == true, "\(String(describing: error))")
    #expect(plan.injected == ["poll"])
    // Stopped and reaped: the device is free (the stand-in lets go of it on SIGTERM).
    #expect(plan.children.values.allSatisfy { $0 != nil }, "\(plan.children)")
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
    await session.close()
  }

  @Test("A camera without a live view: the stream fails with gphoto2's words")
  func noLiveView() async throws {
    try await withoutLiveView { camera in
      var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8))
        .makeAsyncIterator()
      await #expect(throws: GPhoto2Error.self) { _ = try await previews.next() }
      #expect(camera.isFailed)
    }
  }
}
