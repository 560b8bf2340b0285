import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerImaging
import PhotoTimerPOSIX

extension FFmpegKind: CameraDriver {
  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    var camera = FFmpegCamera(
      input: choice.argument ?? "", format: choice.format, clock: ContinuousClock())
    if options.verbose {
      camera.log = { line in
        try? FileDescriptor.standardError.writeAll(Array("ffmpeg: \(line)\n".utf8))
      }
    }
    return camera
  }

  /// A webcam read through ffmpeg faces the user; a network camera does not.
  package func mirrored(_ choice: CameraChoice) -> Bool {
    choice.format == "v4l2" || (choice.argument ?? "").hasPrefix("/dev/video")
  }

  package func menuName(_ choice: CameraChoice) -> String {
    let input = choice.argument ?? ""
    guard choice.format != "v4l2" else { return "Webcam \(input)" }
    // NB: the menu's name is the phone's too: a file by its name, never its folders.
    return "Stream \(CameraIdentity.guestName(CameraAddress.redacted(input)))"
  }

  /// An IP camera by its host (its user and password never shown), anything else by its
  /// input with any secret removed.
  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    let input = choice.argument ?? ""
    let name =
      CameraAddress.host(of: input) == nil
      ? CameraAddress.redacted(input) : (source?.model ?? CameraAddress.redacted(input))
    return CameraIdentity(kind: scheme, name: name)
  }

  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] {
    guard let path = Self.which("ffmpeg") else {
      return [
        DoctorLine(
          .warning, "ffmpeg",
          "not installed: sudo apt-get install ffmpeg (for webcams and IP cameras)")
      ]
    }
    return [DoctorLine(.ok, "ffmpeg", "found at \(path)")]
  }

  /// The full path of `tool` on PATH, if it is there.
  static func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(tool)"
      if FileSystem.isExecutable(candidate) { return candidate }
    }
    return nil
  }
}
