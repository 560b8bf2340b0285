import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The bar's choices and the camera menu's, carried out: the preferences say what each
/// changes (``WindowPreferences/Change``), and the window rebuilds its camera, counts anew or
/// mirrors its picture. Starting a count by itself is an intent like the others: it goes to
/// the front-end machine (``autoStart``).
@MainActor
final class WindowChoices {
  private let preferences: WindowPreferences
  private let screen: WindowScreen
  /// Builds the camera, the services and the model again.
  var rebuild: () -> Void = {}
  /// Has the model count `seconds` from now on.
  var countdown: (Int) -> Void = { _ in }
  /// Asks for the count that starts by itself, on or off.
  var autoStart: (Bool) -> Void = { _ in }

  init(preferences: WindowPreferences, screen: WindowScreen) {
    self.preferences = preferences
    self.screen = screen
  }

  /// The choices, as the bar calls them.
  var bar: ControlBar.Choices {
    ControlBar.Choices(
      countdown: { [weak self] seconds in self?.follow { $0.countdown(seconds) } },
      size: { [weak self] request in self?.follow { $0.size(request) } },
      look: { [weak self] look in self?.follow { $0.look(look) } },
      location: { [weak self] on in self?.follow { $0.location(on) } },
      mirror: { [weak self] in self?.screen.feed.mirrored = $0 },
      autoStart: { [weak self] in self?.autoStart($0) })
  }

  /// The camera menu's choice.
  func chooseCamera(_ camera: CameraChoice) {
    let change = preferences.camera(camera)
    guard change != .none else { return }
    cameraChanged()
    follow { _ in change }
  }

  /// A new camera is in use: mirrored when it faces the user, unless asked otherwise.
  func cameraChanged() {
    let options = preferences.options
    if options.mirror == nil {
      screen.feed.mirrored = options.camera.driver.mirrored(options.camera)
    }
    screen.views.controls.setMirror(screen.feed.mirrored)
  }

  /// Makes a choice and carries out what it asks.
  private func follow(_ choice: (WindowPreferences) -> WindowPreferences.Change) {
    switch choice(preferences) {
    case .none: break
    case .rebuild: rebuild()
    case .countdown(let seconds): countdown(seconds)
    }
  }
}
