import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerJPEG

extension FileKind: CameraDriver {
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
