import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGPhoto2
import PhotoTimerGStreamer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerPOSIX

/// `phototimer doctor`: what phototimer can use, and for each problem its fix in one line.
struct Doctor {
  let options: CommandOptions.RunOptions

  enum Mark: String {
    case ok = "✓"
    case warning = "!"
    case problem = "✗"
  }

  /// Prints the report and returns the exit status: 1 when a photo could not be taken.
  func report() async -> Int32 {
    var problems = 0
    func line(_ mark: Mark, _ subject: String, _ text: String) {
      if mark == .problem { problems += 1 }
      let padded = subject.padding(toLength: 14, withPad: " ", startingAt: 0)
      StandardStream.output.write("\(mark.rawValue) \(padded) \(text)\n")
    }
    StandardStream.output.write("phototimer \(PhotoTimerVersion.current) doctor\n\n")

    // Cameras.
    let devices = VideoDevice.connected()
    if devices.isEmpty {
      line(
        .warning, "video devices",
        "none in /sys/class/video4linux: plug in a webcam; the scene camera is used meanwhile")
    } else {
      for device in devices { webcam(device.path, line: line) }
    }
    await pipeWireCameras(line: line)
    let ffmpeg = which("ffmpeg")
    line(
      ffmpeg == nil ? .warning : .ok, "ffmpeg",
      ffmpeg.map { "found at \($0)" }
        ?? "not installed: sudo apt-get install ffmpeg (for webcams and IP cameras)")
    do {
      let gphoto2 = GPhoto2Camera(
        executable: ProgramSetup.gphoto2.executable,
        launcher: ProgramSetup.gphoto2.launcher, store: nil,
        clock: ContinuousClock())
      let cameras = try await gphoto2.detect()
      line(
        cameras.isEmpty ? .warning : .ok, "gphoto2",
        cameras.isEmpty
          ? "no camera detected: connect it by USB, switch it on and set it to PTP/PC mode"
          : "camera: \(cameras.map(\.description).joined(separator: ", "))")
      if !cameras.isEmpty {
        do {
          let probe = try await gphoto2.probeLiveView()
          let margin =
            probe.margin.map { "\($0.wholeMilliseconds) ms" }
            ?? "an unknown time"
          line(
            .ok, "live view",
            "\(probe.width)×\(probe.height) (gphoto2 --capture-movie); stopped \(margin) before "
              + "the shutter so the camera is free at zero")
        } catch {
          line(.warning, "live view", "none: \(error); the preview is the count only")
        }
      }
    } catch GPhoto2Error.notInstalled {
      line(.warning, "gphoto2", "not installed: sudo apt-get install gphoto2 (for DSLRs)")
    } catch {
      line(.warning, "gphoto2", "\(error)")
    }
    line(
      .ok, "scene camera", "built in: --camera scene[:daylight|overcast|golden-hour|indoor|night]")

    // Location.
    switch options.location {
    case .off, .simulated:
      line(.ok, "location", "off")
    case .manual(let location):
      line(.ok, "location", "fixed at \(location.coordinate)")
    case .gpsd(let endpoint):
      let source = GPSDLocationSource(endpoint: endpoint, clock: ContinuousClock())
      do {
        let tag = try await source.locate(within: .seconds(3))
        line(.ok, "gpsd", "\(endpoint): fix at \(tag.name)")
      } catch let error as GPSDError {
        line(.warning, "gpsd", "\(CommandAdvice.advise(error))")
      } catch {
        line(.warning, "gpsd", "\(endpoint) is running but gave no fix in 3 s: \(error)")
      }
    }

    // Output folder.
    let store = ProgramSetup.store(options)
    do {
      try store.checkFolder()
      line(.ok, "output folder", "\(store.folder.path) (writable)")
    } catch {
      line(.problem, "output folder", "\(CommandAdvice.advise(error))")
    }

    // System libraries.
    for check in SystemLibraries.check() {
      line(
        check.works ? .ok : .problem, check.name,
        check.works
          ? check.detail
          : "\(check.detail): sudo apt-get install libturbojpeg0 libexif12 libpng16-16")
    }
    StandardStream.output.write(
      problems == 0
        ? "\nready to take photos\n" : "\n\(problems) problem(s): fix the lines marked ✗\n")
    return problems == 0 ? ExitCode.success.rawValue : ExitCode.failure.rawValue
  }

