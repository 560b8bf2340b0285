import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGStreamer
import PhotoTimerImaging
import PhotoTimerLocation

/// The values options take: a camera, a look, a webcam's mode, each parsed from its text and
/// written back as the text that names it.
extension CommandOptions {
  /// `--resolution`'s value: `max` is the largest mode, `WxH` that size; `nil` for anything
  /// else.
  package static func resolution(_ text: String) -> ModeRequest? {
    if text.lowercased() == "max" { return .largest }
    return FrameSize(text).map { .size($0) }
  }

  /// The text `--resolution` takes for `request` (`nil` for the best mode, the default).
  package static func resolutionArgument(_ request: ModeRequest) -> String? {
    switch request {
    case .best: nil
    case .largest: "max"
    case .size(let size): "\(size.width)x\(size.height)"
    }
  }

  /// The camera `--camera TEXT` names.
  package static func camera(_ text: String) throws(UsageError) -> CameraChoice {
    if text == "auto" { return .auto }
    if text == "scene" { return .scene(.daylight) }
    if text.hasPrefix("ffmpeg:") {
      let input = String(text.dropFirst("ffmpeg:".count))
      guard !input.isEmpty else {
        throw UsageError(problems: [
          "--camera ffmpeg: needs an input, for example ffmpeg:/dev/video0 or ffmpeg:rtsp://camera/stream"
        ])
      }
      return .ffmpeg(input, format: input.hasPrefix("/dev/video") ? "v4l2" : nil)
    }
    if text.hasPrefix("scene:") {
      let name = String(text.dropFirst("scene:".count))
      guard let preset = ScenePreset.named(name) else {
        let names = ScenePreset.all.map(\.name).joined(separator: ", ")
        throw UsageError(problems: ["no scene preset '\(name)'; choose one of \(names)"])
      }
      return .scene(preset)
    }
    if text.hasPrefix("file:") {
      let path = String(text.dropFirst("file:".count))
      guard !path.isEmpty else {
        throw UsageError(problems: ["--camera file: needs a path, for example file:photo.jpg"])
      }
      return .file(path)
    }
    if text == "gphoto2" { return .gphoto2 }
    if text.hasPrefix("v4l2:") {
      let path = String(text.dropFirst("v4l2:".count))
      guard !path.isEmpty else {
        throw UsageError(problems: ["--camera v4l2: needs a device, for example v4l2:/dev/video0"])
      }
      return .v4l2(path)
    }
    if text == "pipewire" { return .pipewire(nil) }
    if text.hasPrefix("pipewire:") {
      let node = String(text.dropFirst("pipewire:".count))
      return .pipewire(node.isEmpty ? nil : node)
    }
    throw UsageError(problems: [
      "unknown camera '\(text)'; use auto, v4l2:DEVICE, pipewire[:NODE], scene[:PRESET],"
        + " file:PATH, ffmpeg:INPUT or gphoto2"
    ])
  }

  /// `auto`: the first V4L2 node that captures video (a UVC camera's metadata node is
  /// skipped), through GStreamer; else the scene camera.
  package static func autoCamera(
    devices: [VideoDevice] = VideoDevice.connected(),
    capturesVideo: (String) -> Bool = { (try? V4L2Device.inspect($0))?.capturesVideo == true }
  ) -> CameraChoice {
    guard let first = devices.first(where: { capturesVideo($0.path) }) else {
      return .scene(.daylight)
    }
    return .v4l2(first.path)
  }

  /// The look `--filter TEXT` names.
  package static func filter(_ text: String) throws(UsageError) -> FilterChoice {
    switch text.lowercased() {
    case "auto": return .auto
    case "none": return .none
    default:
      let looks = PhotoFilter.all
      guard let look = looks.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
        throw UsageError(problems: [
          "no look '\(text)'; choose one of "
            + looks.map { $0.rawValue.lowercased() }.joined(separator: ", ") + ", auto or none"
        ])
      }
      return .fixed(look)
    }
  }
}

extension CommandOptions.CameraChoice {
  /// The `--camera` text that names this camera (the format of an ffmpeg input apart), or
  /// `nil` for the simulation.
  package var argument: String? {
    switch self {
    case .simulated: nil
    case .scene(let preset): "scene:\(preset.name)"
    case .file(let path): "file:\(path)"
    case .ffmpeg(let input, _): "ffmpeg:\(input)"
    case .v4l2(let path): "v4l2:\(path)"
    case .pipewire(let node): node.map { "pipewire:\($0)" } ?? "pipewire"
    case .gphoto2: "gphoto2"
    case .auto: "auto"
    }
  }

  /// Whether the camera faces the user like a mirror: a webcam (V4L2), whose preview is
  /// mirrored unless asked otherwise.
  package var isWebcam: Bool {
    if case .v4l2 = self { return true }
    if case .pipewire = self { return true }
    if case .ffmpeg(let input, let format) = self {
      return format == "v4l2" || input.hasPrefix("/dev/video")
    }
    return false
  }
}

extension FilterChoice {
  /// The `--filter` text that names this choice.
  package var argument: String {
    switch self {
    case .auto: "auto"
    case .none: "none"
    case .fixed(let look): look.rawValue.lowercased()
    }
  }
}

extension CommandOptions.LocationChoice {
  /// Whether the location comes from gpsd.
  var isGPSD: Bool {
    if case .gpsd = self { return true }
    return false
  }
}
