import PhotoTimerPOSIX

/// What went wrong with an ffmpeg camera, with ffmpeg's own last words.
///
/// The messages speak of the library's own terms (the input, ffmpeg's words); an
/// application adds its own advice, such as which option to change.
public enum FFmpegError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The `ffmpeg` program is not installed (or not on PATH).
  case notInstalled(executable: String)
  /// ffmpeg ended before or while streaming: its exit and its last lines of error output.
  case ended(input: String, exit: String, lastLines: [String])
  /// No frame came for too long.
  case stalled(input: String, seconds: Int, lastLines: [String])
  /// The stream ended in the middle of a frame: frames were not the size ffmpeg announced.
  case partialFrame(input: String, bytes: Int, expected: Int)
  /// ffmpeg never said what size its frames are.
  case noVideo(input: String, lastLines: [String])
  /// A system call failed while starting or reading ffmpeg.
  case system(SystemCallError)

  /// What failed, with the value involved and ffmpeg's words.
  public var description: String {
    switch self {
    case .notInstalled(let executable):
      return "\(executable) is not installed (sudo apt-get install ffmpeg)"
    case .ended(let input, let exit, let lines):
      return "ffmpeg stopped reading \(input) (\(exit))\(Self.quote(lines))"
    case .stalled(let input, let seconds, let lines):
      return "no frame from \(input) for \(seconds) s\(Self.quote(lines)); check the camera "
        + "or the network"
    case .partialFrame(let input, let bytes, let expected):
      return "the stream from \(input) ended inside a frame (\(bytes) of \(expected) bytes): "
        + "its frames are not the size ffmpeg announced"
    case .noVideo(let input, let lines):
      return "ffmpeg found no video in \(input)\(Self.quote(lines))"
    case .system(let error):
      return "the ffmpeg camera failed: \(error)"
    }
  }

  private static func quote(_ lines: [String]) -> String {
    lines.isEmpty ? "" : ": " + lines.suffix(3).joined(separator: " / ")
  }
}
