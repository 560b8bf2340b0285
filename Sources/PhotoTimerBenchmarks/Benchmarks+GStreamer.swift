import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerGStreamer
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerPOSIX

/// Local cameras through GStreamer: the preview's CPU on a 1280×720 MJPEG stream beside ffplay
/// showing it, the ring's memory beside the same frames raw, the shutter's lag by capture time,
/// and open → first frame / close beside a cold ffmpeg.
extension Benchmarks {
  static func gstreamer() async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-gst-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let hd = folder.appendingPathComponent("720p.avi").path
    let full = folder.appendingPathComponent("1080p.avi").path
    for (path, size, seconds) in [(hd, "1280x720", 14), (full, "1920x1080", 4)] {
      let made = try? await ChildProcess.run([
        "ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i",
        "testsrc2=size=\(size):rate=30", "-t", "\(seconds)", "-c:v", "mjpeg", "-q:v", "4", "-y",
        path,
      ])
      guard made?.exit == .status(0) else {
        print("gstreamer: ffmpeg could not make the MJPEG fixture")
        return
      }
    }
    await mjpegPreview(hd)
    await terminalView(hd)
    await ringMemory(full)
    await captureTimeLag()
    await openAndClose()
  }

  static func mjpegCamera(
    _ path: String, width: Int, height: Int
  )
    -> GStreamerCamera<ContinuousClock>
  {
    GStreamerCamera(
      device: .mjpegFile(path),
      mode: StreamMode(
        format: .mjpeg, size: FrameSize(width: width, height: height),
        rate: FrameRate(frames: 30)),
      make: "bench", model: "MJPEG file", clock: clock)
  }

  /// The terminal's live view (a 120×40 terminal's preview, drawn to a pseudo-terminal) on a
  /// 1280×720 MJPEG stream at 30 fps: through GStreamer (decoded at DCT scale in-process)
  /// beside the ffmpeg path on the same file (ffmpeg decodes every pixel and pipes RGB).
  static func terminalView(_ path: String) async {
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<3 {
      guard let gst = await previewRun(mjpegCamera(path, width: 1280, height: 720), frames: 240),
        let ffmpeg = await previewRun(
          FFmpegCamera(input: path, format: nil, clock: clock), frames: 240)
      else {
        print("gstreamer: the terminal view's run failed")
        return
      }
      ours.append(gst.cpu)
      theirs.append(ffmpeg.cpu + ffmpeg.ffmpegCPU)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    row(
      "gstreamer: terminal view CPU, 720p30", ours: "\(fixed(median(ours), 1)) %",
      baseline: "\(fixed(median(theirs), 1)) % (ffmpeg)",
      ratio: ratio(median(theirs), median(ours)), target: "< ffmpeg path")
    print(
      "  (3 runs of 240 frames in 120×40; GStreamer \(ours.map { fixed($0, 1) }) %, ffmpeg "
        + "\(theirs.map { fixed($0, 1) }) % of a core)")
  }

  /// The preview of a 1280×720 MJPEG stream at 30 fps, scaled for a 640×360 view, for 10 s:
  /// this process's CPU beside ffplay's showing the same file in a 640×360 window.
  static func mjpegPreview(_ path: String) async {
    var ours: [Double] = []
    var shown: [Double] = []
    for _ in 0..<3 {
      let camera = LiveCamera(mjpegCamera(path, width: 1280, height: 720))
      do { try await camera.start() } catch {
        print("gstreamer: the MJPEG stream did not start: \(error)")
        return
      }
      var frames = 0
      let counting = Task {
        var count = 0
        do {
          for try await _ in camera.previews(fitting: PreviewSize(width: 640, height: 360)) {
            count += 1
          }
        } catch {}
        return count
      }
      try? await Task.sleep(for: .seconds(1))
      let cpuStart = processCPU()
      let wallStart = clock.now
      let framesStart = camera.frameCount
      try? await Task.sleep(for: .seconds(10))
      let wall = wallStart.duration(to: clock.now).secondsValue
      ours.append((processCPU() - cpuStart) / wall)
      frames = camera.frameCount - framesStart
      shown.append(Double(frames) / wall)
      await camera.close()
      _ = await counting.value
    }
    var ffplay: [Double] = []
    if access("/usr/bin/Xvfb", X_OK) == 0, let server = try? await VirtualDisplay() {
      for _ in 0..<3 {
        guard
          let child = try? ChildProcess(command: [
            "env", "DISPLAY=\(server.name)", "ffplay", "-loglevel", "quiet", "-an", "-x", "640",
            "-y", "360", path,
          ])
        else { break }
        try? await Task.sleep(for: .seconds(1))
        let start = processCPU(child.pid)
        let wallStart = clock.now
        try? await Task.sleep(for: .seconds(10))
        let wall = wallStart.duration(to: clock.now).secondsValue
        if child.exit == nil { ffplay.append((processCPU(child.pid) - start) / wall) }
        _ = try? await child.stop()
        child.closePipes()
      }
      await server.stop()
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let baseline = ffplay.isEmpty ? 0 : median(ffplay)
    row(
      "gstreamer: preview CPU, 720p30 MJPEG", ours: "\(fixed(median(ours) * 100, 1)) %",
      baseline: "\(fixed(baseline * 100, 1)) % (ffplay)", ratio: ratio(baseline, median(ours)),
      target: "≤ 0.5× ffplay")
    print(
      "  (3 runs of 10 s; ours \(ours.map { fixed($0 * 100, 1) }) % at "
        + "\(shown.map { fixed($0, 1) }) fps, decoded at 1/2 scale for a 640×360 view; ffplay "
        + "\(ffplay.map { fixed($0 * 100, 1) }) % decoding every pixel into a 640×360 window)")
  }

  /// The ring after 2 s of a 1920×1080 MJPEG stream, beside the same frames raw (RGB).
  static func ringMemory(_ path: String) async {
    guard let opened = try? await mjpegCamera(path, width: 1920, height: 1080).open(),
      let session = opened as? GStreamerSession<ContinuousClock>
    else {
      print("gstreamer: the 1080p MJPEG stream did not start")
      return
    }
    try? await Task.sleep(for: .seconds(2))
    let statistics = session.statistics
    await session.close()
    let perFrame = Double(statistics.ringBytes) / Double(max(statistics.ringFrames, 1))
    let twoSeconds = perFrame * 60
    let raw = Double(1920 * 1080 * 3 * 60)
    row(
      "gstreamer: ring, 2 s of 1080p30 MJPEG", ours: "\(fixed(twoSeconds / 1_048_576, 1)) MiB",
      baseline: "\(fixed(raw / 1_048_576, 1)) MiB (raw)", ratio: ratio(raw, twoSeconds),
      target: "")
    print(
      "  (the ring keeps about 1 s: \(statistics.ringFrames) frames, "
        + "\(fixed(Double(statistics.ringBytes) / 1_048_576, 1)) MiB; 2 s is 60 frames of "
        + "\(fixed(perFrame / 1024, 0)) KiB each, beside 5.9 MiB a frame raw)")
  }

  /// 60 photos from a live 30 fps stream: the kept frame's capture time against the shutter's
  /// instant on the same clock (the pipeline's running time).
  static func captureTimeLag() async {
    let camera = GStreamerCamera(
      device: .testPattern("smpte"),
      mode: StreamMode(
        format: .yuyv, size: FrameSize(width: 640, height: 480), rate: FrameRate(frames: 30)),
      make: "bench", model: "test pattern", clock: clock)
    guard let opened = try? await camera.open(),
      let session = opened as? GStreamerSession<ContinuousClock>
    else {
      print("gstreamer: the test pattern did not start")
      return
    }
    var gaps: [Duration] = []
    for index in 0..<60 {
      try? await Task.sleep(for: .milliseconds(37 + index % 13))
      guard let shutter = session.runningTime, let frame = try? await session.capture() else {
        continue
      }
      gaps.append(frame.timestamp > shutter ? frame.timestamp - shutter : shutter - frame.timestamp)
    }
    await session.close()
    let sample = Sample(gaps)
    row(
      "gstreamer: shutter → kept frame, p50", ours: "\(fixed(sample.median.milliseconds, 2)) ms",
      baseline: "—", ratio: "—", target: "")
    row(
      "gstreamer: shutter → kept frame, p95",
      ours: "\(fixed(sample.percentile(95).milliseconds, 2)) ms", baseline: "—", ratio: "—",
      target: "≤ 16.7 ms (½ frame)")
  }

  /// Open → first frame and close → released, 10 times each, beside ffmpeg's cold start on
  /// the same 640×480 30 fps test source.
  static func openAndClose() async {
    var opens: [Duration] = []
    var closes: [Duration] = []
    var ffmpeg: [Duration] = []
    let camera = GStreamerCamera(
      device: .testPattern("smpte"),
      mode: StreamMode(
        format: .yuyv, size: FrameSize(width: 640, height: 480), rate: FrameRate(frames: 30)),
      make: "bench", model: "test pattern", clock: clock)
    for _ in 0..<10 {
      let start = clock.now
      guard let session = try? await camera.open() else { continue }
      opens.append(start.duration(to: clock.now))
      let closing = clock.now
      await session.close()
      closes.append(closing.duration(to: clock.now))
      let cold = clock.now
      let stream = FFmpegCamera(
        input: "testsrc2=size=640x480:rate=30", format: "lavfi", clock: clock)
      if let session = try? await stream.open(), (try? await session.nextFrame()) != nil {
        ffmpeg.append(cold.duration(to: clock.now))
        await session.close()
      }
    }
    let open = Sample(opens).median.milliseconds
    let cold = Sample(ffmpeg).median.milliseconds
    row(
      "gstreamer: open → first frame", ours: "\(fixed(open, 1)) ms",
      baseline: "\(fixed(cold, 1)) ms (ffmpeg)", ratio: ratio(cold, open), target: "")
    row(
      "gstreamer: close → released", ours: "\(fixed(Sample(closes).median.milliseconds, 2)) ms",
      baseline: "—", ratio: "—", target: "")
    print("  (10 each, live 640×480 30 fps test sources; a frame is 33.3 ms)")
  }
}
