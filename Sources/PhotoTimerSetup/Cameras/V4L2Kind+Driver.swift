import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGStreamer
import PhotoTimerImaging

extension V4L2Kind: CameraDriver {
  /// The nodes that capture video, in the kernel's order.
  package func discover() async -> [CameraChoice] { Self.webcams() }

  /// The nodes among `devices` that capture video (a UVC camera's metadata node does not), in
  /// the kernel's order: this machine's, or the tests' stand-ins.
  package static func webcams(
    devices: [VideoDevice] = VideoDevice.connected(),
    capturesVideo: (String) -> Bool = { (try? V4L2Device.inspect($0))?.capturesVideo == true }
  ) -> [CameraChoice] {
    devices.filter { capturesVideo($0.path) }.map { .v4l2($0.path) }
  }

  package func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?
  {
    do throws(GStreamerError) {
      return try GStreamerCamera.v4l2(
        choice.argument ?? "", request: options.resolution, clock: ContinuousClock())
    } catch {
      if case .mode = error { throw CameraOpenError.usage(error) }
      throw error
    }
  }

  package func mirrored(_ choice: CameraChoice) -> Bool { true }

  package func menuName(_ choice: CameraChoice) -> String { "Webcam \(choice.argument ?? "")" }

  package func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
    let camera = source as? GStreamerCamera<ContinuousClock>
    return CameraIdentity(
      kind: scheme, name: camera?.model ?? choice.argument ?? "",
      mode: camera?.mode?.description)
  }

  /// The webcam's modes as its driver lists them.
  package func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)] {
    guard let path = choice.argument, let device = try? V4L2Device.inspect(path) else {
      return []
    }
    return ModeRequest.menu(for: device.modes)
  }

  /// Each video node: its name and every mode, the one a run streams in marked; a node that
  /// captures no video (a UVC camera's metadata node) is named as such and skipped by `auto`.
  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] {
    let found = VideoDevice.connected()
    guard !found.isEmpty else {
      return [
        DoctorLine(
          .warning, "video devices",
          "none in /sys/class/video4linux: plug in a webcam; the scene camera is used meanwhile")
      ]
    }
    return found.map { webcam($0.path, options.resolution) }
  }

  private func webcam(_ path: String, _ request: ModeRequest) -> DoctorLine {
    let device: V4L2Device
    do throws(V4L2Error) {
      device = try V4L2Device.inspect(path)
    } catch {
      return DoctorLine(.warning, "video device", "\(path): \(error)")
    }
    guard device.capturesVideo else {
      return DoctorLine(
        .ok, "video device", "\(device.description): no video capture (metadata); skipped")
    }
    let chosen = try? request.choose(from: device.modes)
    let maker = device.usb.flatMap { [$0.maker, $0.product].compactMap { $0 } }
    let named = maker.map { $0.isEmpty ? "" : " · " + $0.joined(separator: " ") } ?? ""
    let uses = chosen?.description ?? "no mode (\(request) not offered)"
    return DoctorLine(
      chosen == nil ? .problem : .ok, "webcam", "\(device.description)\(named): uses \(uses)",
      details: modeLines(device, chosen: chosen) + [Self.controlsLine(path)])
  }

  /// Which controls a booth holds through a session, and a hold left by a process that ended.
  static func controlsLine(
    _ path: String, controls: V4L2Controls? = nil, folder: URL = V4L2Controls.defaultFolder()
  ) -> String {
    let names = (controls ?? V4L2Controls(path, folder: folder)).availableNow()
    var line =
      names.isEmpty
      ? "no exposure, gain, white balance or focus controls: a booth's shots expose each by"
        + " itself"
      : "controls: \(names.joined(separator: ", ")) (held through each booth session)"
    if let left = V4L2Controls.leftHeld(path, folder: folder) {
      line +=
        left.running
        ? "; held now by phototimer (pid \(left.pid))"
        : "; left held by phototimer (pid \(left.pid)), which ended: given back as the camera"
          + " opens next"
    }
    return "                   " + line
  }

  /// The modes, formats that give the same sizes at the same rates on one line (vivid has 17).
  private func modeLines(_ device: V4L2Device, chosen: StreamMode?) -> [String] {
    var groups: [(formats: [PixelFormat], modes: [CameraMode])] = []
    func shape(_ modes: [CameraMode]) -> [[String]] {
      modes.map { [$0.size.description] + $0.rates.map(\.description) }
    }
    for format in device.modes.map(\.format)
    where !groups.contains(where: { $0.formats.contains(format) }) {
      let modes = device.modes.filter { $0.format == format }
      if let index = groups.firstIndex(where: { shape($0.modes) == shape(modes) }) {
        groups[index].formats.append(format)
      } else {
        groups.append(([format], modes))
      }
    }
    var lines: [String] = []
    for group in groups {
      let used = chosen.map { group.formats.contains($0.format) } ?? false
      let names = group.formats.map(\.description)
      let formats =
        names.count > 4
        ? names.prefix(4).joined(separator: ", ") + " and \(names.count - 4) more"
        : names.joined(separator: ", ")
      lines.append("                 \(used ? "▸" : " ") \(formats):")
      for mode in group.modes {
        let mark = used && chosen?.size == mode.size ? "▸" : " "
        let rates = mode.rates.map { $0.description.replacingOccurrences(of: " fps", with: "") }
        lines.append(
          "                     \(mark) \(mode.size) at \(rates.joined(separator: ", ")) fps")
      }
    }
    if !device.unreadFormats.isEmpty {
      let codes = device.unreadFormats.map(\.fourCC)
      let more = codes.count > 6 ? "…" : ""
      lines.append(
        "                   (\(codes.count) more formats not read: "
          + "\(codes.prefix(6).joined(separator: ", "))\(more))")
    }
    return lines
  }
}
