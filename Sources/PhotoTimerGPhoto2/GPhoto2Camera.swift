import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

/// A DSLR or mirrorless camera through the `gphoto2` tool.
///
/// During the count the camera is detected and, where it can, a live-view preview is taken
/// for metering and the look; at zero the camera shoots and the photo is downloaded. The
/// camera's own JPEG is kept as it is (its pixels and its EXIF: exposure, lens, maker notes)
/// and ours is added to its EXIF (description with the look and the place, software, GPS)
/// without re-encoding. Each gphoto2 run is a child process stopped and reaped on cancel.
public struct GPhoto2Camera<C: Clock>: Sendable where C.Duration == Duration {
  /// The gphoto2 program.
  public var executable: String
  /// A command put before the program, such as `["/bin/sh"]` to run a script; empty by
  /// default.
  public var launcher: [String]
  /// Where USB device nodes are (`usb:001,005` is `001/005` under it), to name who holds a
  /// camera that cannot be claimed; default `/dev/bus/usb`.
  public var usbDevices = "/dev/bus/usb"
  /// How long, after our own live view let go of the camera, a refused capture is tried
  /// again (a camera can still be closing that session); default 2 s.
  public var settleAfterLiveView = Duration.seconds(2)
  /// Where photos go; `nil` takes them without keeping a file.
  public var store: PhotoStore?
  /// The clock (for the preview's timestamp).
  public var clock: C
  /// The wall clock, for the photo's name.
  public var now: @Sendable () -> Date

  /// Creates the camera.
  public init(
    executable: String = "gphoto2", launcher: [String] = [], store: PhotoStore?, clock: C,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.executable = executable
    self.launcher = launcher
    self.store = store
    self.clock = clock
    self.now = now
  }

  /// The cameras gphoto2 finds.
  ///
  /// - Throws: ``GPhoto2Error`` when gphoto2 is missing or fails.
  public func detect() async throws -> [DetectedCamera] {
    let output = try await run(["--auto-detect"])
    // Model padded to the port column, after a header and a rule.
    return output.split(separator: "\n").dropFirst(2).compactMap { line in
      let text = line.trimmingCharacters(in: .whitespaces)
      guard
        let range = text.range(of: "usb:") ?? text.range(of: "ptpip:")
          ?? text.range(of: "serial:")
      else { return nil }
      let model = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
      return model.isEmpty
        ? nil : DetectedCamera(model: model, port: String(text[range.lowerBound...]))
    }
  }

  /// The engine's services: this camera, the look suggested from its preview (one
  /// `--capture-preview`), `location`.
  public func services(location: Preparation<LocationTag>) -> PhotoTimerServices {
    services(location: location, liveView: nil, view: GPhoto2LiveView<C>?.none)
  }

  /// The engine's services with the screen's live view.
  ///
  /// The camera step finds the camera and makes sure it answers (a camera that does not is
  /// found out during the count, not at zero): it meters on the live view's stream when there
  /// is one, else on one `--capture-preview`; the exposure is the camera's own. With a live
  /// view, the camera's `CameraService/handOver` stops it ahead of zero by the live view's
  /// ``GPhoto2LiveView/lead``, waiting for gphoto2 to close the camera; the shutter waits
  /// for that, and the live view streams again when the run ends, photo or not.
  ///
  /// - Parameters:
  ///   - location: The location step.
  ///   - liveView: The screen's live camera over `view`, or `nil` for none.
  ///   - view: The live view `liveView` runs.
  public func services<V: Clock>(
    location: Preparation<LocationTag>, liveView: LiveCamera?, view: GPhoto2LiveView<V>?
  ) -> PhotoTimerServices where V.Duration == Duration {
    let suggestion = Locked<FilterSuggestion?>(nil)
    let suggested = OneShot<FilterSuggestion>()
    let detected = Locked<DetectedCamera?>(nil)
    var camera = CameraService(
      prepare: {
        do {
          let cameras = try await detect()
          guard let first = cameras.first else { throw GPhoto2Error.noCamera }
          detected.withLock { $0 = first }
          let preview: Frame?
          do {
            preview = try await self.preview(liveView: liveView)
          } catch GPhoto2Error.unsupported {
            // NB: it answered; it has no preview to meter on.
            preview = nil
          }
          let sceneEV = preview.map { Metering.sceneEV(of: $0) }
          let look =
            preview.map { FilterAdvisor().suggest(for: $0, sceneEV: sceneEV ?? 10) }
            ?? FilterSuggestion(
              filter: .natural, confidence: 0.5, reason: "no preview from the camera")
          suggestion.withLock { $0 = look }
          suggested.fulfil(.success(look))
          // NB: a DSLR meters and exposes by itself: nothing of ours is claimed for it.
          return .cameraOwn(mode: nil, sceneEV: sceneEV)
        } catch {
          suggested.fulfil(.failure(error))
          throw error
        }
      },
      shoot: { request in
        // NB: the engine has handed the camera over already; anyone else shooting directly
        // stops the live view here.
        await view?.session?.pause()
        return try await self.capture(
          request, camera: detected.withLock { $0 }, liveView: view?.session)
      },
      release: {
        // NB: after every run, photo or not: a stop still under way is waited for first.
        await view?.session?.stopped()
        if let liveView, !liveView.isClosed { try? view?.session?.resume() }
      })
    if let view {
      camera.handOver = CameraHandOver(
        lead: { view.lead },
        perform: {
          StepStatus.report("waiting for the camera to end its live view…")
          await view.session?.pause()
        })
    }
    let filter = Preparation<FilterSuggestion>(
      isRequired: false, ready: { suggestion.withLock { $0 } }
    ) {
      StepStatus.report("waiting for the camera's preview")
      // NB: the look is only recorded in the EXIF: the camera's JPEG is never re-encoded.
      return try await suggested.value()
    }
    return PhotoTimerServices(camera: camera, location: location, filter: filter)
  }

