import CMallocControl
import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX

/// `make bench`: each figure of ours beside the seed design's, in one run.
@main
@MainActor
struct Benchmarks {
  static let clock = ContinuousClock()

  /// The parts that run alone, each with its flag; no flag runs them all.
  static let parts = [
    "--memory", "--ffmpeg", "--preview", "--soak", "--gstreamer", "--window", "--cancel",
    "--time-lapse", "--lateness", "--command", "--imaging", "--geocoder", "--remote",
    "--viewers", "--gpsd-flood", "--people", "--people-memory", "--people-eval", "--collage",
    "--booth-soak", "--window-fullscreen", "--print",
  ]

  static func main() async {
    ThreadPriority.lowerCPUWork()
    if let flag = CommandLine.arguments.dropFirst().first, !parts.contains(flag) {
      // NB: a mistyped flag must not start the whole half-hour run.
      let usage = "usage: phototimer-bench [" + parts.joined(separator: " | ") + "]\n"
      FileHandle.standardError.write(Data(usage.utf8))
      exit(flag == "--help" || flag == "-h" ? 0 : 2)
    }
    if CommandLine.arguments.dropFirst().first == "--memory" {
      // NB: one allocator arena, set before any thread starts, so resident memory reflects
      // live memory, not per-thread free lists (±4 MiB of noise per 10,000 cycles without).
      // Only this child process runs with it, so the timing figures are not affected.
      _ = phototimer_malloc_single_arena()
      await startCancelCycles()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--ffmpeg" {
      await shutterLag()
      await cameraSessions()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--preview" {
      await preview()
      await shutterWithPreview()
      await sceneShutter()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--soak" {
      // NB: one allocator arena, set before any thread starts, and a trim before each sample
      // (as for the memory figure): the slope is then live memory, not per-thread free lists.
      _ = phototimer_malloc_single_arena()
      let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 2000
      await soak(shots: count, cycles: count)
      return
    }
    if CommandLine.arguments.dropFirst().first == "--booth-soak" {
      let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 1000
      soakBooth(sessions: count)
      return
    }
    if CommandLine.arguments.dropFirst().first == "--gstreamer" {
      await gstreamer()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--window" {
      await window()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--window-fullscreen" {
      await windowFullscreen()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--cancel" {
      await cancelLatency()
      await cancelBreakdown()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--time-lapse" {
      await timeLapseSchedule()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--lateness" {
      await latenessUnderLoad()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--command" {
      command()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--imaging" {
      await imaging()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--geocoder" {
      geocoder()
      await firstFix()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--remote" {
      await remote()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--viewers" {
      PreviewViewer.runViewers(Array(CommandLine.arguments.dropFirst(2)))
      return
    }
    if CommandLine.arguments.dropFirst().first == "--people" {
      await people()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--people-eval" {
      guard let folder = CommandLine.arguments.dropFirst(2).first else {
        FileHandle.standardError.write(Data("usage: phototimer-bench --people-eval DIR\n".utf8))
        exit(2)
      }
      await peopleEval(folder)
      return
    }
    if CommandLine.arguments.dropFirst().first == "--collage" {
      await collage(writingTo: CommandLine.arguments.dropFirst(2).first)
      boothZeroToCollage()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--print" {
      await printing()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--people-memory" {
      await peopleMemory()
      return
    }
    if CommandLine.arguments.dropFirst().first == "--gpsd-flood" {
      await gpsdFlood()
      return
    }
    print("phototimer \(PhotoTimerVersion.current) benchmarks (release build, ContinuousClock)")
    print("medians over repeated runs; ratio = baseline ÷ ours (higher is better for us)\n")
    row("figure", ours: "ours", baseline: "seed design", ratio: "ratio", target: "target")
    print(String(repeating: "-", count: 110))
    await drift()
    await cancelLatency()
    await cancelBreakdown()
    await seedScenario()
    await restartRace()
    runMemoryFigureInChild()
    geocoder()
    await firstFix()
    await gpsdFlood()
    await imaging()
    command()
    await shutterLag()
    await cameraSessions()
    await preview()
    await shutterWithPreview()
    await sceneShutter()
    await timeLapseSchedule()
    await latenessUnderLoad()
    await gstreamer()
    await window()
    await windowFullscreen()
    await remote()
    await people()
    await collage()
    boothZeroToCollage()
    await printing()
    // NB: the soak's short form, in a process of its own (one arena); `make soak` runs 2,000.
    runInChild(["--soak", "200"])
    runInChild(["--booth-soak", "50"])
  }

  /// Runs ``startCancelCycles()`` in a fresh process of this benchmark with one arena.
  static func runMemoryFigureInChild() { runInChild(["--memory"]) }

