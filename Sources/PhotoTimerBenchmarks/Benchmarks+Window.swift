import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX

/// The desktop window's figures: `phototimer-gtk` (release, next to this benchmark) under an
/// Xvfb of the benchmark's own, with a 1280×720 30 fps lavfi source, beside `ffplay` showing
/// the same source at the size the window's preview has.
extension Benchmarks {
  /// One run of the window: its trace and its CPU.
  struct WindowRun {
    var latencies: [Duration] = []
    var framesPerSecond = 0.0
    var cpu = 0.0
    var ffmpegCPU = 0.0
    var ticks: [Duration] = []
    var startup: Duration = .zero
  }

  static let windowSource = "testsrc2=size=1280x720:rate=30"

  /// The release `phototimer-gtk` beside the benchmark and an Xvfb of `width` × `height`
  /// to run it on; `nil`, said under `part`'s name, when either is missing.
  static func windowBench(
    _ part: String, width: Int = 1280, height: Int = 800
  ) async -> (binary: String, server: VirtualDisplay)? {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = folder.appendingPathComponent("phototimer-gtk").path
    guard access(binary, X_OK) == 0, access("/usr/bin/Xvfb", X_OK) == 0,
      access("/usr/bin/xdotool", X_OK) == 0
    else {
      print("\(part): needs phototimer-gtk built beside the benchmark, Xvfb and xdotool")
      return nil
    }
    do {
      return (binary, try await VirtualDisplay(width: width, height: height))
    } catch {
      print("\(part): \(error)")
      return nil
    }
  }

