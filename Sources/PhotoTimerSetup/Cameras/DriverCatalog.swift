import PhotoTimerCommandLine
import PhotoTimerImaging

/// The cameras shell completion offers, answered by their drivers.
package struct DriverCatalog: CameraCatalog {
  private let found: @Sendable () async -> [CameraChoice]

  /// This machine's webcams (quick to list), or the cameras `present` gives (the tests'
  /// stand-ins).
  package init(present: @escaping @Sendable () async -> [CameraChoice] = { V4L2Kind.webcams() }) {
    self.found = present
  }

  package func present() async -> [CameraChoice] { await found() }

  package func name(of camera: CameraChoice) -> String { camera.driver.menuName(camera) }

  package func sizes(of camera: CameraChoice) async -> [(title: String, request: ModeRequest)] {
    await camera.driver.sizes(camera)
  }
}

extension ShellCompletion {
  /// Completion over this machine's webcams.
  package static var onThisMachine: ShellCompletion { ShellCompletion(cameras: DriverCatalog()) }
}
