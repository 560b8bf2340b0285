import PhotoTimer
import PhotoTimerImaging

/// PipeWire cameras through GStreamer, by node name or the default one: `pipewire[:NODE]`.
package struct PipeWireKind: CameraKind {
  package init() {}

  package var scheme: String { "pipewire" }
  package var usage: String? { "pipewire[:NODE]" }
  package var summary: String {
    "a camera PipeWire offers (the way a desktop shares its cameras), by node name, else the default one"
  }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    .pipewire(argument?.isEmpty == false ? argument : nil)
  }
}

extension CameraChoice {
  /// A PipeWire camera by node name, or the default one.
  package static func pipewire(_ node: String?) -> Self {
    CameraChoice(kind: PipeWireKind(), argument: node)
  }
}
