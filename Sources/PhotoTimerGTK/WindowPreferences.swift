import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerSetup

/// The window's choices and what they ask for: the options a run uses, kept in the settings
/// file where the user chose them (the count, the camera, its size, the look), and the
/// location turned off and on again.
@MainActor
final class WindowPreferences {
  /// What a choice asks of the window.
  enum Change: Equatable {
    /// Nothing: the choice was already made.
    case none
    /// The camera, the services and the model are built again.
    case rebuild
    /// The model counts `seconds` from now on.
    case countdown(Int)
  }

  /// The options a run uses now.
  var options: CommandOptions.RunOptions
  /// Why the camera stands in for `auto`'s, if it does.
  var fallback: String?
  private var settings: WindowSettings
  private let store: SettingsStore
  /// The location to come back to when it is turned on again.
  private var savedLocation: CommandOptions.LocationChoice?

  /// The window's preferences from the command line's `options` and the saved `settings`.
  init(options: CommandOptions.RunOptions, settings: WindowSettings, store: SettingsStore) {
    self.options = options
    self.settings = settings
    self.store = store
  }

  /// Resolves `auto` to the camera it stands for (asking the system, and gphoto2 when a still
  /// camera is plugged in, off the main thread), the scene camera when none is found.
  ///
  /// - Returns: Whether the camera was `auto`.
  func resolveAuto() async -> Bool {
    guard options.camera.isAuto else { return false }
    options.camera = await ProgramSetup.resolveAuto()
    if options.camera.scenePreset != nil { fallback = ProgramSetup.noCameraFound }
    return true
  }

  /// The count's length.
  func countdown(_ seconds: Int) -> Change {
    guard seconds != options.seconds else { return .none }
    options.seconds = seconds
    settings.countdown = seconds
    store.save(settings)
    // NB: a DSLR's live view is timed to stop before zero: its services know the count.
    return options.camera.kind.shootsItself ? .rebuild : .countdown(seconds)
  }

  /// The camera menu's choice.
  func camera(_ camera: CameraChoice) -> Change {
    guard camera != options.camera else { return .none }
    options.camera = camera
    fallback = nil
    settings.camera = camera.text
    settings.ffmpegFormat = camera.format
    store.save(settings)
    return .rebuild
  }

  /// The size menu's choice.
  func size(_ request: ModeRequest) -> Change {
    guard request != options.resolution else { return .none }
    options.resolution = request
    settings.resolution = CommandOptions.resolutionArgument(request)
    store.save(settings)
    return .rebuild
  }

  /// The look menu's choice.
  func look(_ look: FilterChoice) -> Change {
    guard look != options.filter else { return .none }
    options.filter = look
    settings.look = look.argument
    store.save(settings)
    return .rebuild
  }

  /// The location check box: off, or back to what it was (gpsd by default).
  func location(_ on: Bool) -> Change {
    let wanted: CommandOptions.LocationChoice = on ? (savedLocation ?? .gpsd(.standard)) : .off
    guard wanted != options.location else { return .none }
    if !on { savedLocation = options.location }
    options.location = wanted
    return .rebuild
  }

  /// Writes the settings that are still being saved.
  func close() async {
    await store.close()
  }
}

extension FrontEndSession.Configuration {
  /// The window's machine: it frames between counts and holds its camera, shows a camera
  /// that fails instead of ending, and as a booth (`booth`) runs `options`' sessions and
  /// opens its camera again 3 s after it failed (a booth runs all evening: a camera unplugged
  /// and plugged back in resumes by itself).
  static func window(_ options: CommandOptions.RunOptions, booth: Bool) -> Self {
    var configuration = Self(
      frames: true, holdsCamera: true, endsOnCameraFailure: false, autoStart: nil)
    configuration.booth = booth ? options.boothPlan : nil
    configuration.reopensCamera = booth ? .seconds(3) : nil
    return configuration
  }
}
