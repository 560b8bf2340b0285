import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerTesting
import Testing

@testable import PhotoTimerGPhoto2

/// A stand-in DSLR that behaves like one over USB: `--capture-movie --stdout` streams a
/// motion JPEG (one colour, 25 pictures a second) and holds the device while it runs (its USB
/// node, `usb/001/005` here, open, and a `device-held` mark); a capture while the device is
/// held fails as gphoto2 does ("Could not claim the USB device"), else it hands over the
/// camera's JPEG.
///
/// Like a real camera it takes its time: `liveViewDelay` seconds before the first picture (a
/// mirror going up), `closeDelay` seconds to let go after SIGTERM (2–3 s is common,
/// andi34/photobooth #412; killed meanwhile, it never lets go: `closed-cleanly` is not
/// written), and `lingers` seconds after it exited before the device is free (a camera still
/// ending its session). `ioProblem` makes every call but detection fail as an unplugged or
/// hung camera does; `captureFails` fails only the capture. `largePictures` streams pictures
/// of about 2 MB back to back, far more than a pipe holds: it is nearly always in the middle of
/// writing one.
private struct StandInDSLR {
  let folder: URL
  var script: URL { folder.appendingPathComponent("gphoto2.sh") }
  var held: URL { folder.appendingPathComponent("device-held") }
  var closedCleanly: URL { folder.appendingPathComponent("closed-cleanly") }
  var usb: String { folder.appendingPathComponent("usb").path }
  var node: String { usb + "/001/005" }

  init(
    liveViewDelay: Double = 0, closeDelay: Double = 0, lingers: Double = 0,
    ioProblem: Bool = false, captureFails: Bool = false, largePictures: Bool = false
  ) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-dslr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      atPath: folder.path + "/usb/001", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: folder.path + "/usb/001/005", contents: nil)
    var live = Frame(width: 64, height: 48)
    for y in 0..<48 { for x in 0..<64 { live[x, y] = RGB(red: 0x33, green: 0x66, blue: 0xCC) } }
    if largePictures {
      // NB: noise does not compress: 1000 × 1000 of it is about 2 MB of JPEG.
      live = Frame(width: 1000, height: 1000)
      var generator = SeededRandomNumberGenerator(seed: 7)
      for index in live.pixels.indices {
        live.pixels[index] = UInt8.random(in: 0...255, using: &generator)
      }
    }
    try Data(try JPEGCodec.encode(live, quality: 95)).write(
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
    let ioFailure = "echo \"*** Error (-7: 'I/O problem') ***\" >&2; exit 1"
    let release =
      lingers > 0
      ? "(sleep \(lingers); rm -f \"\(dir)/device-held\") 3>&- >/dev/null 2>&1 &"
      : "rm -f \"\(dir)/device-held\";"
    try """
    case "$1" in
      --auto-detect) printf 'Model                          Port\\n----------\\nCanon EOS 80D                  usb:001,005\\n' ;;
      --capture-movie)
        \(ioProblem ? ioFailure : "")
        exec 3>>"\(dir)/usb/001/005"
        trap 'kill $! 2>/dev/null; sleep \(closeDelay); \(release) touch "\(dir)/closed-cleanly"; exit 0' TERM
        touch "\(dir)/device-held"
        # NB: in the background and waited for, so SIGTERM is handled at once, not after it.
        sleep \(liveViewDelay) & wait $!
        while :; do cat "\(dir)/live.jpg"; \(largePictures ? "" : "sleep 0.04;") done ;;
      --capture-image-and-download)
        \(ioProblem || captureFails ? ioFailure : "")
        if [ -e "\(dir)/device-held" ] || [ -e "\(dir)/desktop-held" ]; then
          echo "*** Error: Could not claim the USB device ***" >&2; exit 1
        fi
        target=$(echo "$3" | sed 's/%C/jpg/'); cp "\(dir)/photo.jpg" "$target" ;;
      --capture-preview)
        \(ioProblem ? ioFailure : "")
        echo "*** Error (-6: 'Unsupported operation') ***"; exit 1 ;;
    esac
    """.write(to: script, atomically: true, encoding: .utf8)
  }

  func view(closeLimit: Duration = .seconds(30)) -> GPhoto2LiveView<ContinuousClock> {
    GPhoto2LiveView(
      executable: script.path, launcher: ["/bin/sh"], clock: ContinuousClock(),
      closeLimit: closeLimit)
  }

  func camera(store: PhotoStore?) -> GPhoto2Camera<ContinuousClock> {
    camera(store: store, clock: ContinuousClock())
  }

  func camera<C: Clock>(store: PhotoStore?, clock: C) -> GPhoto2Camera<C>
  where C.Duration == Duration {
    var camera = GPhoto2Camera(
      executable: script.path, launcher: ["/bin/sh"], store: store, clock: clock)
    camera.usbDevices = usb
    return camera
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
    await #expect(throws: GPhoto2Error.cameraClaimed(by: [])) {
      _ = try await dslr.camera(store: store).capture(request, camera: nil)
    }
    await camera.close()
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
  }

  @Test("A run meters on the live view, hands the camera over, shoots, and streams again after")
  func shootsBetweenStreams() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    let store = PhotoStore(folder: dslr.folder)
    let services = dslr.camera(store: store, clock: TestClock()).services(
      location: .disabled(reason: "off"), liveView: camera, view: view)
    let handOver = try #require(services.camera.handOver)
    // Cautious until a stop was measured on this camera.
    #expect(handOver.lead() == GPhoto2LiveView<ContinuousClock>.cautiousLead)
    for shot in 1...2 {
      let session = try #require(view.session)
      let settings = try await services.camera.prepare()
      // The camera's own exposure: nothing invented for it.
      #expect(settings.isCameraOwn && settings.aperture == nil && settings.iso == nil)
      #expect(session.isStreaming)
      try await handOver.perform()
      #expect(!session.isStreaming && !session.isStopping)
      #expect(!FileManager.default.fileExists(atPath: dslr.held.path), "shot \(shot)")
      let request = CaptureRequest(
        settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(5))
      let shotResult = try await services.camera.shoot(request)
      let file = try #require(shotResult.file)
      #expect(FileManager.default.fileExists(atPath: file.path), "shot \(shot)")
      #expect(shotResult.settings?.iso == 100)  // the camera's own exposure, read back
      await services.camera.release()
      // Streaming again: new pictures arrive.
      let seen = camera.frameCount
      var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8)).makeAsyncIterator()
      _ = try await previews.next()
      _ = try await previews.next()
      #expect(camera.frameCount > seen)
    }
    // The stops were measured: the lead learned from them.
    let margin = try #require(view.session?.margin)
    #expect(margin > .zero)
    let longest = try #require(view.stops.withLock { $0.map(\.took).max() })
    #expect(handOver.lead() == min(view.closeLimit, longest * 1.5 + .milliseconds(250)))
    #expect(handOver.lead() >= margin)
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

