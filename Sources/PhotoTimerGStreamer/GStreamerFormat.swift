import PhotoTimerImaging

/// A pixel format as GStreamer's caps name it: the formats this program reads.
struct GStreamerFormat: Hashable, Sendable {
  /// The media type: `video/x-raw` or `image/jpeg`.
  var mediaType: String
  /// The raw format's name (`YUY2`, `NV12`…); `nil` for JPEG.
  var name: String?

  /// V4L2 codes and their GStreamer names; formats not here (Bayer, HSV, 10-bit…) are not read.
  static let raw: [String: String] = [
    "YUYV": "YUY2", "UYVY": "UYVY", "YVYU": "YVYU", "VYUY": "VYUY", "NV12": "NV12",
    "NV21": "NV21", "NV16": "NV16", "NV61": "NV61", "YU12": "I420", "YV12": "YV12",
    "422P": "Y42B", "RGB3": "RGB", "BGR3": "BGR", "XR24": "BGRx", "AR24": "BGRA", "GREY": "GRAY8",
    "RGBP": "RGB16",
  ]

  init?(_ format: PixelFormat) {
    if format.isCompressed {
      mediaType = "image/jpeg"
      name = nil
    } else if let name = Self.raw[format.fourCC] {
      mediaType = "video/x-raw"
      self.name = name
    } else {
      return nil
    }
  }

  /// The V4L2 code of a GStreamer raw format name (for caps that PipeWire reports).
  static func pixelFormat(gstreamerName: String) -> PixelFormat? {
    raw.first { $0.value == gstreamerName }.map { PixelFormat(fourCC: $0.key) }
  }

  /// Caps that fix the mode: `video/x-raw,format=YUY2,width=1280,height=720,framerate=10/1`.
  /// Built from numbers and the names above only: nothing a user typed reaches the parser.
  static func caps(_ mode: StreamMode) -> String? {
    guard let format = GStreamerFormat(mode.format) else { return nil }
    var text = format.mediaType
    if let name = format.name { text += ",format=\(name)" }
    text += ",width=\(mode.size.width),height=\(mode.size.height)"
    text += ",framerate=\(mode.rate.frames)/\(mode.rate.seconds)"
    return text
  }
}
