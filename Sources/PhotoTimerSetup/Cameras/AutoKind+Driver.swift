import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging

extension AutoKind: CameraDriver {
  /// Unresolved, `auto` opens the scene camera.
  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    try await SceneKind().open(.scene(.daylight), options)
  }

  package func menuName(_ choice: CameraChoice) -> String { "Automatic" }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    SceneKind().identity(.scene(.daylight), source: source)
  }
}

extension SimulatedKind: CameraDriver {
  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  { nil }

  package func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices? { .simulated() }

  package func menuName(_ choice: CameraChoice) -> String { "simulation" }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    CameraIdentity(kind: scheme, name: "simulated camera")
  }
}
