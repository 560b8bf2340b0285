import CGStreamer
import Foundation
import PhotoTimerImaging

/// The PipeWire cameras GStreamer's device monitor lists (the provider GNOME Snapshot uses):
/// each node's name, its description and the modes its caps offer.
///
/// ```swift
/// for camera in PipeWireCameras.list() { print(camera.node, camera.name) }
/// ```
package enum PipeWireCameras {
  /// One PipeWire camera node.
  package struct Camera: Hashable, Sendable {
    /// The node's name, for `--camera pipewire:NODE`.
    package var node: String
    /// What the device monitor calls it, such as `"Integrated Camera (V4L2)"`.
    package var name: String
    /// The modes its caps list (raw formats this program reads, and MJPEG).
    package var modes: [CameraMode]
  }

  /// The cameras PipeWire offers now; empty when PipeWire is not running.
  package static func list() -> [Camera] {
    GStreamerLibrary.initialise()
    guard let monitor = gst_device_monitor_new() else { return [] }
    defer { gst_object_unref(monitor) }
    _ = gst_device_monitor_add_filter(monitor, "Video/Source", nil)
    guard gst_device_monitor_start(monitor) != 0 else { return [] }
    defer { gst_device_monitor_stop(monitor) }
    var cameras: [Camera] = []
    var list = gst_device_monitor_get_devices(monitor)
    let head = list
    defer { g_list_free_full(head) { gst_object_unref($0) } }
    while let item = list {
      list = item.pointee.next
      guard let raw = item.pointee.data else { continue }
      let device = raw.assumingMemoryBound(to: GstDevice.self)
      guard let properties = gst_device_get_properties(device) else { continue }
      defer { gst_structure_free(properties) }
      // NB: PipeWire's devices carry their node's name; the V4L2 provider's (the same webcams
      // seen directly) say `device.api = v4l2` and are listed by `doctor` as webcams.
      let api = gst_structure_get_string(properties, "device.api").map { String(cString: $0) }
      guard api != "v4l2", api != "libcamera",
        let node = gst_structure_get_string(properties, "node.name")
      else { continue }
      let name = gst_device_get_display_name(device).map { text -> String in
        defer { g_free(text) }
        return String(cString: text)
      }
      var modes: [CameraMode] = []
      if let caps = gst_device_get_caps(device) {
        modes = Self.modes(caps)
        gst_caps_unref(caps)
      }
      cameras.append(Camera(node: String(cString: node), name: name ?? "camera", modes: modes))
    }
    return cameras
  }

  /// The modes in caps: each structure's format, size and rate (ranges give their ends).
  static func modes(_ caps: UnsafeMutablePointer<GstCaps>) -> [CameraMode] {
    var modes: [CameraMode] = []
    for index in 0..<gst_caps_get_size(caps) {
      guard let structure = gst_caps_get_structure(caps, index) else { continue }
      let media = String(cString: gst_structure_get_name(structure))
      let format: PixelFormat?
      if media == "image/jpeg" {
        format = .mjpeg
      } else if media == "video/x-raw", let name = gst_structure_get_string(structure, "format") {
        format = GStreamerFormat.pixelFormat(gstreamerName: String(cString: name))
      } else {
        format = nil
      }
      var width: Int32 = 0
      var height: Int32 = 0
      var frames: Int32 = 0
      var seconds: Int32 = 0
      guard let format, gst_structure_get_int(structure, "width", &width) != 0,
        gst_structure_get_int(structure, "height", &height) != 0
      else { continue }
      var rates: [FrameRate] = []
      if gst_structure_get_fraction(structure, "framerate", &frames, &seconds) != 0, frames > 0 {
        rates.append(FrameRate(frames: Int(frames), per: Int(seconds)))
      }
      modes.append(
        CameraMode(
          format: format, size: FrameSize(width: Int(width), height: Int(height)), rates: rates))
    }
    return modes
  }
}
