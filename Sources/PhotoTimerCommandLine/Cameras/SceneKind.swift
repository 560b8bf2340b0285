import PhotoTimer
import PhotoTimerImaging

/// The built-in scene camera under a lighting preset: `scene[:PRESET]`.
package struct SceneKind: CameraKind {
  package init() {}

  package var scheme: String { "scene" }
  package var usage: String? { "scene[:PRESET]" }
  package var summary: String {
    "the built-in scene camera: a drawn photograph under a lighting preset, which behaves like a webcam (no hardware needed)"
  }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    guard let name = argument else { return .scene(.daylight) }
    guard let preset = ScenePreset.named(name) else {
      let names = ScenePreset.all.map(\.name).joined(separator: ", ")
      throw CommandOptions.UsageError(problems: [
        "no scene preset '\(name)'; choose one of \(names)"
      ])
    }
    return .scene(preset)
  }
  /// The preset a choice names (daylight when none or an unknown one).
  package static func preset(_ choice: CameraChoice) -> ScenePreset {
    choice.argument.flatMap(ScenePreset.named) ?? .daylight
  }
}

extension CameraChoice {
  /// The built-in scene camera under a lighting preset.
  package static func scene(_ preset: ScenePreset) -> Self {
    CameraChoice(kind: SceneKind(), argument: preset.name)
  }

  /// The scene camera's preset, when this is the scene camera.
  package var scenePreset: ScenePreset? {
    kind is SceneKind ? SceneKind.preset(self) : nil
  }
}
