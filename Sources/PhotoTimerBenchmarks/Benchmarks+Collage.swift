import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerText

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmarks {
  /// A booth session's four 1920 × 1080 shots from the scene camera (daylight, golden hour,
  /// indoor, overcast), or `nil` when it gave no picture.
  static func sceneShots() async -> [BoothCollage.Shot]? {
    var shots: [BoothCollage.Shot] = []
    for preset in [ScenePreset.daylight, .goldenHour, .indoor, .overcast] {
      let camera = SceneCamera(preset: preset, width: 1920, height: 1080, clock: clock)
      guard let session = try? await camera.open(), let frame = try? await session.capture()
      else { return nil }
      await session.close()
      shots.append(BoothCollage.Shot(frame: frame))
    }
    return shots
  }

  /// A booth's collage: four 1920 × 1080 shots cut to the strip's 3:2 slots, scaled into the
  /// 2 × 6 in strip at 600 dpi and drawn under an overlay with a hole per slot, beside
  /// ImageMagick's `convert` doing the same composition (the same crops, box filter, the same
  /// overlay). Ours is the composition alone, the shots already in memory as they come from
  /// the camera; ImageMagick's is its wall time reading the shots and the overlay and writing
  /// a PPM, less that of a 1 × 1 run (process start). `--collage FILE` also writes ours as a
  /// JPEG to look at.
  static func collage(writingTo output: String? = nil) async {
    guard let shots = await sceneShots() else {
      return print("collage: the scene camera gave no picture")
    }
    let layout = BoothLayout.strip
    let overlay = Self.overlay(for: layout)
    var ours: [Duration] = []
    var collage = Frame(width: 1, height: 1)
    for _ in 0..<7 {
      let start = clock.now
      collage = BoothCollage.compose(shots, in: layout, layers: [overlay]).canvas
      ours.append(start.duration(to: clock.now))
    }
    // NB: the picture to look at has the strip's text too (not timed: ImageMagick draws none).
    if output != nil,
      let text = BoothText.layer(
        layout.texts, width: layout.canvas.width, height: layout.canvas.height,
        values: ["event": "Ada & Grace", "date": "6 December 2026"])
    {
      collage = BoothCollage.compose(shots, in: layout, layers: [overlay, text]).canvas
    }
    if let output, let bytes = try? JPEGCodec.encode(collage, quality: 92) {
      _ = FileManager.default.createFile(atPath: output, contents: Data(bytes))
    }
    let theirs = imageMagickCollage(shots, layout: layout, overlay: overlay)
    let o = Sample(ours).median.milliseconds
    guard let t = theirs else {
      return row(
        "collage 4 × 1080p → strip 600 dpi", ours: "\(fixed(o, 1)) ms",
        baseline: "convert not found (make setup installs imagemagick)", ratio: "",
        target: "≤ 0.5× ImageMagick")
    }
    row(
      "collage 4 × 1080p → strip 600 dpi", ours: "\(fixed(o, 1)) ms",
      baseline: "\(fixed(t, 1)) ms (ImageMagick)", ratio: ratio(t, o),
      target: "≥ 2× (≤ 0.5× ImageMagick)")
  }

  /// A frame of dark grey at 70 % over the canvas with a clear hole a little inside each slot.
  static func overlay(for layout: BoothLayout) -> RGBAImage {
    let width = layout.canvas.width
    let height = layout.canvas.height
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let hole = layout.slots.contains {
          x >= $0.x + 20 && x < $0.x + $0.width - 20 && y >= $0.y + 20
            && y < $0.y + $0.height - 20
        }
        if !hole {
          let offset = (y * width + x) * 4
          pixels[offset] = 40
          pixels[offset + 1] = 40
          pixels[offset + 2] = 48
          pixels[offset + 3] = 180
        }
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels) ?? RGBAImage(width: 1, height: 1)
  }

  /// ImageMagick's median time for the same collage, process start taken off; `nil` without
  /// `convert`.
  private static func imageMagickCollage(
    _ shots: [BoothCollage.Shot], layout: BoothLayout, overlay: RGBAImage
  ) -> Double? {
    let convert = ["/usr/bin/convert-im6.q16", "/usr/bin/magick", "/usr/bin/convert"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let convert else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-collage-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var arguments = ["-size", "\(layout.canvas.width)x\(layout.canvas.height)", "xc:white"]
    for (index, (shot, slot)) in zip(shots, layout.slots).enumerated() {
      let path = folder.appendingPathComponent("shot\(index).ppm").path
      let frame = shot.frame.packed
      _ = FileManager.default.createFile(
        atPath: path,
        contents: Data("P6\n\(frame.width) \(frame.height)\n255\n".utf8) + Data(frame.pixels))
      let crop = ShotCrop.crop(
        width: frame.width, height: frame.height, aspect: slot.aspect, faces: shot.faces
      ).box
      arguments += [
        "(", path, "-crop",
        "\(Int(crop.width.rounded()))x\(Int(crop.height.rounded()))+\(Int(crop.x.rounded()))+\(Int(crop.y.rounded()))",
        "+repage", "-filter", "Box", "-resize", "\(slot.width)x\(slot.height)!", ")",
        "-geometry", "+\(slot.x)+\(slot.y)", "-composite",
      ]
    }
    let pam = folder.appendingPathComponent("overlay.pam").path
    _ = FileManager.default.createFile(
      atPath: pam,
      contents: Data(
        "P7\nWIDTH \(overlay.width)\nHEIGHT \(overlay.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
          .utf8) + Data(overlay.pixels))
    arguments += [pam, "-composite", folder.appendingPathComponent("collage.ppm").path]
    let tiny = ["-size", "1x1", "xc:white", folder.appendingPathComponent("tiny.ppm").path]
    var full: [Duration] = []
    var empty: [Duration] = []
    for _ in 0..<5 {
      guard let one = timed(convert, arguments), let start = timed(convert, tiny) else {
        return nil
      }
      full.append(one)
      empty.append(start)
    }
    return Sample(full).median.milliseconds - Sample(empty).median.milliseconds
  }

  private static func timed(_ executable: String, _ arguments: [String]) -> Duration? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let start = clock.now
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? start.duration(to: clock.now) : nil
  }

  /// A booth session's last shot to its collage, as the release `phototimer booth` does it:
  /// four 1920 × 1080 shots of the scene camera with the people step, no review, and the
  /// time from the last shot's `shutter` event (its zero) to the `collage` event (saved, on
  /// every screen), over five sessions.
  static func boothZeroToCollage() {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("phototimer")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      return print("booth figure: \(binary.path) not built (make bench builds it)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-booth-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let events = folder.appendingPathComponent("events.jsonl").path
    var gaps: [Duration] = []
    for _ in 0..<5 {
      let arguments = [
        "booth", "--json", "--shots", "4", "--review", "0", "--between", "0", "-s", "0",
        "--camera", "scene", "--size", "1920x1080", "--no-location", "-o", folder.path,
      ]
      guard spawnAndWait(binary.path, arguments, output: events) != nil else { continue }
      let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
      var lastShutter: Double?
      var collage: Double?
      for line in text.split(separator: "\n") {
        guard
          let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8)))
            as? [String: Any], let time = object["t"] as? Double
        else { continue }
        switch object["event"] as? String {
        case "shutter": lastShutter = time
        case "collage" where object["file"] != nil: collage = time
        default: break
        }
      }
      if let lastShutter, let collage {
        gaps.append(.nanoseconds(Int64((collage - lastShutter) * 1e9)))
      }
    }
    guard !gaps.isEmpty else { return print("booth figure: no session made its collage") }
    row(
      "booth: last zero → collage (4 × 1080p, \(gaps.count) runs)",
      ours: "\(fixed(Sample(gaps).median.milliseconds, 0)) ms", baseline: "", ratio: "",
      target: "≤ 1500 ms")
  }
}
