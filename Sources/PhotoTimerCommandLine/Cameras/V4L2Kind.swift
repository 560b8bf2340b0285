import PhotoTimer
import PhotoTimerImaging

/// V4L2 webcams, read in-process through GStreamer: `v4l2:/dev/video0`.
package struct V4L2Kind: CameraKind {
  package init() {}

  package var scheme: String { "v4l2" }
  package var usage: String? { "v4l2:/dev/videoN" }
  package var summary: String {
    "a webcam or capture card (Video4Linux2), read in-process through GStreamer at its best mode: the largest size at 24 fps or more (--resolution picks another)"
  }
  package var automatic: Bool { true }

  package func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
    .v4l2(try required(argument, "a device", examples: "v4l2:/dev/video0"))
  }
}

extension CameraChoice {
  /// A V4L2 webcam through GStreamer.
  package static func v4l2(_ path: String) -> Self {
    CameraChoice(kind: V4L2Kind(), argument: path)
  }
}
