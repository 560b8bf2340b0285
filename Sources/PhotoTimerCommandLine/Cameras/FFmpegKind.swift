import PhotoTimer
import PhotoTimerImaging

/// Anything ffmpeg opens, read from it as a child process: IP cameras (RTSP, HTTP MJPEG), a
/// webcam through ffmpeg, a test source: `ffmpeg:INPUT`, its format by `--ffmpeg-format`.
package struct FFmpegKind: CameraKind {
  package init() {}

  package var scheme: String { "ffmpeg" }
  package var usage: String? { "ffmpeg:INPUT" }
  package var summary: String {
    "anything ffmpeg opens: an IP camera (rtsp://, an HTTP MJPEG stream), a webcam through ffmpeg, a video file, a test source (with --ffmpeg-format lavfi); an address is shown and recorded without its user or password"
  }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    let input = try required(
      argument, "an input", examples: "ffmpeg:/dev/video0 or ffmpeg:rtsp://camera/stream")
    return .ffmpeg(input, format: input.hasPrefix("/dev/video") ? "v4l2" : nil)
  }
}

extension CameraChoice {
  /// A stream read through ffmpeg, with its input format.
  package static func ffmpeg(_ input: String, format: String?) -> Self {
    CameraChoice(kind: FFmpegKind(), argument: input, format: format)
  }
}
