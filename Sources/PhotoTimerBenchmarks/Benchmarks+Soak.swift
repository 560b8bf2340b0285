import CMallocControl
import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

/// The soak (`make soak`; a short form in `make bench`): a long time-lapse with the scene
/// camera and many start/cancel/restart cycles against ffmpeg, watching the process's
/// resident memory, descriptors and threads for a trend.
extension Benchmarks {
  /// Resident memory (KiB), open descriptors and threads of this process, from /proc.
  struct Footprint {
    var residentKiB: Double
    var descriptors: Double
    var threads: Double

    static var now: Footprint {
      _ = phototimer_malloc_trim()
      return of(getpid())
    }
  }

  static func soak(shots: Int, cycles: Int) async {
    await soakTimeLapse(shots: shots)
    await soakCycles(cycles)
  }

  /// A time-lapse of `shots` photos, one every 0.25 s, from the scene camera at 640×480, held
  /// open as a booth's screen holds it; a footprint every 100 shots.
  static func soakTimeLapse(shots: Int) async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-soak-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let interval = Duration.milliseconds(250)
    let camera = LiveCamera(SceneCamera(preset: .daylight, width: 640, height: 480, clock: clock))
    try? await camera.start()
    let pipeline = CameraPipeline(
      source: camera, sink: PhotoStore(folder: folder), clock: clock, filter: .auto)
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0),
      services: pipeline.services(location: .disabled(reason: "soak")), clock: clock,
      timeLapse: TimeLapse(interval: interval, count: shots))
    let clock = clock
    let record = Locked((shutters: [ContinuousClock.Instant](), samples: [Footprint.now]))
    let started = clock.now
    _ = await session.run { event in
      guard case .run(let inner, _) = event else { return }
      if inner.kind == .shutter {
        let now = clock.now
        record.withLock { $0.shutters.append(now) }
      }
      if case .captured = inner.kind {
        let count = record.withLock { $0.shutters.count }
        if count % 100 == 0 {
          let sample = Footprint.now
          record.withLock { $0.samples.append(sample) }
        }
      }
    }
    let wall = started.duration(to: clock.now)
    await camera.close()
    let (shutters, samples) = record.withLock { ($0.shutters, $0.samples) }
    let errors: [Duration] = shutters.enumerated().map { shot, time in
      let deadline = shutters[0].advanced(by: interval * shot)
      return deadline < time ? deadline.duration(to: time) : time.duration(to: deadline)
    }
    // Every photo decoded back.
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".jpg") }
    let valid = files.filter { name in
      let path = folder.appendingPathComponent(name).path
      guard let data = FileManager.default.contents(atPath: path),
        let frame = try? JPEGCodec.decode([UInt8](data), path: path)
      else { return false }
      return frame.width == 640 && frame.height == 480
    }.count
    let sample = Sample(errors)
    row(
      "soak: time-lapse \(shots) × 0.25 s, photos valid", ours: "\(valid) of \(shots)",
      baseline: "—", ratio: "—", target: "all")
    row(
      "soak: shutter error p50 / p99",
      ours:
        "\(fixed(sample.median.milliseconds)) / \(fixed(sample.percentile(99).milliseconds)) ms",
      baseline: "—", ratio: "—", target: "p99 ≤ 5 ms")
    printSlopes("soak: time-lapse", per: "100 shots", samples, wall: wall)
  }

  /// `cycles` start/cancel/restart cycles of the engine against an ffmpeg lavfi camera (each
  /// run opens ffmpeg, a cancel must reap it); a footprint every 100 cycles.
  static func soakCycles(_ cycles: Int) async {
    guard access("/usr/bin/ffmpeg", X_OK) == 0 else {
      print("soak: ffmpeg is not installed (make setup installs it)")
      return
    }
    let camera = FFmpegCamera(
      input: "testsrc2=size=320x240:rate=30", format: "lavfi", clock: clock)
    let pipeline = CameraPipeline(source: camera, sink: nil, clock: clock, filter: .none)
    var samples = [Footprint.now]
    var random = SystemRandomNumberGenerator()
    let started = clock.now
    var cancelled = 0
    for cycle in 1...cycles {
      let engine = PhotoTimerEngine(
        configuration: PhotoTimerConfiguration(countdownSeconds: 5),
        services: pipeline.services(location: .disabled(reason: "soak")), clock: clock)
      let run = Task { await engine.run(onEvent: { _ in }) }
      // Cancelled at a random instant: while ffmpeg starts, streams or settles.
      try? await Task.sleep(for: .milliseconds(Int.random(in: 0...60, using: &random)))
      run.cancel()
      if await run.value == .cancelled { cancelled += 1 }
      if cycle % 100 == 0 { samples.append(.now) }
    }
    let wall = started.duration(to: clock.now)
    let left = !ProcessTable.children(of: getpid(), named: "ffmpeg").isEmpty
    row(
      "soak: \(cycles) start/cancel cycles (ffmpeg)", ours: "\(cancelled) cancelled",
      baseline: "—", ratio: "—", target: "all")
    row(
      "soak: ffmpeg left at the end", ours: left ? "yes" : "none", baseline: "—", ratio: "—",
      target: "none")
    printSlopes("soak: cycles", per: "100 cycles", samples, wall: wall)
  }

  static func printSlopes(
    _ name: String, per unit: String, _ samples: [Footprint], wall: Duration
  ) {
    // NB: the first sample is before any work; the slope is over the samples after it, so
    // the one-time warm-up (caches, the first ffmpeg's libraries) is not taken for a trend.
    let steady = Array(samples.dropFirst())
    row(
      "\(name): resident memory slope (per \(unit))",
      ours: "\(fixed(slope(steady.map(\.residentKiB)), 1)) KiB",
      baseline: "start \(fixed(samples.first?.residentKiB ?? 0, 0)) KiB", ratio: "—",
      target: "flat (within noise)")
    row(
      "\(name): descriptors slope (per \(unit))", ours: fixed(slope(steady.map(\.descriptors)), 2),
      baseline: "\(Int(samples.first?.descriptors ?? 0)) → \(Int(samples.last?.descriptors ?? 0))",
      ratio: "—", target: "0")
    row(
      "\(name): threads slope (per \(unit))", ours: fixed(slope(steady.map(\.threads)), 2),
      baseline: "\(Int(samples.first?.threads ?? 0)) → \(Int(samples.last?.threads ?? 0))",
      ratio: "—", target: "0")
    print(
      "  (\(samples.count) samples over \(fixed(wall.milliseconds / 1000, 0)) s; RSS KiB "
        + "\(samples.map { Int($0.residentKiB) }))")
  }
}
