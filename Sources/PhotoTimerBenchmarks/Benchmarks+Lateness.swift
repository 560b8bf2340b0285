import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG

extension Benchmarks {
  /// Every tick and shutter of a time-lapse (30 shots, 1 s apart, the first after a 3 s
  /// count) with the scene camera streaming to a preview reader, while 12-megapixel photos
  /// are encoded back to back: the worst lateness of each run (p100), three runs. Ours
  /// encodes on the CPU executor (`OffPool.run`: niced threads made once); the baseline
  /// the way it was done before, a thread per encode at the pool's own priority; and, for
  /// the floor, the same time-lapse with no encoding at all.
  static func latenessUnderLoad(shots: Int = 30, runs: Int = 3) async {
    let picture = await scenePicture(width: 4000, height: 3000)
    var worst: [Load: [Duration]] = [:]
    var encodes: [Load: [Int]] = [:]
    for _ in 0..<runs {
      for load in [Load.executor, .threadPerEncode, .none] {
        guard let run = await latenessRun(shots: shots, picture: picture, load: load)
        else { return }
        worst[load, default: []].append(run.worst)
        encodes[load, default: []].append(run.encodes)
      }
    }
    let ours = worst[.executor] ?? []
    let before = worst[.threadPerEncode] ?? []
    let idle = worst[.none] ?? []
    let o = Sample(ours).median.milliseconds
    let b = Sample(before).median.milliseconds
    row(
      "time-lapse \(shots) × 1 s, 12 MP encodes running: worst tick/shutter lateness",
      ours: "\(fixed(o, 2)) ms", baseline: "\(fixed(b, 2)) ms (thread per encode)",
      ratio: ratio(b, o), target: "≤ 2 ms")
    let runsText = { (list: [Duration]) in
      list.map { fixed($0.milliseconds, 2) }.joined(separator: ", ")
    }
    print(
      "  (p100 of each run, ms: ours \(runsText(ours)); before \(runsText(before)); no load "
        + "\(runsText(idle)); 12 MP encodes per run: ours \(encodes[.executor] ?? []), before "
        + "\(encodes[.threadPerEncode] ?? []))")
  }

  /// What runs beside the time-lapse.
  private enum Load {
    /// 12 MP encodes back to back on the CPU executor.
    case executor
    /// The same on a thread per encode at normal priority (the design before the executor).
    case threadPerEncode
    /// Nothing.
    case none
  }

  /// One run: the worst lateness of its ticks and shutters, and how many 12 MP encodes ran
  /// meanwhile.
  private static func latenessRun(
    shots: Int, picture: Frame, load: Load
  ) async -> (worst: Duration, encodes: Int)? {
    let interval = Duration.seconds(1)
    let camera = LiveCamera(SceneCamera(preset: .daylight, width: 640, height: 480, clock: clock))
    do { try await camera.start() } catch {
      print("lateness under load: \(error)")
      return nil
    }
    let pipeline = CameraPipeline(source: camera, sink: nil, clock: clock, filter: .auto)
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(countdownSeconds: 3),
      services: pipeline.services(location: .disabled(reason: "bench")), clock: clock,
      timeLapse: TimeLapse(interval: interval, count: shots))
    let metadata = PhotoMetadata(
      make: "phototimer", model: "bench", date: Date(),
      settings: ExposureProgram.standard.settings(forSceneEV: 12), filter: .vivid, location: nil)
    let stop = Locked(false)
    let encoded = Locked(0)
    let load = Task.detached {
      while load != .none, !stop.withLock({ $0 }) {
        if load == .executor {
          _ = try? await OffPool.run { _ in try JPEGFile.make(picture, metadata: metadata) }
        } else {
          _ = try? await OffPool.blocking { _ in try JPEGFile.make(picture, metadata: metadata) }
        }
        encoded.withLock { $0 += 1 }
      }
    }
    // The screen: a reader of the newest preview, as the terminal's live view reads it.
    let screen = Task.detached {
      _ = try? await camera.previews(fitting: terminalRoom).first { _ in stop.withLock { $0 } }
    }
    let clock = clock
    // Each run's start, its ticks' lateness, and each shutter's instant.
    let record = Locked(
      (
        starts: [Duration: ContinuousClock.Instant](), late: [Duration](),
        shutters: [ContinuousClock.Instant]()
      ))
    _ = await session.run { event in
      guard case .run(let inner, let runStart) = event else { return }
      let now = clock.now
      switch inner.kind {
      case .started(let seconds) where seconds > 1:
        record.withLock { $0.starts[runStart] = now }
      case .tick(let remaining):
        // NB: the first run's ticks: one second apart from its start.
        record.withLock { record in
          guard let start = record.starts[runStart] else { return }
          let deadline = start.advanced(by: .seconds(3 - remaining))
          record.late.append(deadline.duration(to: now))
        }
      case .shutter:
        record.withLock { $0.shutters.append(now) }
      default:
        break
      }
    }
    stop.withLock { $0 = true }
    await load.value
    await camera.close()
    await screen.value
    let (late, shutters) = record.withLock { ($0.late, $0.shutters) }
    guard let first = shutters.first else { return nil }
    let shutterLate = shutters.enumerated().map { shot, time in
      first.advanced(by: interval * shot).duration(to: time)
    }
    let worst = (late + shutterLate).map { max(.zero, $0) }.max() ?? .zero
    return (worst, encoded.withLock { $0 })
  }
}
