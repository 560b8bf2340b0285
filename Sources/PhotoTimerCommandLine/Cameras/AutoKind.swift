import PhotoTimer
import PhotoTimerImaging

/// `auto`: resolved before anything opens to the first camera of the first automatic kind
/// (``CameraKinds/resolveAuto()``), else the scene camera.
package struct AutoKind: CameraKind {
  package init() {}

  package var scheme: String { "auto" }
  package var summary: String {
    "the first webcam, else a camera gphoto2 finds, else the scene camera (the default)"
  }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    guard argument == nil else {
      throw CommandOptions.UsageError(problems: ["--camera auto takes no argument"])
    }
    return .auto
  }
}

/// The seed's simulated camera: no pixels, no file (`--simulate`; no `--camera` names it).
package struct SimulatedKind: CameraKind {
  package init() {}

  package var scheme: String { "simulation" }
  package var summary: String {
    "the seed's simulated camera: no pixels, no file (--simulate)"
  }
  package var usage: String? { nil }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    .simulated
  }
}

extension CameraChoice {
  /// `auto`.
  package static var auto: Self { CameraChoice(kind: AutoKind()) }
  /// The simulation (`--simulate`).
  package static var simulated: Self { CameraChoice(kind: SimulatedKind()) }
}
