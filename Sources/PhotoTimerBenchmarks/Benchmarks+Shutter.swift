import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerTerminal

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmarks {
  /// Shutter lag with the preview running (a consumer drawing to a terminal), and how long a
  /// photo takes (shutter → file written) first and right after a cancelled run.
  static func shutterWithPreview() async {
    let input = "testsrc2=size=640x480:rate=30"
    guard let terminal = DrainedTerminal() else { return }
    defer { terminal.close() }
    let camera = LiveCamera(FFmpegCamera(input: input, format: "lavfi", clock: clock))
    var lags: [Duration] = []
    var first: [Duration] = []
    var afterCancel: [Duration] = []
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-preview-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try await camera.start()
      let drawing = Task {
        var canvas = TerminalCanvas(row: 3, column: 2)
        for try await frame in camera.previews(fitting: terminalRoom) {
          terminal.write(canvas.draw(HalfBlockPicture(frame)).text)
        }
      }
      let session = try await camera.open()
      lags = try await shutterLags(session)
      let pipeline = CameraPipeline(
        source: camera, sink: PhotoStore(folder: folder), clock: clock, filter: .none)
      let service = pipeline.camera()
      for round in 0..<60 {
        // NB: a random phase against the frames: the capture waits up to half a frame.
        try await Task.sleep(for: .milliseconds(Int.random(in: 5...40)))
        let settings = try await service.prepare()
        let request = CaptureRequest(
          settings: settings, location: nil, filter: .natural, shutterOffset: .seconds(1))
        let start = clock.now
        _ = try await service.capture(request)
        let taken = start.duration(to: clock.now)
        await service.release()
        if round % 2 == 0 {
          first.append(taken)
          // A run cancelled mid-capture, then the next photo.
          let cancelled = Task {
            _ = try await service.prepare()
            _ = try await service.capture(request)
          }
          try await Task.sleep(for: .milliseconds(2))
          cancelled.cancel()
          _ = try? await cancelled.value
          await service.release()
        } else {
          afterCancel.append(taken)
        }
      }
      drawing.cancel()
      await camera.close()
      _ = try? await drawing.value
    } catch {
      print("shutter with preview: \(error)")
      await camera.close()
      return
    }
    let lag = Sample(lags)
    row(
      "shutter lag, preview running, median", ours: "\(fixed(lag.median.milliseconds, 1)) ms",
      baseline: "—", ratio: "—", target: "≤ 16.7 ms (½ frame)")
    row(
      "shutter lag, preview running, p95", ours: "\(fixed(lag.percentile(95).milliseconds, 1)) ms",
      baseline: "—", ratio: "—", target: "≤ 33 ms")
    let a = Sample(first)
    let b = Sample(afterCancel)
    row(
      "photo after a cancel (640×480), median", ours: "\(fixed(b.median.milliseconds, 1)) ms",
      baseline: "\(fixed(a.median.milliseconds, 1)) ms (not)",
      ratio: ratio(a.median.milliseconds, b.median.milliseconds), target: "≤ the other")
    row(
      "photo after a cancel, p95", ours: "\(fixed(b.percentile(95).milliseconds, 1)) ms",
      baseline: "\(fixed(a.percentile(95).milliseconds, 1)) ms (not)",
      ratio: ratio(a.percentile(95).milliseconds, b.percentile(95).milliseconds),
      target: "≤ the other")
    print(
      "  (shutter → photo saved, 30 photos each, taken alternately: after a run cancelled mid-capture, or not)"
    )
  }

  /// The scene camera at 1920×1080: shutter → the full-size frame nearest zero (the still
  /// rendered once settled, its moving parts redrawn at that instant), beside rendering the
  /// whole frame at zero.
  static func sceneShutter() async {
    let camera = LiveCamera(SceneCamera(preset: .daylight, width: 1920, height: 1080, clock: clock))
    var ours: [Duration] = []
    var whole: [Duration] = []
    do {
      try await camera.start()
      let session = try await camera.open()
      _ = try await ExposureSettler().settle(session, clock: clock)
      _ = try await session.capture()  // the still is ready from here on
      for _ in 0..<20 {
        try await Task.sleep(for: .milliseconds(Int.random(in: 20...60)))
        let start = clock.now
        _ = try await session.capture()
        ours.append(start.duration(to: clock.now))
      }
      await camera.close()
      for _ in 0..<5 {
        // A fresh session has no still yet: its first capture renders every pixel at zero.
        let fresh = try await SceneCamera(
          preset: .daylight, width: 1920, height: 1080, clock: clock
        ).open()
        let start = clock.now
        _ = try await fresh.capture()
        whole.append(start.duration(to: clock.now))
        await fresh.close()
      }
    } catch {
      print("scene shutter: \(error)")
      await camera.close()
      return
    }
    let o = Sample(ours)
    let w = Sample(whole)
    row(
      "scene camera 1920×1080, shutter → frame", ours: "\(fixed(o.median.milliseconds, 1)) ms",
      baseline: "\(fixed(w.median.milliseconds, 1)) ms (whole)",
      ratio: ratio(w.median.milliseconds, o.median.milliseconds), target: "≤ 33 ms")
    print(
      "  (p95 \(fixed(o.percentile(95).milliseconds, 1)) ms; the moving parts redrawn on every core at "
        + "the frame nearest zero; whole = every pixel rendered at zero)")
  }
}
