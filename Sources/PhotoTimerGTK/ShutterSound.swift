import CGTK
import Foundation

/// The shutter's sound: the sound theme's `camera-shutter` event through libcanberra (the
/// freedesktop theme's recording of a shutter, played by PulseAudio or ALSA).
///
/// Playing runs on a queue of its own: opening the audio device can take a while, and the
/// window never waits for it. Where there is no sound device (a headless machine), the
/// first failure is reported once on standard error and the window carries on.
final class ShutterSound: @unchecked Sendable {
  private let queue = DispatchQueue(label: "phototimer.shutter-sound")
  // NB: touched only on `queue`.
  private var context: OpaquePointer?
  private var reported = false
  private let enabled: Bool

  init(enabled: Bool) {
    self.enabled = enabled
  }

  /// Plays the shutter; returns at once.
  func play() {
    guard enabled else { return }
    queue.async { [self] in
      if context == nil {
        var created: OpaquePointer?
        let status = ca_context_create(&created)
        guard status == CA_SUCCESS, let created else { return report(status) }
        context = created
      }
      let status = phototimer_play_event(context, "camera-shutter", "Photo taken")
      if status != CA_SUCCESS { report(status) }
    }
  }

  private func report(_ status: Int32) {
    guard !reported else { return }
    reported = true
    let reason = String(cString: ca_strerror(status))
    FileHandle.standardError.write(
      Data("note: no shutter sound (\(reason)); the flash still shows\n".utf8))
  }
}
