import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerGStreamer
import PhotoTimerImaging

extension PipeWireKind: CameraDriver {
  /// The nodes PipeWire's device monitor lists (none when PipeWire is not running).
  package func discover() async -> [CameraChoice] {
    ((try? await PipeWireCameras.list()) ?? []).map { .pipewire($0.node) }
  }

  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    let node = choice.argument
    // NB: the node's modes as the device monitor lists them; without them (PipeWire not
    // listing it yet), the node's own first mode.
    let listed = ((try? await PipeWireCameras.list()) ?? []).first {
      node == nil || $0.node == node
    }
    var mode: StreamMode?
    if let modes = listed?.modes, !modes.isEmpty {
      do throws(ModeChoiceError) {
        mode = try options.resolution.choose(from: modes)
      } catch {
        throw CameraOpenError.usage(GStreamerError.mode(choice.text ?? scheme, error))
      }
    }
    return GStreamerCamera(
      device: .pipewire(node ?? listed?.node), mode: mode, make: "PipeWire",
      model: listed?.name ?? node ?? "default camera", clock: ContinuousClock())
  }

  package func mirrored(_ choice: CameraChoice) -> Bool { true }

  package func menuName(_ choice: CameraChoice) -> String {
    "PipeWire camera \(choice.argument ?? "(default)")"
  }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    let camera = source as? GStreamerCamera<ContinuousClock>
    return CameraIdentity(
      kind: scheme, name: camera?.model ?? choice.argument ?? "default camera",
      mode: camera?.mode?.description)
  }

  /// The PipeWire cameras the device monitor lists, each with the mode a run would take.
  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] {
    let cameras: [PipeWireCameras.Camera]
    do {
      cameras = try await PipeWireCameras.list()
    } catch {
      return [DoctorLine(.warning, "PipeWire", "\(error)")]
    }
    guard !cameras.isEmpty else {
      return [
        DoctorLine(
          .warning, "PipeWire",
          "no camera node (or PipeWire not running): --camera pipewire is unavailable until one is"
        )
      ]
    }
    return cameras.map { camera in
      let mode =
        (try? options.resolution.choose(from: camera.modes))?.description ?? "its own mode"
      return DoctorLine(.ok, "PipeWire", "pipewire:\(camera.node) (\(camera.name)): uses \(mode)")
    }
  }
}
