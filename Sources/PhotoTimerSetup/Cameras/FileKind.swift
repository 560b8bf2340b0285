import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG

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

  /// The file is there, is a file and can be read: else the command line's mistake, said once
  /// with what to do, before any count starts.
  package func check(_ choice: CameraChoice) -> (any Error)? {
    let path = choice.argument ?? ""
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return CommandAdvice.advise(ImageFileError.missing(path: path))
    }
    if isDirectory.boolValue { return ImageFileError.notAnImage(path: path) }
    guard FileManager.default.isReadableFile(atPath: path) else {
      return ImageFileError.unreadable(path: path, reason: "permission denied")
    }
    return nil
  }

  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    ImageFileCamera(path: choice.argument ?? "", clock: ContinuousClock())
  }

  package func menuName(_ choice: CameraChoice) -> String {
    "File: \(((choice.argument ?? "") as NSString).lastPathComponent)"
  }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    CameraIdentity(
      kind: scheme,
      name: source?.model
        ?? "Image file (\(((choice.argument ?? "") as NSString).lastPathComponent))")
  }
}

extension CameraChoice {
  /// A JPEG or PNG file as the sensor.
  package static func file(_ path: String) -> Self {
    CameraChoice(kind: FileKind(), argument: path)
  }
}