  static func window() async {
    guard let (binary, server) = await windowBench("window") else { return }
    var runs: [WindowRun] = []
    var ffplay: [Double] = []
    for _ in 0..<3 {
      guard let run = await windowRun(binary, display: server.name) else { break }
      runs.append(run)
      if let cpu = await ffplayRun(display: server.name) { ffplay.append(cpu) }
    }
    // NB: the same size and rate from a PipeWire camera: the GStreamer path, in-process.
    let display = server.name
    // NB: a fresh camera per run: the fake node serves no one once a reader was stopped.
    var gstreamer: [WindowRun]? = []
    for _ in 0..<3 {
      do {
        let run = try await PipeWireCamera.with(
          node: "benchcam", width: 1280, height: 720, rate: 30
        ) { camera in
          await windowRun(
            binary, display: display, camera: ["--camera", "pipewire:\(camera.node)"],
            environment: camera.environment)
        }
        guard let run else { break }
        gstreamer?.append(run)
      } catch {
        print("window: the PipeWire camera did not start: \(error)")
        gstreamer = nil
        break
      }
    }
    await server.stop()
    guard runs.count == 3 else {
      print("window: the run failed")
      return
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let p50 = runs.map { Sample($0.latencies).median.milliseconds }
    let p95 = runs.map { Sample($0.latencies).percentile(95).milliseconds }
    row(
      "window: frame → texture to GTK, p50", ours: "\(fixed(median(p50), 2)) ms", baseline: "—",
      ratio: "—", target: "")
    row(
      "window: frame → texture to GTK, p95", ours: "\(fixed(median(p95), 2)) ms", baseline: "—",
      ratio: "—", target: "≤ 33.3 ms (a frame)")
    let fps = runs.map(\.framesPerSecond)
    row(
      "window: frames shown per second", ours: fixed(median(fps), 1),
      baseline: "30.0 (source)", ratio: "—", target: "the source's 30")
    let cpu = runs.map(\.cpu)
    let withFFmpeg = runs.map { $0.cpu + $0.ffmpegCPU }
    let ffplayCPU = ffplay.isEmpty ? 0 : median(ffplay)
    row(
      "window: CPU, phototimer-gtk", ours: "\(fixed(median(cpu) * 100, 1)) %",
      baseline: "\(fixed(ffplayCPU * 100, 1)) % (ffplay)", ratio: ratio(ffplayCPU, median(cpu)),
      target: "≤ 1.5× ffplay")
    row(
      "window: CPU with its ffmpeg", ours: "\(fixed(median(withFFmpeg) * 100, 1)) %",
      baseline: "\(fixed(ffplayCPU * 100, 1)) % (ffplay)",
      ratio: ratio(ffplayCPU, median(withFFmpeg)), target: "")
    if let gstreamer, gstreamer.count == 3 {
      let cpu = gstreamer.map(\.cpu)
      row(
        "window: CPU, PipeWire camera 720p30", ours: "\(fixed(median(cpu) * 100, 1)) %",
        baseline: "\(fixed(median(withFFmpeg) * 100, 1)) % (ffmpeg)",
        ratio: ratio(median(withFFmpeg), median(cpu)), target: "< ffmpeg path")
      print(
        "  (3 runs; GStreamer \(cpu.map { fixed($0 * 100, 1) }) %, fps "
          + "\(gstreamer.map { fixed($0.framesPerSecond, 1) }); the camera's own videotestsrc, "
          + "in PipeWire's node process, is not counted, as the lavfi source inside ffmpeg is)")
    } else {
      print("window: the PipeWire camera's runs failed (\(gstreamer?.count ?? 0) of 3)")
    }
    let ticks = runs.flatMap(\.ticks)
    row(
      "window: tick deadline → count label, p50",
      ours: "\(fixed(Sample(ticks).median.milliseconds, 2)) ms", baseline: "—", ratio: "—",
      target: "")
    row(
      "window: tick deadline → count label, p99",
      ours: "\(fixed(Sample(ticks).percentile(99).milliseconds, 2)) ms", baseline: "—",
      ratio: "—", target: "≤ 5 ms")
    let startup = runs.map { $0.startup.milliseconds }
    row(
      "window: program start → first frame", ours: "\(fixed(median(startup), 0)) ms",
      baseline: "—", ratio: "—", target: "")
    print(
      "  (3 runs under Xvfb, 15 s each during a 20 s count; p95 per run \(p95.map { fixed($0, 2) }) ms,"
        + " fps \(fps.map { fixed($0, 1) }), CPU \(cpu.map { fixed($0 * 100, 1) }) %, ffplay "
        + "\(ffplay.map { fixed($0 * 100, 1) }) %, \(ticks.count) ticks, start "
        + "\(startup.map { fixed($0, 0) }) ms; latency counts from before ffmpeg was started)")
  }

  static func windowRun(
    _ binary: String, display: String,
    camera: [String] = ["--camera", "ffmpeg:\(windowSource)", "--ffmpeg-format", "lavfi"],
    environment: [String] = []
  ) async -> WindowRun? {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-window-\(getpid())")
    try? FileManager.default.removeItem(at: base)
    try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: base) }
    let trace = base.appendingPathComponent("trace.txt")
    let started = monotonicNanoseconds()
    guard
      let child = try? ChildProcess(
        command: [
          "/bin/sh", "-c", "exec env \"$@\" >/dev/null 2>&1", "sh", "DISPLAY=\(display)",
          "XDG_CONFIG_HOME=\(base.path)", "PHOTOTIMER_GTK_TRACE=\(trace.path)",
        ] + environment + [binary] + camera + [
          "--no-location", "-o", base.path, "-s", "20", "--no-beep",
        ])
    else { return nil }
    defer {
      child.terminate()
      child.closePipes()
    }
    func lines() -> [String] {
      ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(
        String.init)
    }
    func waitFor(_ prefix: String, limit: Duration = .seconds(20)) async -> String? {
      let deadline = clock.now + limit
      while clock.now < deadline {
        if let line = lines().first(where: { $0.hasPrefix(prefix) }) { return line }
        try? await Task.sleep(for: .milliseconds(20))
      }
      return nil
    }
    guard let first = await waitFor("first-frame"), await waitFor("status idle") != nil,
      let firstAt = Int64(first.split(separator: " ")[1])
    else { return nil }
    var run = WindowRun()
    run.startup = .nanoseconds(firstAt - started)
    try? await Task.sleep(for: .seconds(2))
    // The count runs while we measure: the preview, the ticks and the steps together.
    _ = try? await ChildProcess.run([
      "env", "DISPLAY=\(display)", "xdotool", "search", "--sync", "--name", "^phototimer$",
      "windowfocus", "--sync", "key", "space",
    ])
    guard await waitFor("status counting") != nil else { return nil }
    let mark = lines().count
    let cpuStart = processCPU(child.pid)
    let ffmpegStart = childrenCPU(of: child.pid, named: "ffmpeg")
    let wallStart = clock.now
    try? await Task.sleep(for: .seconds(15))
    let wall = wallStart.duration(to: clock.now).milliseconds / 1000
    run.cpu = (processCPU(child.pid) - cpuStart) / wall
    run.ffmpegCPU = (childrenCPU(of: child.pid, named: "ffmpeg") - ffmpegStart) / wall
    let measured = lines().dropFirst(mark)
    let frames = measured.filter { $0.hasPrefix("frame ") }.compactMap {
      Int64($0.split(separator: " ")[1])
    }
    run.latencies = frames.map { .microseconds($0) }
    run.framesPerSecond = Double(frames.count) / wall
    run.ticks = lines().filter { $0.hasPrefix("tick ") }.compactMap {
      Int64($0.split(separator: " ")[1]).map { .microseconds($0) }
    }
    _ = try? await child.stop(grace: .seconds(3))
    return run
  }

  /// ffplay showing `source` at `size` (by default the preview's, 1024 × 576): its CPU share.
  static func ffplayRun(
    display: String, source: String = windowSource, size: [String] = ["-x", "1024", "-y", "576"]
  ) async -> Double? {
    guard
      let child = try? ChildProcess(
        command: [
          "env", "DISPLAY=\(display)", "ffplay", "-loglevel", "quiet", "-f", "lavfi", "-i",
          source,
        ] + size + ["-an", "-window_title", "ffplay"])
    else { return nil }
    defer {
      child.terminate()
      child.closePipes()
    }
    try? await Task.sleep(for: .seconds(3))
    let start = processCPU(child.pid)
    let wallStart = clock.now
    try? await Task.sleep(for: .seconds(10))
    let wall = wallStart.duration(to: clock.now).milliseconds / 1000
    guard child.exit == nil else { return nil }
    let cpu = (processCPU(child.pid) - start) / wall
    _ = try? await child.stop()
    return cpu
  }

  /// CPU seconds (user + system) of process `pid`, from /proc (its own threads only).
  static func processCPU(_ pid: Int32) -> Double { ProcessEntry(pid: pid)?.cpuSeconds ?? 0 }

  /// CPU seconds of `pid`'s children called `name`.
  static func childrenCPU(of pid: Int32, named name: String) -> Double {
    ProcessTable.children(of: pid, named: name).map(\.cpuSeconds).reduce(0, +)
  }

  static func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}
