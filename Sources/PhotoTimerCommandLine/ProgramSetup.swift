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
        quality: options.quality)
    }
    return PhotoStore(
      folder: PhotoStore.defaultFolder(), quality: options.quality, createsFolder: true)
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
