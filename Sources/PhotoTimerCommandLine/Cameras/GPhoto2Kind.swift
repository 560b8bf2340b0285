import PhotoTimer
import PhotoTimerImaging

/// A DSLR or mirrorless camera through the gphoto2 tool: `gphoto2`. The camera takes the
/// photo; its live view (`--capture-movie`) is the screen's picture.
package struct GPhoto2Kind: CameraKind {
  package init() {}

  package var scheme: String { "gphoto2" }
  package var summary: String {
    "a DSLR or mirrorless camera on USB, through the gphoto2 tool: the camera takes the photo itself, and its live view is the preview"
  }
  package var automatic: Bool { true }
  package var shootsItself: Bool { true }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    guard argument == nil || argument?.isEmpty == true else {
      throw CommandOptions.UsageError(problems: [
        "--camera gphoto2 takes no argument: it uses the first camera gphoto2 detects"
      ])
    }
    return .gphoto2
  }
}

extension CameraChoice {
  /// A DSLR through gphoto2.
  package static var gphoto2: Self { CameraChoice(kind: GPhoto2Kind()) }
}