  /// The metering preview: settled on the live view's stream when there is one, else one
  /// `--capture-preview`.
  private func preview(liveView: LiveCamera?) async throws -> Frame {
    if let liveView, !liveView.isFailed {
      let session = try await liveView.open()
      return try await ExposureSettler(timeout: .seconds(2)).settle(session, clock: clock).preview
    }
    return try await preview()
  }

  /// What the camera's live view gives: how many pictures in a short look, their size, and
  /// how long stopping it takes (the margin kept before the shutter).
  public struct LiveViewProbe: Sendable {
    /// Pictures received.
    public var frames: Int
    /// The last picture's size.
    public var width: Int
    /// The last picture's height.
    public var height: Int
    /// How long stopping the live view took.
    public var margin: Duration?
  }

  /// Streams the live view until 10 pictures have come, or `duration` has passed since the
  /// first one, then stops it.
  ///
  /// A camera can take a while to start its live view (and a loaded machine longer): the first
  /// picture is waited for up to `firstPictureLimit`, and `duration` counts from it.
  ///
  /// - Throws: ``GPhoto2Error`` when the camera gives no live view.
  public func probeLiveView(
    for duration: Duration = .seconds(2), firstPictureLimit: Duration = .seconds(10)
  ) async throws -> LiveViewProbe {
    let view = GPhoto2LiveView(executable: executable, launcher: launcher, clock: clock)
    let session = try await view.open()
    guard let live = view.session else { throw GPhoto2Error.failed("no live view") }
    let clock = clock
    // NB: nothing polls: the first picture and the end of the look are each raced against
    // their deadline.
    let first = OneShot<C.Instant>()
    let finished = OneShot<Void>()
    let frames = Task {
      var last: Frame?
      var count = 0
      while count < 10, let frame = try? await session.nextFrame() {
        if count == 0 { first.fulfil(.success(clock.now)) }
        last = frame
        count += 1
      }
      first.fulfil(.failure(GPhoto2Error.failed("the live view ended")))
      finished.fulfil(.success(()))
      return (count, last)
    }
    if let started = await Self.race(first, until: clock.now.advanced(by: firstPictureLimit), clock)
    {
      _ = await Self.race(finished, until: started.advanced(by: duration), clock)
    }
    frames.cancel()
    await live.pause()
    let (count, last) = await frames.value
    let margin = live.margin
    await session.close()
    guard count > 0, let last else {
      throw GPhoto2Error.failed("the camera gave no live view (gphoto2 --capture-movie)")
    }
    return LiveViewProbe(frames: count, width: last.width, height: last.height, margin: margin)
  }

  /// The value of `shot`, or `nil` when `deadline` comes first (or it fails).
  private static func race<T: Sendable>(
    _ shot: OneShot<T>, until deadline: C.Instant, _ clock: C
  ) async -> T? {
    await withTaskGroup(of: T?.self) { group in
      group.addTask { try? await shot.value() }
      group.addTask {
        try? await clock.sleep(until: deadline, tolerance: nil)
        return nil
      }
      let winner = await group.next() ?? nil
      group.cancelAll()
      return winner
    }
  }

