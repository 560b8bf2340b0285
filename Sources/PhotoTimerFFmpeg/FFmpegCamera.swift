import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX

/// A camera read through `ffmpeg`: V4L2 webcams (`-f v4l2 -i /dev/video0`), IP cameras
/// (`rtsp://…`, `http://…mjpeg`) and ffmpeg's `lavfi` test sources.
///
/// ffmpeg runs as a child process with an argument array (never a shell) and writes raw RGB
/// frames to a pipe; a thread of its own reads them (never a cooperative-pool thread) into a
/// ring buffer of about the last second, each stamped with the time it arrived. At the shutter
/// the frame nearest that instant is kept: no shutter lag. Closing the session sends SIGTERM,
/// then SIGKILL after 200 ms, and reaps ffmpeg.
///
/// ```swift
/// let camera = FFmpegCamera(input: "testsrc2=size=640x480:rate=30", format: "lavfi",
///                           clock: ContinuousClock())
/// ```
public struct FFmpegCamera<C: Clock>: CameraSource where C.Duration == Duration {
  /// What ffmpeg reads: a device, a URL, a file or a lavfi graph.
  public var input: String
  /// Where ffmpeg's own lines go as it says them (its banner, its progress, its errors), each
  /// with the camera's address shown without user or password; `nil` keeps them (the last
  /// ones are read for the words of an error, never quoted whole).
  public var log: (@Sendable (String) -> Void)?
  /// ffmpeg's input format (`-f`), such as `v4l2` or `lavfi`; `nil` lets ffmpeg guess.
  public var format: String?
  /// The ffmpeg program.
  public var executable: String
  /// A command put before the program, such as `["nice", "-n", "5"]`, or `["/bin/sh"]` to
  /// run a script; empty by default.
  public var launcher: [String]
  /// The longest wait for the first frame (opening a network camera can take a while).
  ///
  /// This and ``stallTimeout`` count only time ffmpeg could have run: time it waited for a
  /// processor (a machine with more work than processors) is not held against the camera.
  public var firstFrameTimeout: Duration
  /// The longest gap between frames before the stream counts as stalled.
  public var stallTimeout: Duration
  /// The clock frames are stamped on.
  public var clock: C

  /// Creates the camera.
  ///
  /// - Parameters:
  ///   - input: What ffmpeg reads.
  ///   - format: ffmpeg's input format, or `nil`.
  ///   - executable: The ffmpeg program (default `ffmpeg` on PATH).
  ///   - launcher: A command put before the program (default none).
  ///   - firstFrameTimeout: The longest wait for the first frame (default 10 s).
  ///   - stallTimeout: The longest gap between frames (default 2 s).
  ///   - clock: The clock frames are stamped on.
  public init(
    input: String, format: String? = nil, executable: String = "ffmpeg", launcher: [String] = [],
    firstFrameTimeout: Duration = .seconds(10), stallTimeout: Duration = .seconds(2), clock: C
  ) {
    self.input = input
    self.format = format
    self.executable = executable
    self.launcher = launcher
    self.firstFrameTimeout = firstFrameTimeout
    self.stallTimeout = stallTimeout
    self.clock = clock
  }

  /// Empty for an IP camera (its maker is not known; see ``model``); `"ffmpeg"` for a
  /// device, a file or a test source.
  public var make: String { CameraAddress.host(of: input) == nil ? "ffmpeg" : "" }
  /// `"IP camera (10.0.0.5)"` for a network address (never its user or password), the input
  /// otherwise, e.g. `"/dev/video0"`. An RTSP camera that names its session names the photo
  /// (its session's `reportedName()`).
  public var model: String {
    CameraAddress.host(of: input).map { "IP camera (\($0))" } ?? CameraAddress.redacted(input)
  }

  /// ffmpeg's arguments for this input.
  public var arguments: [String] {
    var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info"]
    // NB: test sources and files are read at their own frame rate, like a live camera.
    if format == "lavfi" || FileManager.default.fileExists(atPath: input) && format == nil {
      arguments.append("-re")
    }
    if let format { arguments += ["-f", format] }
    arguments += ["-i", input, "-an", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    return arguments
  }

  /// Starts ffmpeg.
  ///
  /// - Throws: ``FFmpegError/notInstalled(executable:)`` when there is no ffmpeg,
  ///   ``FFmpegError/system(_:)`` when it cannot be started.
  public func open() async throws -> any CameraSession {
    try openSession()
  }

  /// Opens the camera as its concrete session type (for tests and benchmarks).
  func openSession() throws(FFmpegError) -> FFmpegSession<C> {
    do throws(SystemCallError) {
      let (child, wake) = try ChildProcess.startWithWake(launcher + [executable] + arguments)
      return FFmpegSession(camera: self, child: child, wake: wake)
    } catch  where error.call == "posix_spawn" && error.errno == .noSuchFile {
      throw .notInstalled(executable: executable)
    } catch {
      throw .system(error)
    }
  }
}

/// What ffmpeg announces of its output stream on its error output:
/// "Stream #0:0: Video: rawvideo (RGB[24] / 0x18424752), rgb24(pc), 640x480 [SAR 1:1
/// DAR 4:3], q=2-31, 221184 kb/s, 30 fps, 30 tbn".
package struct FFmpegAnnouncement: Equatable, Sendable {
  /// The frame size, when the line gives a sane one (each side 1…65,535).
  package var size: (width: Int, height: Int)?
  /// The frame rate, when given (0 < rate ≤ 10,000).
  package var framesPerSecond: Double?

  /// Reads one line; `nil` when it is not the raw RGB output stream's announcement.
  package init?(_ line: String) {
    guard line.contains("Video: rawvideo"), line.contains("rgb24") else { return nil }
    for part in line.split(separator: ",") {
      let fields = part.trimmingCharacters(in: .whitespaces).split(separator: " ")
      if let first = fields.first, size == nil {
        let numbers = first.split(separator: "x").compactMap { Int($0) }
        // NB: bounded, so width × height × 3 cannot overflow or ask for terabytes.
        if numbers.count == 2, (1...65_535).contains(numbers[0]), (1...65_535).contains(numbers[1])
        {
          size = (numbers[0], numbers[1])
        }
      }
      if fields.count == 2, fields[1] == "fps", let rate = Double(fields[0]), rate > 0,
        rate <= 10_000
      {
        framesPerSecond = rate
      }
    }
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.size?.width == rhs.size?.width && lhs.size?.height == rhs.size?.height
      && lhs.framesPerSecond == rhs.framesPerSecond
  }
}
