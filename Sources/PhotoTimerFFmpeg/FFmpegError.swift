import Foundation
import PhotoTimer
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

  /// What failed, in words, with the camera's address shown without its user or password
  /// (`CameraAddress.redacted(_:)`).
  ///
  /// A camera that went away is described by what happened, read from what ffmpeg said:
  /// the stream ended, the connection was refused or reset, the user or password was
  /// refused, the host cannot be reached, the address has no stream. ffmpeg's own lines are
  /// quoted only when they say something no case here covers.
  public var description: String {
    CameraAddress.redacted(text)
  }

  private var text: String {
    switch self {
    case .notInstalled(let executable):
      return "\(executable) is not installed (sudo apt-get install ffmpeg)"
    case .ended(let input, let exit, let lines):
      if let problem = StreamProblem(lines, input: input) { return problem.sentence(input) }
      let how = exit == "exit status 0" || exit == "closed" ? "" : " (ffmpeg: \(exit))"
      return "the camera at \(input) stopped sending\(how)"
    case .stalled(let input, let seconds, let lines):
      if let problem = StreamProblem(lines, input: input) { return problem.sentence(input) }
      return "no frame from \(input) for \(seconds) s; check the camera or the network"
    case .partialFrame(let input, let bytes, let expected):
      return "the stream from \(input) ended inside a frame (\(bytes) of \(expected) bytes): "
        + "its frames are not the size ffmpeg announced"
    case .noVideo(let input, let lines):
      if let problem = StreamProblem(lines, input: input) { return problem.sentence(input) }
      return "ffmpeg found no video in \(input)\(Self.quote(lines))"
    case .system(let error):
      return "the ffmpeg camera failed: \(error)"
    }
  }

  /// What ffmpeg's lines say went wrong with a network camera, when they say it; `nil` when
  /// they name no such cause (the input's format may then be at fault).
  public var streamProblem: StreamProblem? {
    switch self {
    case .ended(let input, _, let lines), .stalled(let input, _, let lines),
      .noVideo(let input, let lines):
      StreamProblem(lines, input: input)
    case .notInstalled, .partialFrame, .system: nil
    }
  }

  private static func quote(_ lines: [String]) -> String {
    let said = lines.filter { !StreamProblem.isProgress($0) }
    return said.isEmpty ? "" : ": " + said.suffix(3).joined(separator: " / ")
  }
}

/// Why a network camera's stream could not be read, as ffmpeg reported it.
public enum StreamProblem: Hashable, Sendable {
  /// The camera refused the user or password (HTTP or RTSP 401).
  case authentication
  /// Nothing listens at that address and port.
  case refused
  /// The connection was reset or broken while streaming.
  case reset
  /// The host cannot be reached or its name not resolved.
  case unreachable
  /// The camera has no stream at that path (404).
  case notFound
  /// The camera stopped answering: the connection timed out.
  case timedOut

  /// Reads ffmpeg's lines about a network input (a URL with a host) for a known cause; `nil`
  /// when none is there or the input is a device, a file or a test source.
  public init?(_ lines: [String], input: String) {
    guard CameraAddress.host(of: input) != nil else { return nil }
    let text = lines.joined(separator: "\n").lowercased()
    let causes: [(StreamProblem, [String])] = [
      (.authentication, ["401 unauthorized", "401 unauthorised", "failed: 401", "status 401"]),
      (.notFound, ["404 not found", "failed: 404", "status 404"]),
      (.refused, ["connection refused"]),
      (.reset, ["connection reset", "broken pipe", "end of file"]),
      (
        .unreachable,
        [
          "no route to host", "network is unreachable", "name or service not known",
          "failed to resolve", "temporary failure in name resolution",
        ]
      ),
      (.timedOut, ["connection timed out", "operation timed out"]),
    ]
    guard let found = causes.first(where: { $0.1.contains { text.contains($0) } }) else {
      return nil
    }
    self = found.0
  }

  /// Whether a line is one of ffmpeg's progress reports (`frame=  59 fps= 23 …`, `encoder :`),
  /// which say nothing about a failure.
  static func isProgress(_ line: String) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("frame=") || trimmed.hasPrefix("encoder ")
      || trimmed.contains("muxing overhead") || trimmed.hasPrefix("video:")
  }

  /// The sentence for a camera at `input`.
  func sentence(_ input: String) -> String {
    switch self {
    case .authentication:
      "the camera at \(input) refused the user or password (401): check them in the address"
    case .notFound: "the camera at \(input) has no stream at that path (404): check the path"
    case .refused:
      "the camera at \(input) refused the connection: is it on, and is the port right?"
    case .reset: "the camera at \(input) stopped sending: the connection was closed"
    case .unreachable: "the camera at \(input) cannot be reached: check its address and the network"
    case .timedOut: "the camera at \(input) stopped answering (the connection timed out)"
    }
  }
}
