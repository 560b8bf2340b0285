import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

/// A camera found by `gphoto2 --auto-detect`.
public struct DetectedCamera: Hashable, Sendable, CustomStringConvertible {
  /// The model, e.g. `"Canon EOS 80D"`.
  public var model: String
  /// The port, e.g. `"usb:001,005"`.
  public var port: String
  /// `Canon EOS 80D (usb:001,005)`.
  public var description: String { "\(model) (\(port))" }

  /// Whether a USB interface of class 6 (still image: PTP cameras) is connected, read from
  /// sysfs without starting gphoto2 (which costs about 100 ms).
  ///
  /// - Parameter root: Where USB devices are listed (default `/sys/bus/usb/devices`).
  /// - Returns: Whether a camera gphoto2 could talk to may be connected.
  public static func stillImageInterfacePresent(root: String = "/sys/bus/usb/devices") -> Bool {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return entries.contains { entry in
      let text = try? String(contentsOfFile: "\(root)/\(entry)/bInterfaceClass", encoding: .utf8)
      return text?.trimmingCharacters(in: .whitespacesAndNewlines) == "06"
    }
  }
}

/// What went wrong with gphoto2, in plain words with the fix.
public enum GPhoto2Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// The `gphoto2` tool is not installed.
  case notInstalled
  /// No camera was detected.
  case noCamera
  /// Another program (the desktop's gvfs) holds the camera.
  case cameraClaimed
  /// The camera is busy, usually because focus could not lock.
  case busy
  /// Any other failure, with gphoto2's words.
  case failed(String)

  /// What failed and what to do.
  public var description: String {
    switch self {
    case .notInstalled:
      "gphoto2 is not installed; install it (sudo apt-get install gphoto2) or use another camera"
    case .noCamera:
      "no camera found by gphoto2: connect it by USB, switch it on and set it to PTP/PC mode"
    case .cameraClaimed:
      "could not claim the USB camera: the desktop holds it; release it with 'gio mount -s "
        + "gphoto2' (or 'pkill -f gvfs-gphoto2-volume-monitor') and try again"
    case .busy:
      "the camera is busy (PTP Device Busy), usually because it could not lock focus: aim at "
        + "something with contrast, or switch the lens to manual focus"
    case .failed(let words):
      "gphoto2 failed: \(words)"
    }
  }

  /// The error gphoto2's output describes.
  static func from(output: String) -> GPhoto2Error {
    if output.contains("Could not claim the USB device") { return .cameraClaimed }
    if output.contains("PTP Device Busy") { return .busy }
    if output.contains("Could not detect any camera") || output.contains("No camera found") {
      return .noCamera
    }
    let errors = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("*** Error") || $0.contains("rror") }
    return .failed(
      errors.suffix(2).joined(separator: " / ").isEmpty
        ? "no reason given" : errors.suffix(2).joined(separator: " / "))
  }
}

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
    services(location: location, liveView: nil, view: GPhoto2LiveView<C>?.none, countdown: .zero)
  }

  /// The engine's services with the screen's live view.
  ///
  /// With a live view (`liveView`, the ``LiveCamera`` the screen holds over `view`), the
  /// camera step meters on its stream, and the live view is stopped ahead of zero by the
  /// time a stop takes (measured in the session; 0.5 s until the first), so the camera is
  /// free when the shutter claims it; it streams again when the run ends.
  ///
  /// - Parameters:
  ///   - location: The location step.
  ///   - liveView: The screen's live camera over `view`, or `nil` for none.
  ///   - view: The live view `liveView` runs.
  ///   - countdown: How long each run counts (when the live view is stopped).
  public func services<V: Clock>(
    location: Preparation<LocationTag>, liveView: LiveCamera?, view: GPhoto2LiveView<V>?,
    countdown: Duration
  ) -> PhotoTimerServices where V.Duration == Duration {
    let suggestion = Locked<FilterSuggestion?>(nil)
    let suggested = OneShot<FilterSuggestion>()
    let detected = Locked<DetectedCamera?>(nil)
    let stopping = Locked<Task<Void, Never>?>(nil)
    let clock = clock
    let camera = CameraService(
      prepare: {
        let start = clock.now
        do {
          let cameras = try await detect()
          guard let first = cameras.first else { throw GPhoto2Error.noCamera }
          detected.withLock { $0 = first }
          let preview = try? await self.preview(liveView: liveView)
          let sceneEV = preview.map { Metering.sceneEV(of: $0) } ?? 10
          let look =
            preview.map { FilterAdvisor().suggest(for: $0, sceneEV: sceneEV) }
            ?? FilterSuggestion(
              filter: .natural, confidence: 0.5, reason: "no preview from the camera")
          suggestion.withLock { $0 = look }
          suggested.fulfil(.success(look))
          if let session = view?.session, session.isStreaming {
            // NB: the live view holds the camera: stop it a stop's time before zero.
            let margin = session.margin ?? .milliseconds(500)
            let task = Task {
              try? await clock.sleep(until: start.advanced(by: countdown - margin), tolerance: nil)
              guard !Task.isCancelled else { return }
              await session.pause()
            }
            stopping.withLock { $0 = task }
          }
          return ExposureProgram.standard.settings(forSceneEV: sceneEV)
        } catch {
          suggested.fulfil(.failure(error))
          throw error
        }
      },
      shoot: { request in
        // Taken early (or the stop is late): stop the live view now.
        stopping.withLock { $0 }?.cancel()
        await view?.session?.pause()
        return try await self.capture(request, camera: detected.withLock { $0 })
      },
      release: {
        let task = stopping.withLock { task -> Task<Void, Never>? in
          defer { task = nil }
          return task
        }
        task?.cancel()
        await task?.value
        if let liveView, !liveView.isClosed { try? view?.session?.resume() }
      })
    let filter = Preparation<FilterSuggestion>(
      isRequired: false, status: { "waiting for the camera's preview" },
      ready: { suggestion.withLock { $0 } }
    ) {
      // NB: the look is only recorded in the EXIF: the camera's JPEG is never re-encoded.
      try await suggested.value()
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
    // When the first picture came, and whether the tenth has.
    let progress = Locked<(first: C.Instant?, done: Bool)>((nil, false))
    let frames = Task {
      var last: Frame?
      var count = 0
      while count < 10, let frame = try? await session.nextFrame() {
        if count == 0 { progress.withLock { $0.first = clock.now } }
        last = frame
        count += 1
      }
      progress.withLock { $0.done = true }
      return (count, last)
    }
    let giveUp = clock.now.advanced(by: firstPictureLimit)
    while live.isStreaming {
      let (first, done) = progress.withLock { $0 }
      let now = clock.now
      if done || now >= (first?.advanced(by: duration) ?? giveUp) { break }
      try? await clock.sleep(until: now.advanced(by: .milliseconds(50)), tolerance: nil)
      if Task.isCancelled { break }
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
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = try await run([
      "--capture-image-and-download", "--filename", folder + "/capture.%C", "--force-overwrite",
    ])
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
    let note =
      recorded == nil
      ? "the camera recorded no exposure; these are the estimate metered during the count" : nil
    guard let store else { return CapturedShot(file: nil, settings: recorded, settingsNote: note) }
    let file = try await store.save(jpeg: merged, date: date, timeZone: .current, variant: nil)
    return CapturedShot(file: file, settings: recorded, settingsNote: note)
  }

  /// Runs gphoto2 and returns what it printed, or throws the error it describes.
  private func run(_ arguments: [String]) async throws -> String {
    let result: (exit: ChildProcess.Exit, output: String)
    do {
      result = try await ChildProcess.run(launcher + [executable] + arguments)
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
