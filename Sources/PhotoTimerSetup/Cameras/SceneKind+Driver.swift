import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging

extension SceneKind: CameraDriver {
  /// Every preset: always there.
  package func discover() async -> [CameraChoice] { ScenePreset.all.map { .scene($0) } }

  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    SceneCamera(
      preset: Self.preset(choice), width: options.width, height: options.height,
      clock: ContinuousClock())
  }

  package func menuName(_ choice: CameraChoice) -> String { "Scene: \(Self.preset(choice).name)" }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    let camera = source as? SceneCamera<ContinuousClock>
    return CameraIdentity(
      kind: scheme, name: camera?.model ?? "Scene camera (\(Self.preset(choice).name))",
      mode: camera.map { "\($0.width)×\($0.height)" })
  }

  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] {
    let presets = ScenePreset.all.map(\.name).joined(separator: "|")
    return [DoctorLine(.ok, "scene camera", "built in: --camera scene[:\(presets)]")]
  }

}