/// The live view handed over at the camera's pace (issue: a camera that takes 1.2 s to let
/// go was killed after 1 s, the capture was refused and blamed on the desktop, and the live
/// view never came back).
@Suite("A DSLR's live view handed over at the camera's pace", .serialized, .timeLimit(.minutes(2)))
struct GPhoto2HandOverTests {
  /// Runs a count of `seconds` on the stand-in through the engine, the screen's live view
  /// open, recording each event with what the camera's step had said by then.
  private func run(
    _ dslr: StandInDSLR, view: GPhoto2LiveView<ContinuousClock>, seconds: Int,
    camera: LiveCamera, settleAfterLiveView: Duration = .seconds(2)
  ) async throws -> (PhotoTimerResult, [(PhotoTimerEvent.Kind, String?)]) {
    var gphoto2 = dslr.camera(store: PhotoStore(folder: dslr.folder))
    gphoto2.settleAfterLiveView = settleAfterLiveView
    let services = gphoto2.services(
      location: .disabled(reason: "off"), liveView: camera, view: view)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: seconds),
      services: services, clock: ContinuousClock())
    let seen = Locked<(state: PhotoTimerState, said: [(PhotoTimerEvent.Kind, String?)])>(
      (PhotoTimerState(), []))
    let result = await engine.run { event in
      seen.withLock { seen in
        seen.state.apply(event)
        seen.said.append((event.kind, seen.state.activity[.camera]))
      }
    }
    return (result, seen.withLock { $0.said })
  }

  /// Waits for two new pictures of the live view: it streams again.
  private func expectStreaming(_ camera: LiveCamera) async throws {
    let seen = camera.frameCount
    var previews = camera.previews(fitting: PreviewSize(width: 8, height: 8)).makeAsyncIterator()
    _ = try await previews.next()
    _ = try await previews.next()
    #expect(camera.frameCount > seen && !camera.isFailed)
  }

  @Test("Slow to let go (3 s): never killed; zero waits and says why; photo; streams; lead learned")
  func slowToLetGo() async throws {
    let closing = "waiting for the camera to end its live view…"
    let dslr = try StandInDSLR(closeDelay: 3)
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    let services = dslr.camera(store: PhotoStore(folder: dslr.folder)).services(
      location: .disabled(reason: "off"), liveView: camera, view: view)
    // NB: the count is on a test clock, the camera's processes in real time: zero comes when
    // the test says, whatever the machine's load.
    let clock = TestClock()
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 4), services: services,
      clock: clock)
    let recorder = EventRecorder()
    let run = Task { await engine.run { event in recorder.record(event) } }
    // Started, location skipped, the look and the camera (metered on the live view).
    let first = await recorder.waitUntil { events in
      events.contains {
        if case .stepFinished(let report) = $0.kind { report.step == .camera } else { false }
      }
    }
    #expect(first.first?.kind == .started(countdownSeconds: 4))
    // The first tick and the hand-over, the cautious lead (3 s) before zero.
    await clock.waitForSleepers(2)
    #expect(clock.deadlines == [.seconds(1), .seconds(1)])
    _ = clock.advance(to: .seconds(1))
    // The tick, and the hand-over saying it has begun.
    let begun = await recorder.waitFor(.stepStatus(.camera, closing))
    #expect(begun.contains { $0.kind == .tick(remaining: 3) })
    // Zero while the camera still closes its live view: the run waits, and says why.
    _ = clock.advance(to: .seconds(4))
    guard case .captured(let photo) = await run.value else {
      Issue.record("no photo: \(recorder.kinds)")
      await camera.close()
      return
    }
    #expect(photo.file.map { FileManager.default.fileExists(atPath: $0.path) } == true)
    let kinds = recorder.kinds
    let waiting = try #require(kinds.firstIndex(of: .waiting(for: [.camera])), "\(kinds)")
    let shutter = try #require(kinds.firstIndex(of: .shutter), "\(kinds)")
    #expect(waiting < shutter)
    var state = PhotoTimerState()
    for event in recorder.events.prefix(waiting + 1) { state.apply(event) }
    #expect(PhotoTimerStatus.waitingLine(for: [.camera], activity: state.activity) == closing)
    for event in recorder.events[(waiting + 1)...shutter] { state.apply(event) }
    #expect(state.activity.isEmpty)
    // Never killed mid-close: it let go by itself.
    #expect(FileManager.default.fileExists(atPath: dslr.closedCleanly.path))
    let stop = try #require(view.session?.lastStop)
    #expect(!stop.forced && stop.took >= .seconds(3))
    // The live view is back, and the next count stops it that much earlier.
    try await expectStreaming(camera)
    #expect(view.lead >= .seconds(4.75) && view.lead <= view.closeLimit)
    await camera.close()
  }

  @Test(
    "Stopped in the middle of a picture larger than the pipe: read to its end, it lets go by itself"
  )
  func stopsMidPicture() async throws {
    let dslr = try StandInDSLR(largePictures: true)
    defer { dslr.remove() }
    let view = dslr.view(closeLimit: .seconds(5))
    let camera = LiveCamera(view)
    try await camera.start()
    var previews = camera.previews(fitting: PreviewSize(width: 32, height: 24)).makeAsyncIterator()
    _ = try #require(try await previews.next())
    // NB: its SIGTERM is handled once the picture being written is out (a shell's trap waits
    // for the command in the foreground): the stream must be read until it exits.
    await view.session?.pause()
    let stop = try #require(view.session?.lastStop)
    #expect(!stop.forced, "killed after \(stop.took): its stream was not read to the end")
    #expect(FileManager.default.fileExists(atPath: dslr.closedCleanly.path))
    #expect(!FileManager.default.fileExists(atPath: dslr.held.path))
    await camera.close()
  }

  @Test("Killed after the limit, the refusal is put down to our own live view, not the desktop")
  func killedIsOurs() async throws {
    let dslr = try StandInDSLR(closeDelay: 5)
    defer { dslr.remove() }
    let view = dslr.view(closeLimit: .milliseconds(500))
    let camera = LiveCamera(view)
    try await camera.start()
    let services = dslr.camera(store: PhotoStore(folder: dslr.folder)).services(
      location: .disabled(reason: "off"), liveView: camera, view: view)
    let settings = try await services.camera.prepare()
    let handOver = try #require(services.camera.handOver)
    try await handOver.perform()
    #expect(view.session?.lastStop?.forced == true)
    let request = CaptureRequest(
      settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(1))
    let error = await #expect(throws: GPhoto2Error.self) {
      _ = try await services.camera.shoot(request)
    }
    #expect(error.map { if case .liveViewKilled = $0 { true } else { false } } == true)
    let words = error?.description ?? ""
    #expect(words.contains("our live view") && !words.contains("desktop") && !words.contains("gio"))
    // A stop that was killed says nothing of how long a close takes: the lead is not learned.
    #expect(view.lead == GPhoto2LiveView<ContinuousClock>.cautiousLead)
    await services.camera.release()
    try await expectStreaming(camera)
    await camera.close()
  }

  @Test("A camera still ending its session after gphoto2 exited: the capture is tried again")
  func lingersThenShoots() async throws {
    let dslr = try StandInDSLR(lingers: 1)
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    // NB: a retry window well beyond the 1 s the camera lingers, so that a loaded machine's
    // slow `sleep 1` still ends inside it.
    let (result, seen) = try await run(
      dslr, view: view, seconds: 1, camera: camera, settleAfterLiveView: .seconds(8))
    guard case .captured = result else {
      Issue.record("no photo: \(seen.map(\.0))")
      await camera.close()
      return
    }
    try await expectStreaming(camera)
    await camera.close()
  }

  @Test("Still closing when the retries run out: said to be our live view, not the desktop")
  func lingersTooLong() async throws {
    let dslr = try StandInDSLR(lingers: 4)
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    var gphoto2 = dslr.camera(store: PhotoStore(folder: dslr.folder))
    gphoto2.settleAfterLiveView = .milliseconds(600)
    let services = gphoto2.services(
      location: .disabled(reason: "off"), liveView: camera, view: view)
    let settings = try await services.camera.prepare()
    let handOver = try #require(services.camera.handOver)
    try await handOver.perform()
    let request = CaptureRequest(
      settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(1))
    await #expect(throws: GPhoto2Error.liveViewStillClosing) {
      _ = try await services.camera.shoot(request)
    }
    #expect(!GPhoto2Error.liveViewStillClosing.description.contains("desktop"))
    await services.camera.release()
    await camera.close()
  }

  @Test("Held by the desktop: the refusal names the program and pid holding the camera")
  func heldByTheDesktop() async throws {
    let dslr = try StandInDSLR()
    defer { dslr.remove() }
    // A stand-in for GNOME's gphoto2 volume daemon, holding the camera's USB node open.
    let daemon = dslr.folder.appendingPathComponent("gvfsd-gphoto2").path
    try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: daemon)
    let holder = try ChildProcess(command: [
      "/bin/sh", "-c", "exec 3<>'\(dslr.node)'; exec '\(daemon)' 60",
    ])
    defer { holder.terminate() }
    _ = FileManager.default.createFile(
      atPath: dslr.folder.appendingPathComponent("desktop-held").path, contents: nil)
    let deadline = ContinuousClock.now + .seconds(20)
    while DeviceHolders.of(dslr.node).isEmpty, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let services = dslr.camera(store: nil).services(location: .disabled(reason: "off"))
    let settings = try await services.camera.prepare()
    let request = CaptureRequest(
      settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(1))
    let error = await #expect(throws: GPhoto2Error.self) {
      _ = try await services.camera.shoot(request)
    }
    let words = error?.description ?? ""
    #expect(words.contains("gvfsd-gphoto2 (pid \(holder.pid)) holds it"), "\(words)")
    #expect(words.contains("gio mount -s gphoto2"))
  }

  @Test(
    "A camera that does not answer (I/O problem) fails its step during the count, not at zero",
    arguments: [false, true])
  func doesNotAnswer(withLiveView: Bool) async throws {
    let dslr = try StandInDSLR(ioProblem: true)
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = withLiveView ? LiveCamera(view) : nil
    try? await camera?.start()
    let clock = TestClock()
    let services = dslr.camera(store: nil, clock: clock).services(
      location: .disabled(reason: "off"), liveView: camera, view: withLiveView ? view : nil)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 12), services: services,
      clock: clock)
    // NB: the test clock never moves: the run can only end before zero.
    let result = await engine.run { _ in }
    guard case .failed(let failure) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(failure.cause == .stepFailed(.camera))
    #expect(failure.message.contains("I/O problem"), "\(failure.message)")
    await camera?.close()
  }

  @Test("A capture that fails: the run says why, and the live view comes back")
  func failedCaptureResumes() async throws {
    let dslr = try StandInDSLR(captureFails: true)
    defer { dslr.remove() }
    let view = dslr.view()
    let camera = LiveCamera(view)
    try await camera.start()
    let (result, seen) = try await run(dslr, view: view, seconds: 1, camera: camera)
    guard case .failed(let failure) = result else {
      Issue.record("expected a failure: \(seen.map(\.0))")
      await camera.close()
      return
    }
    #expect(failure.cause == .captureFailed)
    #expect(failure.message.contains("I/O problem"))
    try await expectStreaming(camera)
    await camera.close()
  }
}
