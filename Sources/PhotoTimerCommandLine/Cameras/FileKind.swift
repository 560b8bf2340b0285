import PhotoTimer
import PhotoTimerImaging

/// A JPEG or PNG file as the sensor: `file:PATH`.
package struct FileKind: CameraKind {
  package init() {}

  package var scheme: String { "file" }
  package var usage: String? { "file:PATH" }
  package var summary: String {
    "a JPEG or PNG file as the sensor: the photo is that picture, metered and filtered like a camera's"
  }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    .file(try required(argument, "a path", examples: "file:photo.jpg"))
  }
}

extension CameraChoice {
  /// A JPEG or PNG file as the sensor.
  package static func file(_ path: String) -> Self {
    CameraChoice(kind: FileKind(), argument: path)
  }
}