  /// Runs this benchmark with `arguments` in a fresh process (one arena) and prints its lines.
  static func runInChild(_ arguments: [String]) {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = arguments
    let output = Pipe()
    child.standardOutput = output
    do {
      try child.run()
      // NB: through this process's stdout, so its lines keep their place in a redirected log.
      let lines = output.fileHandleForReading.readDataToEndOfFile()
      child.waitUntilExit()
      print(String(decoding: lines, as: UTF8.self), terminator: "")
    } catch {
      print("\(arguments[0]): could not start \(CommandLine.arguments[0]): \(error)")
    }
  }

  // MARK: 1. Drift

  /// Cumulative drift over 100 ticks of 50 ms: the shutter's lateness against 5.000 s.
  static func drift() async {
    for loaded in [false, true] {
      let load = loaded ? CPULoad() : nil
      var ours: [Duration] = []
      var seed: [Duration] = []
      for _ in 0..<5 {
        ours.append(await engineDrift())
        seed.append(
          (try? await SeedViewModel.naiveCountdown(ticks: 100, interval: .milliseconds(50)))
            .map { $0 - .seconds(5) } ?? .zero)
      }
      load?.stop()
      let o = Sample(ours).median.milliseconds
      let s = Sample(seed).median.milliseconds
      row(
        "drift, 100 × 50 ms ticks, \(loaded ? "2 cores busy" : "idle")",
        ours: "\(fixed(o, 3)) ms", baseline: "\(fixed(s, 3)) ms", ratio: ratio(s, o),
        target: loaded ? "≤ 5 ms" : "≤ 1 ms")
    }
  }

