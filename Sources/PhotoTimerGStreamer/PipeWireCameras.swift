import CGStreamer
import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX

/// The PipeWire cameras GStreamer's device monitor lists (the provider GNOME Snapshot uses):
/// each node's name, its description and the modes its caps offer.
///
/// NB: the monitor runs as `gst-device-monitor-1.0`, a process of its own: in this process,
/// PipeWire 0.3.65's device provider keeps a thread after the monitor stops, and that thread
/// aborts the whole process when a PipeWire daemon later goes away (seen in the tests: a
/// listing, then a daemon stopped under a running camera).
///
/// ```swift
/// for camera in try await PipeWireCameras.list() { print(camera.node, camera.name) }
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
  ///
  /// - Parameter monitor: The device monitor program.
  /// - Throws: ``GStreamerError/missingElement(_:package:)`` when the monitor is not installed.
  package static func list(monitor: String = "gst-device-monitor-1.0") async throws -> [Camera] {
    let output: String
    do {
      output = try await ChildProcess.run([monitor, "Video/Source"]).output
    } catch let error as SystemCallError where error.errno == .noSuchFile {
      throw GStreamerError.missingElement(monitor, package: "gstreamer1.0-plugins-base-apps")
    }
    return parse(output)
  }

  /// The PipeWire cameras in the monitor's report: each "Device found:" block's name, caps and
  /// properties; devices of the V4L2 provider (the same webcams, seen directly: `device.api =
  /// v4l2`) and blocks without a node name are left out.
  package static func parse(_ report: String) -> [Camera] {
    var cameras: [Camera] = []
    for block in report.components(separatedBy: "Device found:").dropFirst() {
      var name = "camera"
      var caps: [String] = []
      var properties: [String: String] = [:]
      var section = ""
      for raw in block.split(separator: "\n", omittingEmptySubsequences: true) {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if let colon = line.firstIndex(of: ":"), !line.contains(" = ") {
          let key = line[..<colon].trimmingCharacters(in: .whitespaces)
          let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          if ["name", "class", "caps", "properties"].contains(key) {
            section = key
            if key == "name" { name = value }
            if key == "caps", !value.isEmpty { caps.append(value) }
            continue
          }
        }
        switch section {
        case "caps" where !line.hasPrefix("gst-launch"): caps.append(line)
        case "properties":
          let parts = line.components(separatedBy: " = ")
          if parts.count >= 2 {
            properties[parts[0]] = parts.dropFirst().joined(separator: " = ")
          }
        default: break
        }
      }
      guard let node = properties["node.name"], !node.isEmpty,
        properties["device.api"] != "v4l2", properties["device.api"] != "libcamera"
      else { continue }
      cameras.append(Camera(node: node, name: name, modes: caps.flatMap(modes(caps:))))
    }
    return cameras
  }

  /// The modes in one caps text (`video/x-raw, format=YUY2, width=640, …`), parsed by GStreamer.
  static func modes(caps text: String) -> [CameraMode] {
    GStreamerLibrary.initialise()
    guard let caps = gst_caps_from_string(text) else { return [] }
    defer { gst_caps_unref(caps) }
    return modes(caps)
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
      // NB: bounded as V4L2's sizes are: caps text can say anything (the fuzzer's first find
      // was a width of -280).
      guard let format, gst_structure_get_int(structure, "width", &width) != 0,
        gst_structure_get_int(structure, "height", &height) != 0,
        (1...65_535).contains(width), (1...65_535).contains(height)
      else { continue }
      var rates: [FrameRate] = []
      if gst_structure_get_fraction(structure, "framerate", &frames, &seconds) != 0, frames > 0,
        seconds > 0
      {
        rates.append(FrameRate(frames: Int(frames), per: Int(seconds)))
      }
      modes.append(
        CameraMode(
          format: format, size: FrameSize(width: Int(width), height: Int(height)), rates: rates))
    }
    return modes
  }
}