  /// A live-view frame, when the camera can give one.
  func preview() async throws -> Frame {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/preview.jpg"
    _ = try await run(["--capture-preview", "--filename", path, "--force-overwrite"])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var frame = try JPEGCodec.decode(bytes, path: path).downscaled(maxWidth: 320)
    if let exposure = JPEGFile.recordedExposure(in: bytes) {
      frame.exposureEV =
        log2(exposure.fNumber * exposure.fNumber / exposure.exposureTime)
        - log2(Double(exposure.iso) / 100)
    }
    return frame
  }

  /// Shoots, downloads, adds our EXIF and saves; reports the exposure the camera recorded
  /// (its own metering decides it), or the estimate with a note when it recorded none.
  func capture(_ request: CaptureRequest, camera: DetectedCamera?) async throws -> CapturedShot {
    try await capture(request, camera: camera, liveView: GPhoto2LiveSession<C>?.none)
  }

  func capture<V: Clock>(
    _ request: CaptureRequest, camera: DetectedCamera?, liveView: GPhoto2LiveSession<V>?
  ) async throws -> CapturedShot {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = try await claiming(camera, after: liveView) {
      try await run([
        "--capture-image-and-download", "--filename", folder + "/capture.%C",
        "--force-overwrite",
      ])
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    guard let name = names.first(where: { $0.lowercased().hasSuffix(".jpg") }) else {
      throw names.isEmpty
        ? GPhoto2Error.from(output: output)
        : GPhoto2Error.failed(
          "the camera saved \(names.joined(separator: ", ")), no JPEG: set it to JPEG or RAW+JPEG")
    }
    let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
    let date = now()
    let metadata = PhotoMetadata(
      make: camera?.model ?? "camera", model: camera?.model ?? "camera", date: date,
      settings: request.settings, filter: request.filter, location: request.location)
    let merged = try ExifBlock.merging(metadata, into: jpeg)
    let recorded = JPEGFile.recordedExposure(in: jpeg).map {
      CameraSettings.recorded(fNumber: $0.fNumber, exposureTime: $0.exposureTime, iso: $0.iso)
    }
    let note = recorded == nil ? "the camera recorded no exposure in its photo" : nil
    guard let store else { return CapturedShot(file: nil, settings: recorded, settingsNote: note) }
    let file = try await store.save(jpeg: merged, date: date, timeZone: .current, variant: nil)
    return CapturedShot(file: file, settings: recorded, settingsNote: note)
  }

  /// Runs `body`; when the camera cannot be claimed, says who holds it and never blames
  /// another program for what our own live view did: a camera still closing our live view's
  /// session is tried again for ``settleAfterLiveView``, one our live view was killed on says
  /// so, and the holders of its USB device are named.
  private func claiming<V: Clock, T>(
    _ camera: DetectedCamera?, after liveView: GPhoto2LiveSession<V>?,
    _ body: () async throws -> T
  ) async throws -> T {
    while true {
      do {
        return try await body()
      } catch GPhoto2Error.cameraClaimed {
        let stop = liveView?.lastStop
        if let stop, stop.forced { throw GPhoto2Error.liveViewKilled(after: stop.took) }
        let ours = liveView?.streamingProcess
        let holders = camera.flatMap(usbNode).map { DeviceHolders.of($0) } ?? []
        let others = holders.filter { $0.pid != ours }
        if let stop, others.isEmpty {
          guard stop.ended.duration(to: .now) < settleAfterLiveView else {
            throw GPhoto2Error.liveViewStillClosing
          }
          try await clock.sleep(for: .milliseconds(250))
          continue
        }
        if others.isEmpty, ours != nil { throw GPhoto2Error.liveViewStillClosing }
        throw GPhoto2Error.cameraClaimed(by: others)
      }
    }
  }

  /// The device node of a USB camera's port (`usb:001,005` → `/dev/bus/usb/001/005`).
  func usbNode(_ camera: DetectedCamera) -> String? {
    guard camera.port.hasPrefix("usb:") else { return nil }
    let numbers = camera.port.dropFirst(4).split(separator: ",")
    guard numbers.count == 2, numbers.allSatisfy({ Int($0) != nil }) else { return nil }
    return "\(usbDevices)/\(numbers[0])/\(numbers[1])"
  }

  /// Runs gphoto2 and returns what it printed, or throws the error it describes.
  private func run(_ arguments: [String]) async throws -> String {
    let result: ChildProcess.Completion
    do {
      // NB: no time limit: a long exposure may take minutes; a cancel stops it.
      result = try await ChildProcess.run(launcher + [executable] + arguments, timeLimit: nil)
    } catch let error as SystemCallError
      where error.call == "posix_spawn"
      && error.errno == .noSuchFile
    {
      throw GPhoto2Error.notInstalled
    }
    guard result.exit == .status(0) else { throw GPhoto2Error.from(output: result.output) }
    return result.output
  }

  private func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-gphoto2-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
