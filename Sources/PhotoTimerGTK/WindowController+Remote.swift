import PhotoTimer
import PhotoTimerRemote
import PhotoTimerSetup

/// The phone as remote in the window: its intents go through the same machine as the keys and
/// buttons.
extension WindowController {
  /// Turns the remote on (at `--remote`'s address, else the LAN's, port 8470) or off.
  func setRemote(_ on: Bool) async {
    guard on else { return await remote.stop(shown: true) }
    guard !closing else { return }
    remote.start(
      at: options.remote ?? RemoteAddress(), camera: CameraMenu.name(options.camera),
      mirrored: mirrored, seconds: options.seconds, guests: booth != nil && options.guestLinks
    ) { [weak self] intent in
      guard let self else { return .refused("the window is closing") }
      // NB: allowed only when the window's presentation allows it now (the same gate as its
      // buttons and keys); refused with its reason otherwise.
      return RemoteLink.answer(intent, shown: presentation(for: .phone)) { action, choice in
        ask(action, choice: choice)
      }
    }
    render()
  }
}
