import Foundation
import PhotoTimerCommandLine
import PhotoTimerSetup

/// What the window remembers between runs: the last countdown, camera and look chosen in it,
/// in `$XDG_CONFIG_HOME/phototimer/window.json` (`~/.config` when the variable is unset).
struct WindowSettings: Codable, Equatable, Sendable {
  /// The countdown in seconds.
  var countdown: Int?
  /// The camera, as `--camera` names it.
  var camera: String?
  /// The ffmpeg input format of that camera, when it has one.
  var ffmpegFormat: String?
  /// The look, as `--filter` names it.
  var look: String?
  /// The webcam's mode, as `--resolution` names it (`nil`: the best).
  var resolution: String?

  /// The settings file for `environment`.
  static func file(environment: [String: String]) -> URL {
    let base: URL
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      base = URL(fileURLWithPath: config)
    } else {
      base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        .appendingPathComponent(".config")
    }
    return base.appendingPathComponent("phototimer/window.json")
  }

  /// The remembered settings; none when the file is missing or unreadable (a damaged file is
  /// replaced at the next save, never fatal).
  static func load(from file: URL) -> WindowSettings {
    guard let data = try? Data(contentsOf: file),
      let settings = try? JSONDecoder().decode(WindowSettings.self, from: data)
    else { return WindowSettings() }
    return settings
  }

  /// Writes the settings atomically (a temporary file renamed over the old one).
  ///
  /// - Throws: Why the folder or the file could not be written.
  func save(to file: URL) throws {
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: file, options: .atomic)
  }

  /// What was chosen in the window last time, unless the command line (`given`) says
  /// otherwise; values that no longer parse are ignored.
  func apply(to options: inout CommandOptions.RunOptions, given: Set<CommandOption>) {
    if !given.contains(.seconds), let countdown, (0...3600).contains(countdown) {
      options.seconds = countdown
    }
    if !given.contains(.camera), let text = camera, var choice = try? CameraKinds.parse(text) {
      if let ffmpegFormat, choice.kind is FFmpegKind { choice.format = ffmpegFormat }
      options.camera = choice
    }
    if !given.contains(.filter), let text = look, let choice = try? CommandOptions.filter(text) {
      options.filter = choice
    }
    if !given.contains(.resolution), let text = resolution,
      let request = CommandOptions.resolution(text)
    {
      options.resolution = request
    }
  }
}