  static func engineDrift() async -> Duration {
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: 100, tickInterval: .milliseconds(50), cameraWaitLimit: .seconds(1)),
      services: .simulated(
        camera: .succeed(after: .milliseconds(5)), location: .succeed(after: .milliseconds(10)),
        filter: .succeed(after: .milliseconds(20))),
      clock: clock)
    let shutter = Locked<Duration?>(nil)
    _ = await engine.run { event in
      if event.kind == .shutter { shutter.withLock { $0 = event.offset } }
    }
    return (shutter.withLock { $0 } ?? .zero) - .seconds(5)
  }

  // MARK: 2. Cancel latency

  /// From `cancel()` to the run fully unwound, with four children in flight.
  ///
  /// Each design's run is stamped where it returns, in its own task: the seed's run is
  /// main-actor code and returns on the main actor; ours returns on the pool. The second
  /// pair of figures adds what neither run does itself: resuming an awaiter on the main actor
  /// (for ours a hop from the pool, for the seed none, since it ran there).
  static func cancelLatency() async {
    let clock = clock
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5),
      services: .simulated(camera: .never, location: .never, filter: .never), clock: clock)
    var ours: [Duration] = []
    var seed: [Duration] = []
    var oursObserved: [Duration] = []
    var seedObserved: [Duration] = []
    for _ in 0..<1000 {
      let run = Task.detached {
        _ = await engine.run { _ in }
        return clock.now
      }
      try? await Task.sleep(for: .milliseconds(1))  // the benchmark may sleep: let it start
      let start = clock.now
      run.cancel()
      let returned = await run.value
      oursObserved.append(start.duration(to: clock.now))
      ours.append(start.duration(to: returned))

      let model = SeedViewModel(
        seconds: 5, tick: .seconds(1), steps: (.seconds(60), .seconds(60), .seconds(60)))
      model.startTimer()
      try? await Task.sleep(for: .milliseconds(1))
      let seedStart = clock.now
      model.cancel()
      await model.waitForRun()
      seedObserved.append(seedStart.duration(to: clock.now))
      if let end = model.returned { seed.append(seedStart.duration(to: end)) }
    }
    for (name, o, s, target) in [
      ("cancel → run returned, 4 in flight, median", Sample(ours).median, Sample(seed).median, ""),
      (
        "cancel → run returned, p99", Sample(ours).percentile(99), Sample(seed).percentile(99),
        "p99 ≤ seed's"
      ),
      (
        "  … + awaiter resumed on main, median", Sample(oursObserved).median,
        Sample(seedObserved).median, ""
      ),
      (
        "  … + awaiter resumed on main, p99", Sample(oursObserved).percentile(99),
        Sample(seedObserved).percentile(99), "p99 ≤ 500 µs"
      ),
    ] {
      row(
        name, ours: "\(fixed(o.microseconds, 1)) µs", baseline: "\(fixed(s.microseconds, 1)) µs",
        ratio: ratio(s.microseconds, o.microseconds), target: target)
    }
  }

  // MARK: 3. The seed scenario scaled by 0.1

  /// 0.5 s count, steps of 0.14, 0.28 and 0.42 s: concurrent (ours) against sequential.
  static func seedScenario() async {
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: 5, tickInterval: .milliseconds(100)),
      services: .simulated(
        camera: .succeed(after: .milliseconds(140)), location: .succeed(after: .milliseconds(280)),
        filter: .succeed(after: .milliseconds(420))),
      clock: clock)
    var ours: [Duration] = []
    var sequential: [Duration] = []
    var allThree = true
    for _ in 0..<7 {
      let start = clock.now
      let result = await engine.run { _ in }
      ours.append(start.duration(to: clock.now))
      if case .captured(let photo) = result {
        allThree = allThree && photo.location != nil && photo.filter == .vivid
      } else {
        allThree = false
      }
      let steps: [Duration] = [.milliseconds(140), .milliseconds(280), .milliseconds(420)]
      sequential.append(
        (try? await SeedViewModel.sequential(count: .milliseconds(500), steps: steps)) ?? .zero)
    }
    let o = Sample(ours).median.milliseconds
    let s = Sample(sequential).median.milliseconds
    row(
      "seed ×0.1: count 500 ms → captured", ours: "\(fixed(o, 1)) ms",
      baseline: "\(fixed(s, 1)) ms (seq.)", ratio: ratio(s, o),
      target: "≤ 505 ms\(allThree ? "" : " (MISSING VALUES)")")
  }

  // MARK: 4. Restart race

  /// Restart mid-run 1,000 times; a wrong final state is anything but counting from the top.
  static func restartRace() async {
    var random = SystemRandomNumberGenerator()
    let ours = PhotoTimerViewModel(countdownSeconds: 5, services: .simulated())
    let seed = SeedViewModel(
      seconds: 5, tick: .seconds(1),
      steps: (.milliseconds(1400), .milliseconds(2800), .milliseconds(4200)))
    var oursWrong = 0
    var seedWrong = 0
    for _ in 0..<1000 {
      let pause = Duration.microseconds(Int.random(in: 0...2000, using: &random))
      ours.startTimer()
      try? await Task.sleep(for: pause)
      ours.startTimer()
      seed.startTimer()
      try? await Task.sleep(for: pause)
      seed.startTimer()
      try? await Task.sleep(for: .milliseconds(3))
      if ours.status != .counting(remaining: 5) { oursWrong += 1 }
      if seed.status != .counting(5) { seedWrong += 1 }
    }
    ours.cancel()
    seed.cancel()
    await ours.waitForRun()
    await seed.waitForRun()
    row(
      "restart race: wrong states of 1,000", ours: "\(oursWrong)", baseline: "\(seedWrong)",
      ratio: "", target: "ours: 0")
  }

  // MARK: 5. Start/cancel cycles

  /// 10,000 start/cancel cycles, each on a new view model: memory growth and models alive.
  static func startCancelCycles() async {
    final class Weak {
      weak var model: PhotoTimerViewModel?
      init(_ model: PhotoTimerViewModel) { self.model = model }
    }
    func cycle() async -> Weak {
      let model = PhotoTimerViewModel(countdownSeconds: 5, services: .simulated())
      model.startTimer()
      await Task.yield()
      model.cancel()
      await model.waitForRun()
      return Weak(model)
    }
    // A cancelled `Task.sleep` can keep its timer (about 600 bytes, measured) until its
    // original deadline, at most 4.2 s here; waiting that out between rounds separates this
    // transient from a leak. A leak grows every round; the figure is the median round.
    let settle = Duration.seconds(5)
    // Warm-up until the heap reaches its steady size (measured: the first 20,000 cycles
    // still grow it by about 4 MiB per 10,000; later rounds go up and down around zero).
    for _ in 0..<30_000 { _ = await cycle() }
    try? await Task.sleep(for: settle)
    var rounds: [Double] = []
    var previous = residentBytes()
    let roundCount = Int(ProcessInfo.processInfo.environment["BENCH_ROUNDS"] ?? "") ?? 5
    for _ in 0..<roundCount {
      for _ in 0..<10_000 { _ = await cycle() }
      try? await Task.sleep(for: settle)
      let now = residentBytes()
      rounds.append(Double(now - previous) / 1_048_576)
      previous = now
    }
    // A separate pass holds weak references (each keeps a side table) to count survivors.
    var alive: [Weak] = []
    for _ in 0..<10_000 { alive.append(await cycle()) }
    let stillAlive = alive.filter { $0.model != nil }.count
    let median = rounds.sorted()[rounds.count / 2]
    row(
      "10,000 start/cancel: RSS growth (leak)", ours: "\(fixed(median, 2)) MiB", baseline: "",
      ratio: "", target: "< 1 MiB")
    row(
      "  \(rounds.count) rounds of 10,000, total", ours: "\(fixed(rounds.reduce(0, +), 2)) MiB",
      baseline: "", ratio: "", target: rounds.map { fixed($0, 2) }.joined(separator: " / "))
    row(
      "10,000 start/cancel: models alive", ours: "\(stillAlive)", baseline: "", ratio: "",
      target: "0")
  }
}
