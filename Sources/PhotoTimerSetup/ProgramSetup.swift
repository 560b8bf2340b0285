import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerFaces
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
  /// `auto`'s camera: the first webcam (V4L2, through GStreamer), else a camera gphoto2
  /// detects, else the scene camera (the registry's automatic kinds, in order).
  package static func resolveAuto() async -> CameraChoice {
    await CameraKinds.resolveAuto()
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
    var identity = options.camera.driver.identity(options.camera, source: source)
    identity.fallback = fallback
    return identity
  }

  /// The camera's mistake found before anything opens (a file camera's missing file): the
  /// command line's, said once, with what to do; `nil` when there is none.
  package static func checkCamera(_ options: CommandOptions.RunOptions) -> (any Error)? {
    options.camera.driver.check(options.camera)
  }

  /// The camera the options ask for (for gphoto2: its live view, which the screen shows while
  /// gphoto2 takes the photos), or `nil` for the simulation.
  ///
  /// - Throws: ``CameraOpenError/usage(_:)`` when the camera lacks what the options ask for
  ///   (a size: the command line's mistake), another error when it cannot be opened.
  package static func cameraSource(
    _ options: CommandOptions.RunOptions
  ) async throws -> (any CameraSource)? {
    try await options.camera.driver.open(options.camera, options)
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
    if let own = try options.camera.driver.services(
      options.camera, camera: camera, options: options)
    {
      services = own
      // NB: a camera with services of its own (a DSLR) shoots when the count says: the people
      // are followed on its live view, where the screen holds one, and the shutter stays put.
      services.people = people(onLiveView: camera as? LiveCamera, options)
    } else if let camera {
      let pipeline = try pipeline(camera, options)
      services = pipeline.services(location: services.location, people: people(pipeline, options))
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
  /// With `--event NAME` the folder is NAME inside it: made when the photo folder exists
  /// (or is the default one, made with its parents).
  package static func store(_ options: CommandOptions.RunOptions) -> PhotoStore {
    var folder = PhotoStore.defaultFolder()
    var creation = PhotoStore.FolderCreation.withParents
    if let output = options.output {
      folder = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
      creation = .whenParentExists
    }
    if let event = options.event {
      folder.appendPathComponent(event, isDirectory: true)
    }
    return PhotoStore(folder: folder, quality: options.quality, creation: creation)
  }

  /// doctor's line on the face model: whether it is installed, and how long reading it took
  /// (it is read here, once, as a run would read it).
  package static func faceModelLine(_ options: CommandOptions.RunOptions) async -> DoctorLine {
    guard options.people else { return DoctorLine(.ok, "faces", "off (--no-people)") }
    let model = FaceModel.standard
    guard model.isInstalled else {
      return DoctorLine(
        .warning, "faces",
        "the face model is not installed (\(model.path)): photos are taken without the people "
          + "step; install it with: sudo apt install libdlib-data")
    }
    do {
      let duration = try await model.loadDuration()
      let seconds = duration.formattedSeconds(fractionDigits: 1)
      return DoctorLine(
        .ok, "faces", "dlib's face model \(model.path), read in \(seconds) s")
    } catch {
      return DoctorLine(.warning, "faces", "\(error): photos are taken without the people step")
    }
  }

  /// The people step the options ask for on `pipeline`: off with `--no-people`, else dlib's
  /// model (read once per process, starting now, as the camera opens).
  private static func people(
    _ pipeline: CameraPipeline<ContinuousClock>, _ options: CommandOptions.RunOptions
  ) -> Preparation<PeopleSummary> {
    guard options.people else { return .disabled(reason: "people off (--no-people)") }
    let model = FaceModel.standard
    model.preload()
    return pipeline.peopleStep { try await model.finder() }
  }

  /// The people step on a camera's live view (a DSLR's): off with `--no-people`, and where
  /// the screen holds no live view to look at.
  private static func people(
    onLiveView live: LiveCamera?, _ options: CommandOptions.RunOptions
  ) -> Preparation<PeopleSummary> {
    guard options.people else { return .disabled(reason: "people off (--no-people)") }
    guard let live else {
      return .disabled(reason: "no live view to look at (none on screen)")
    }
    let model = FaceModel.standard
    model.preload()
    return live.peopleStep { try await model.finder() }
  }

  /// What a count that starts itself watches, whenever the screen holds a camera and the
  /// people are looked for: the switch beside Start turns it on and off
  /// (`--start-when-ready` at the start); it reads dlib's model as the people step does.
  package static func readyWatch(
    _ options: CommandOptions.RunOptions, camera: LiveCamera?
  ) -> ReadyWatch? {
    guard options.people, let camera else { return nil }
    let model = FaceModel.standard
    model.preload()
    return ReadyWatch(camera: camera, wanted: options.readyPeople) { try await model.finder() }
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
      keepOriginal: options.keepOriginal, burst: options.burst, blinkWindow: options.blinkWindow)
  }

}
