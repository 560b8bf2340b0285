import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerGPhoto2
import PhotoTimerImaging
import PhotoTimerJPEG

extension GPhoto2Kind: CameraDriver {
  /// The gphoto2 program: `PHOTOTIMER_GPHOTO2` when set (a `.sh` stand-in runs through
  /// `/bin/sh`: the tests' cameras), else `gphoto2` on PATH.
  static var program: (executable: String, launcher: [String]) {
    guard let path = ProcessInfo.processInfo.environment["PHOTOTIMER_GPHOTO2"], !path.isEmpty
    else { return ("gphoto2", []) }
    return (path, path.hasSuffix(".sh") ? ["/bin/sh"] : [])
  }

  private func camera(store: PhotoStore?) -> GPhoto2Camera<ContinuousClock> {
    GPhoto2Camera(
      executable: Self.program.executable, launcher: Self.program.launcher, store: store,
      clock: ContinuousClock())
  }

  /// A camera gphoto2 detects, asked only when a USB still-image (PTP) interface is present:
  /// starting gphoto2 costs about 100 ms, which would delay every run without a DSLR.
  package func discover() async -> [CameraChoice] {
    guard DetectedCamera.stillImageInterfacePresent() else { return [] }
    guard let cameras = try? await camera(store: nil).detect(), !cameras.isEmpty else {
      return []
    }
    return [.gphoto2]
  }

  /// Its live view, which the screen shows while gphoto2 takes the photos.
  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    GPhoto2LiveView(
      executable: Self.program.executable, launcher: Self.program.launcher,
      clock: ContinuousClock())
  }

  /// The camera shoots and its JPEG is kept; the live view runs only where the screen holds
  /// it (a `LiveCamera` over it).
  package func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices? {
    let store = ProgramSetup.store(options)
    try store.checkFolder()
    let live = camera as? LiveCamera
    return self.camera(store: store).services(
      location: PhotoTimerServices.simulated().location, liveView: live,
      view: live?.source as? GPhoto2LiveView<ContinuousClock>)
  }

  package func menuName(_ choice: CameraChoice) -> String { "DSLR (gphoto2)" }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    CameraIdentity(kind: scheme, name: "the camera gphoto2 finds")
  }

  /// The cameras gphoto2 detects and whether one gives a live view.
  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] {
    let gphoto2 = camera(store: nil)
    let cameras: [DetectedCamera]
    do {
      cameras = try await gphoto2.detect()
    } catch GPhoto2Error.notInstalled {
      return [
        DoctorLine(.warning, "gphoto2", "not installed: sudo apt-get install gphoto2 (for DSLRs)")
      ]
    } catch {
      return [DoctorLine(.warning, "gphoto2", "\(error)")]
    }
    guard !cameras.isEmpty else {
      return [
        DoctorLine(
          .warning, "gphoto2",
          "no camera detected: connect it by USB, switch it on and set it to PTP/PC mode")
      ]
    }
    var lines = [
      DoctorLine(.ok, "gphoto2", "camera: \(cameras.map(\.description).joined(separator: ", "))")
    ]
    do {
      let probe = try await gphoto2.probeLiveView()
      let margin = probe.margin.map { "\($0.wholeMilliseconds) ms" } ?? "an unknown time"
      lines.append(
        DoctorLine(
          .ok, "live view",
          "\(probe.width)×\(probe.height) (gphoto2 --capture-movie); stopped \(margin) before "
            + "the shutter so the camera is free at zero"))
    } catch {
      lines.append(
        DoctorLine(.warning, "live view", "none: \(error); the preview is the count only"))
    }
    return lines
  }
}
