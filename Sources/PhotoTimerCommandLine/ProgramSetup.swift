import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGPhoto2
import PhotoTimerGStreamer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerPOSIX

/// What both programs build from their options: the camera, the services, the photo store.
///
/// `phototimer` and `phototimer-gtk` take the same options for these, so a camera or a
/// location given to one means the same to the other.
package enum ProgramSetup {
  /// `auto`: the first V4L2 capture node through GStreamer, else a camera gphoto2 detects,
  /// else the scene camera.
  ///
  /// NB: gphoto2 is asked only when a USB still-image (PTP) interface is present: starting it
  /// costs about 100 ms, which would delay the first frame of every run without a DSLR.
  package static func resolveAuto() async -> CommandOptions.CameraChoice {
    let video = CommandOptions.autoCamera()
    if video != .scene(.daylight) { return video }
    guard DetectedCamera.stillImageInterfacePresent() else { return .scene(.daylight) }
    let gphoto2 = GPhoto2Camera(
      executable: gphoto2.executable, launcher: gphoto2.launcher, store: nil,
      clock: ContinuousClock())
    if let cameras = try? await gphoto2.detect(), !cameras.isEmpty { return .gphoto2 }
    return .scene(.daylight)
  }

  /// What `auto` says when it found no camera and shoots the scene camera instead.
  package static let noCameraFound = "no camera found (phototimer doctor says why)"

  /// The camera the options name and `source` opens, as every output names it: the kind as
  /// `--camera` writes it, the camera's own name (a webcam's driver name, an IP camera's host,
  /// never its user or password), its mode when chosen.
  ///
  /// - Parameters:
  ///   - options: The run's options, `auto` already resolved.
  ///   - source: The camera they open, or `nil` for the simulation.
  ///   - fallback: Why the camera stands in for the one asked for, if it does.
  package static func identity(
    _ options: CommandOptions.RunOptions, source: (any CameraSource)?, fallback: String? = nil
  ) -> CameraIdentity {
    let kind: String
    var name = source?.model ?? ""
    var mode: String?
    switch options.camera {
    case .simulated: (kind, name) = ("simulation", "simulated camera")
    case .scene, .auto: kind = "scene"
    case .file: kind = "file"
    case .ffmpeg(let input, _):
      kind = "ffmpeg"
      if CameraAddress.host(of: input) == nil { name = CameraAddress.redacted(input) }
    case .v4l2(let path):
      kind = "v4l2"
      if name.isEmpty { name = path }
    case .pipewire: kind = "pipewire"
    case .gphoto2: (kind, name) = ("gphoto2", "the camera gphoto2 finds")
    }
    if let camera = source as? GStreamerCamera<ContinuousClock> {
      mode = camera.mode?.description
    } else if let camera = source as? SceneCamera<ContinuousClock> {
      mode = "\(camera.width)×\(camera.height)"
    }
    return CameraIdentity(kind: kind, name: name, mode: mode, fallback: fallback)
  }

  /// A file camera's file, checked before anything opens (the count never starts on a path
  /// that cannot work): the command line's mistake, said once, with what to do. `nil` for any
  /// other camera, and for a file that is there and readable.
  package static func checkImageFile(_ options: CommandOptions.RunOptions) -> (any Error)? {
    guard case .file(let path) = options.camera else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return CommandAdvice.advise(ImageFileError.missing(path: path))
    }
    if isDirectory.boolValue { return ImageFileError.notAnImage(path: path) }
    guard FileManager.default.isReadableFile(atPath: path) else {
      return ImageFileError.unreadable(path: path, reason: "permission denied")
    }
    return nil
  }

  /// The gphoto2 program: `PHOTOTIMER_GPHOTO2` when set (a `.sh` stand-in runs through
  /// `/bin/sh`: the tests' cameras), else `gphoto2` on PATH.
  package static var gphoto2: (executable: String, launcher: [String]) {
    guard let path = ProcessInfo.processInfo.environment["PHOTOTIMER_GPHOTO2"], !path.isEmpty
    else { return ("gphoto2", []) }
    return (path, path.hasSuffix(".sh") ? ["/bin/sh"] : [])
  }

  /// The camera the options ask for (for gphoto2: its live view, which the screen shows while
  /// gphoto2 takes the photos), or `nil` for the simulation.
  ///
  /// - Throws: ``GStreamerError`` when a webcam is not there, captures no video or lacks the
  ///   size asked for (``GStreamerError/mode(_:_:)``: a usage error).
  package static func cameraSource(
    _ options: CommandOptions.RunOptions
  ) async throws(GStreamerError) -> (any CameraSource)? {
    let clock = ContinuousClock()
    switch options.camera {
    case .v4l2(let path):
      return try GStreamerCamera.v4l2(path, request: options.resolution, clock: clock)
    case .pipewire(let node):
      // NB: the node's modes as the device monitor lists them; without them (PipeWire not
      // listing it yet), the node's own first mode.
      let listed = ((try? await PipeWireCameras.list()) ?? []).first {
        node == nil || $0.node == node
      }
      var mode: StreamMode?
      if let modes = listed?.modes, !modes.isEmpty {
        do throws(ModeChoiceError) {
          mode = try options.resolution.choose(from: modes)
        } catch {
          throw .mode(node.map { "pipewire:\($0)" } ?? "pipewire", error)
        }
      }
      return GStreamerCamera(
        device: .pipewire(node ?? listed?.node), mode: mode, make: "PipeWire",
        model: listed?.name ?? node ?? "default camera", clock: clock)
    case .simulated: return nil
    case .gphoto2:
      return GPhoto2LiveView(
        executable: gphoto2.executable, launcher: gphoto2.launcher, clock: clock)
    case .scene(let preset):
      return SceneCamera(
        preset: preset, width: options.width, height: options.height, clock: clock)
    case .file(let path): return ImageFileCamera(path: path, clock: clock)
    case .ffmpeg(let input, let format):
      var camera = FFmpegCamera(input: input, format: format, clock: clock)
      if options.verbose {
        camera.log = { line in
          try? FileDescriptor.standardError.writeAll(Array("ffmpeg: \(line)\n".utf8))
        }
      }
      return camera
    case .auto:
      return SceneCamera(
        preset: .daylight, width: options.width, height: options.height, clock: clock)
    }
  }

  /// The services the options ask for, on `camera` (from ``cameraSource(_:)``, or the live
  /// camera the screen holds over it); checks the output folder before any counting.
  package static func makeServices(
    _ options: CommandOptions.RunOptions, camera: (any CameraSource)?
  )
    throws -> PhotoTimerServices
  {
    let clock = ContinuousClock()
    var services: PhotoTimerServices = .simulated()
    if options.camera == .gphoto2 {
      let store = store(options)
      try store.checkFolder()
      // NB: the live view only where the screen holds it (a LiveCamera over it).
      let live = camera as? LiveCamera
      let dslr = GPhoto2Camera(
        executable: gphoto2.executable, launcher: gphoto2.launcher, store: store, clock: clock)
      services = dslr.services(
        location: services.location, liveView: live,
        view: live?.source as? GPhoto2LiveView<ContinuousClock>)
    } else if let camera {
      services = try pipeline(camera, options).services(location: services.location)
    }
    switch options.location {
    case .simulated: break
    case .gpsd(let endpoint):
      let policy = FixPolicy(maximumHorizontalError: Double(options.gpsMaxError))
      services.location = GPSDLocationSource(endpoint: endpoint, policy: policy, clock: clock)
        .preparation()
    case .manual(let location): services.location = location.preparation()
    case .off: services.location = .disabled(reason: "location off (--no-location)")
    }
    return services
  }

  /// A note for standard error when the options ask for a location but the place names
  /// cannot be had: photos then get coordinates without a place's name.
  package static func placeDataNote(_ options: CommandOptions.RunOptions) -> String? {
    switch options.location {
    case .off, .simulated: return nil
    case .gpsd, .manual:
      return BundledGeocoder.missingData.map {
        "note: \($0); photos get coordinates without place names\n"
      }
    }
  }

  /// The photo store the options ask for.
  package static func store(_ options: CommandOptions.RunOptions) -> PhotoStore {
    if let output = options.output {
      return PhotoStore(
        folder: URL(fileURLWithPath: (output as NSString).expandingTildeInPath),
        quality: options.quality, creation: .whenParentExists)
    }
    return PhotoStore(
      folder: PhotoStore.defaultFolder(), quality: options.quality, creation: .withParents)
  }

  private static func pipeline(
    _ source: any CameraSource, _ options: CommandOptions.RunOptions
  )
    throws -> CameraPipeline<ContinuousClock>
  {
    let store = store(options)
    try store.checkFolder()
    return CameraPipeline(
      source: source, sink: store, clock: ContinuousClock(), filter: options.filter,
      keepOriginal: options.keepOriginal, burst: options.burst)
  }

}
