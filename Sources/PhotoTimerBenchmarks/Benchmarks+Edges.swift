import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmarks {
  // MARK: Camera sessions

  /// ffmpeg lavfi sessions: open → close (spawn, SIGTERM, reap, every descriptor closed),
  /// and what is left open after 1,000 of them. Baseline: the bare floor, `posix_spawn` of
  /// the same ffmpeg, SIGTERM, a blocking `waitpid`: no pipes, no threads, no reading.
  static func cameraSessions() async {
    guard FileSystem.isExecutable("/usr/bin/ffmpeg") else {
      print("camera sessions: ffmpeg is not installed (make setup installs it)")
      return
    }
    let camera = FFmpegCamera(
      input: "testsrc2=size=640x480:rate=30", format: "lavfi", clock: clock)
    var ours: [Duration] = []
    var bare: [Duration] = []
    do {
      for _ in 0..<100 {
        let start = clock.now
        let session = try await camera.open()
        await session.close()
        ours.append(start.duration(to: clock.now))

        let began = clock.now
        guard bareSpawnKillReap(["/usr/bin/ffmpeg"] + camera.arguments) else {
          print("camera sessions: the bare spawn failed")
          return
        }
        bare.append(began.duration(to: clock.now))
      }
    } catch {
      print("camera sessions: \(error)")
      return
    }
    let o = Sample(ours)
    let p = Sample(bare)
    row(
      "camera open → close (ffmpeg), median", ours: "\(fixed(o.median.milliseconds)) ms",
      baseline: "\(fixed(p.median.milliseconds)) ms (bare)",
      ratio: ratio(p.median.milliseconds, o.median.milliseconds), target: "")
    row(
      "camera open → close, p99", ours: "\(fixed(o.percentile(99).milliseconds)) ms",
      baseline: "\(fixed(p.percentile(99).milliseconds)) ms (bare)",
      ratio: ratio(p.percentile(99).milliseconds, o.percentile(99).milliseconds), target: "")

    let before = (descriptors: openDescriptors(), threads: await settledThreads(atMost: nil))
    do {
      for _ in 0..<1000 {
        let session = try await camera.open()
        await session.close()
      }
    } catch {
      print("camera sessions: \(error)")
      return
    }
    let after = (
      descriptors: openDescriptors(), threads: await settledThreads(atMost: before.threads)
    )
    row(
      "1,000 open/close: descriptors", ours: "\(before.descriptors) → \(after.descriptors)",
      baseline: "", ratio: "", target: "unchanged")
    row(
      "1,000 open/close: threads", ours: "\(before.threads) → \(after.threads)",
      baseline: "", ratio: "", target: "unchanged")
  }

  /// `posix_spawn` → SIGTERM → blocking `waitpid`, with standard output and error on
  /// /dev/null; true when the child was reaped.
  private static func bareSpawnKillReap(_ command: [String]) -> Bool {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // NB: an empty signal mask, as ours sets: a cooperative-pool thread blocks SIGTERM, and a
    // child spawned from it would inherit that and never see the signal.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, command[0], &actions, &attributes, argv, environ) == 0 else {
      return false
    }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return false }
    }
    return true
  }

  private static func openDescriptors() -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
  }

  /// The number of threads of this process; with `atMost`, waits (up to a second) for
  /// threads that have finished their work to exit.
  private static func settledThreads(atMost limit: Int?) async -> Int {
    func count() -> Int {
      ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }
    guard let limit else { return count() }
    let deadline = clock.now.advanced(by: .seconds(1))
    while count() > limit, clock.now < deadline {
      try? await clock.sleep(for: .milliseconds(10))  // the benchmark may sleep: let them exit
    }
    return count()
  }

  // MARK: Where cancel time goes

  /// From `cancel()` to the run returned, in phases: every child unwound (the group drained,
  /// the camera's release begins), released, `cancelled` published, the run returned.
  static func cancelBreakdown() async {
    let clock = clock
    let marks = Locked<(released: ContinuousClock.Instant?, published: ContinuousClock.Instant?)>(
      (nil, nil))
    var services = PhotoTimerServices.simulated(
      clock: clock, camera: .never, location: .never, filter: .never)
    services.camera.release = {
      let now = clock.now
      marks.withLock { $0.released = now }
    }
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 5), services: services, clock: clock)
    var drained: [Duration] = []
    var published: [Duration] = []
    var returned: [Duration] = []
    for _ in 0..<1000 {
      marks.withLock { $0 = (nil, nil) }
      let run = Task.detached {
        await engine.run { event in
          if event.kind == .cancelled {
            let now = clock.now
            marks.withLock { $0.published = now }
          }
        }
      }
      try? await Task.sleep(for: .milliseconds(1))  // the benchmark may sleep: let it start
      let start = clock.now
      run.cancel()
      _ = await run.value
      let end = clock.now
      let (released, shown) = marks.withLock { $0 }
      guard let released, let shown else { continue }
      drained.append(start.duration(to: released))
      published.append(released.duration(to: shown))
      returned.append(shown.duration(to: end))
    }
    for (name, values) in [
      ("cancel: → children unwound", drained), ("cancel: release → cancelled published", published),
      ("cancel: published → awaiter on main resumed", returned),
    ] {
      let sample = Sample(values)
      row(
        name,
        ours:
          "\(fixed(sample.median.microseconds, 1)) / \(fixed(sample.percentile(99).microseconds, 1)) µs",
        baseline: "", ratio: "", target: "median / p99")
    }
  }

  // MARK: Time-lapse schedule

  /// 200 shots, one every 0.25 s, on `ContinuousClock`: each shutter against its deadline.
  /// Ours: each run's deadlines measured from its own scheduled start. Baseline: the design
  /// before, each run's deadlines measured from when the run actually began.
  static func timeLapseSchedule() async {
    let shots = 200
    let interval = Duration.milliseconds(250)
    let services = PhotoTimerServices.simulated(
      clock: clock, camera: .succeed(after: .milliseconds(20)), location: .succeed(after: .zero),
      filter: .succeed(after: .zero))
    let ours = await lapseErrors(shots: shots, interval: interval, services: services)
    let before = await lapseErrorsRunStartRelative(
      shots: shots, interval: interval, services: services)
    let o = Sample(ours.map { .nanoseconds(Int64($0 * 1000)) })
    let b = Sample(before.map { .nanoseconds(Int64($0 * 1000)) })
    row(
      "time-lapse 200 × 0.25 s: shutter error p50", ours: "\(fixed(o.median.milliseconds)) ms",
      baseline: "\(fixed(b.median.milliseconds)) ms (old)",
      ratio: ratio(b.median.milliseconds, o.median.milliseconds), target: "")
    row(
      "time-lapse: shutter error p99", ours: "\(fixed(o.percentile(99).milliseconds)) ms",
      baseline: "\(fixed(b.percentile(99).milliseconds)) ms (old)",
      ratio: ratio(b.percentile(99).milliseconds, o.percentile(99).milliseconds),
      target: "p99 ≤ 2 ms")
    row(
      "time-lapse: trend of the error", ours: "\(fixed(slope(ours), 2)) µs/shot",
      baseline: "\(fixed(slope(before), 2)) µs/shot (old)", ratio: "",
      target: "no trend")
  }

  /// The shutter errors in microseconds of a `PhotoTimerSession` time-lapse.
  private static func lapseErrors(
    shots: Int, interval: Duration, services: PhotoTimerServices
  ) async -> [Double] {
    let clock = clock
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0), services: services,
      clock: clock, timeLapse: TimeLapse(interval: interval, count: shots))
    let shutters = Locked<[ContinuousClock.Instant]>([])
    _ = await session.run { event in
      if case .run(let inner, _) = event, inner.kind == .shutter {
        let now = clock.now
        shutters.withLock { $0.append(now) }
      }
    }
    let times = shutters.withLock { $0 }
    guard let first = times.first else { return [] }
    return times.enumerated().map { shot, time in
      first.advanced(by: interval * shot).duration(to: time).microseconds
    }
  }

  /// The same schedule, each run started at its lead and counted from its actual start.
  private static func lapseErrorsRunStartRelative(
    shots: Int, interval: Duration, services: PhotoTimerServices
  ) async -> [Double] {
    let clock = clock
    let lapse = TimeLapse(interval: interval, count: shots)
    let shutter = Locked<ContinuousClock.Instant?>(nil)
    func shoot(_ configuration: PhotoTimerConfiguration) async -> ContinuousClock.Instant? {
      shutter.withLock { $0 = nil }
      _ = await PhotoTimerEngine(configuration: configuration, services: services, clock: clock)
        .run { event in
          if event.kind == .shutter {
            let now = clock.now
            shutter.withLock { $0 = now }
          }
        }
      return shutter.withLock { $0 }
    }
    guard let first = await shoot(PhotoTimerConfiguration(countdownSeconds: 0)) else { return [] }
    var errors = [0.0]
    let lead = lapse.lead(preparation: .milliseconds(20))
    for shot in 1..<shots {
      let deadline = first.advanced(by: interval * shot)
      try? await clock.sleep(until: deadline.advanced(by: .zero - lead), tolerance: nil)
      guard
        let time = await shoot(PhotoTimerConfiguration(countdownSeconds: 1, tickInterval: lead))
      else { break }
      errors.append(deadline.duration(to: time).microseconds)
    }
    return errors
  }

  /// The least-squares slope of `values` against their index.
  static func slope(_ values: [Double]) -> Double {
    let n = Double(values.count)
    guard n > 1 else { return 0 }
    let meanX = (n - 1) / 2
    let meanY = values.reduce(0, +) / n
    var numerator = 0.0
    var denominator = 0.0
    for (index, value) in values.enumerated() {
      numerator += (Double(index) - meanX) * (value - meanY)
      denominator += (Double(index) - meanX) * (Double(index) - meanX)
    }
    return numerator / denominator
  }
}