  /// The full path of `tool` on PATH, if it is there.
  /// One V4L2 node: its name and every mode, the one a run streams in marked; a node that
  /// captures no video (a UVC camera's metadata node) is named as such and skipped by `auto`.
  private func webcam(_ path: String, line: (Mark, String, String) -> Void) {
    let device: V4L2Device
    do throws(V4L2Error) {
      device = try V4L2Device.inspect(path)
    } catch {
      line(.warning, "video device", "\(path): \(error)")
      return
    }
    guard device.capturesVideo else {
      line(.ok, "video device", "\(device.description): no video capture (metadata); skipped")
      return
    }
    let chosen = try? options.resolution.choose(from: device.modes)
    let maker = device.usb.flatMap { [$0.maker, $0.product].compactMap { $0 } }
    let named = maker.map { $0.isEmpty ? "" : " · " + $0.joined(separator: " ") } ?? ""
    line(
      chosen == nil ? .problem : .ok, "webcam",
      "\(device.description)\(named): uses \(chosen?.description ?? "no mode (\(options.resolution) not offered)")"
    )
    // NB: formats that give the same sizes at the same rates share a line (vivid has 17).
    var groups: [(formats: [PixelFormat], modes: [CameraMode])] = []
    for format in device.modes.map(\.format)
    where !groups.contains(where: { $0.formats.contains(format) }) {
      let modes = device.modes.filter { $0.format == format }
      let shape = modes.map { [$0.size.description] + $0.rates.map(\.description) }
      if let index = groups.firstIndex(where: {
        $0.modes.map { [$0.size.description] + $0.rates.map(\.description) } == shape
      }) {
        groups[index].formats.append(format)
      } else {
        groups.append(([format], modes))
      }
    }
    for group in groups {
      let used = chosen.map { group.formats.contains($0.format) } ?? false
      let names = group.formats.map(\.description)
      let formats =
        names.count > 4
        ? names.prefix(4).joined(separator: ", ") + " and \(names.count - 4) more"
        : names.joined(separator: ", ")
      StandardStream.output.write("                 \(used ? "▸" : " ") \(formats):\n")
      for mode in group.modes {
        let mark = used && chosen?.size == mode.size ? "▸" : " "
        let rates = mode.rates.map { $0.description.replacingOccurrences(of: " fps", with: "") }
        StandardStream.output.write(
          "                     \(mark) \(mode.size) at \(rates.joined(separator: ", ")) fps\n")
      }
    }
    if !device.unreadFormats.isEmpty {
      let codes = device.unreadFormats.map(\.fourCC)
      StandardStream.output.write(
        "                   (\(codes.count) more formats not read: \(codes.prefix(6).joined(separator: ", "))\(codes.count > 6 ? "…" : ""))\n"
      )
    }
  }

  /// The PipeWire cameras the device monitor lists, each with the mode a run would take.
  private func pipeWireCameras(line: (Mark, String, String) -> Void) async {
    let cameras: [PipeWireCameras.Camera]
    do {
      cameras = try await PipeWireCameras.list()
    } catch {
      line(.warning, "PipeWire", "\(error)")
      return
    }
    guard !cameras.isEmpty else {
      line(
        .warning, "PipeWire",
        "no camera node (or PipeWire not running): --camera pipewire is unavailable until one is")
      return
    }
    for camera in cameras {
      let mode = (try? options.resolution.choose(from: camera.modes))?.description ?? "its own mode"
      line(.ok, "PipeWire", "pipewire:\(camera.node) (\(camera.name)): uses \(mode)")
    }
  }

  private func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(tool)"
      if FileSystem.isExecutable(candidate) { return candidate }
    }
    return nil
  }
}
