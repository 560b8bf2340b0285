import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG

extension Benchmarks {
  /// Preview analysis, capture at two sizes, our encoder beside cjpeg, and tick lateness
  /// while a 12-megapixel photo is processed.
  static func imaging() async {
    previewAnalysis()
    await capture(width: 1920, height: 1080, runs: 9)
    await capture(width: 4000, height: 3000, runs: 5)
    encoderAgainstCJPEG(width: 1920, height: 1080)
    encoderAgainstCJPEG(width: 4000, height: 3000)
    await tickLatenessDuringCapture()
  }

  /// A photograph-like test picture: the scene camera's daylight render.
  static func scenePicture(width: Int, height: Int) async -> Frame {
    let camera = SceneCamera(preset: .daylight, width: width, height: height, clock: clock)
    guard let session = try? await camera.open(), let frame = try? await session.capture() else {
      return Frame(width: width, height: height)
    }
    await session.close()
    return frame
  }

  /// Metering and the suggestion on a 640 × 480 preview.
  static func previewAnalysis() {
    let preview = settledFrame(width: 640, height: 480)
    var times: [Duration] = []
    var checksum = 0.0
    for _ in 0..<200 {
      let start = clock.now
      let ev = Metering.sceneEV(of: preview)
      let suggestion = FilterAdvisor().suggest(for: preview, sceneEV: ev)
      checksum += suggestion.confidence + ev
      times.append(start.duration(to: clock.now))
    }
    row(
      "preview analysis 640×480 (meter + suggest)",
      ours: "\(fixed(Sample(times).median.milliseconds, 3)) ms", baseline: "", ratio: "",
      target: "≤ 5 ms")
    if checksum == 42 { print("") }
  }

  private static func settledFrame(width: Int, height: Int) -> Frame {
    var frame = Frame(width: width, height: height, exposureEV: 12)
    for y in 0..<height {
      for x in 0..<width {
        frame[x, y] = RGB(
          red: UInt8((x * 7 + y) % 256), green: UInt8((y * 3) % 256), blue: UInt8((x + y) % 256))
      }
    }
    return frame
  }

  /// Filter + encode + EXIF + atomic write of one photo.
  static func capture(width: Int, height: Int, runs: Int) async {
    let frame = await scenePicture(width: width, height: height)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = PhotoStore(folder: folder)
    let metadata = PhotoMetadata(
      make: "phototimer", model: "bench", date: Date(),
      settings: ExposureProgram.standard.settings(forSceneEV: 12), filter: .vivid,
      location: LocationTag(
        name: "Paris", coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945)))
    var times: [Duration] = []
    for _ in 0..<runs {
      let start = clock.now
      do {
        let filtered = try await Look(.vivid).apply(to: frame)
        let url = try await store.save(filtered, metadata: metadata, variant: nil)
        times.append(start.duration(to: clock.now))
        try? FileManager.default.removeItem(at: url)
      } catch {
        print("capture \(width)×\(height): \(error)")
        return
      }
    }
    row(
      "capture \(width)×\(height): filter+encode+write",
      ours: "\(fixed(Sample(times).median.milliseconds, 1)) ms", baseline: "", ratio: "",
      target: "")
  }

  /// Our in-process encode beside libjpeg-turbo's `cjpeg` on the same pixels (a PPM file) and
  /// quality. cjpeg's figure is its wall time minus that of a 1 × 1 run (process start).
  static func encoderAgainstCJPEG(width: Int, height: Int) {
    let frame = settledFrame(width: width, height: height)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-cjpeg-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let ppm = folder.appendingPathComponent("frame.ppm").path
    let tiny = folder.appendingPathComponent("tiny.ppm").path
    _ = FileManager.default.createFile(
      atPath: ppm, contents: Data("P6\n\(width) \(height)\n255\n".utf8) + Data(frame.pixels))
    _ = FileManager.default.createFile(
      atPath: tiny, contents: Data("P6\n1 1\n255\n".utf8) + Data([128, 128, 128]))
    var ours: [Duration] = []
    var theirs: [Duration] = []
    var startup: [Duration] = []
    for _ in 0..<7 {
      let start = clock.now
      _ = try? JPEGCodec.encode(frame, quality: 92)
      ours.append(start.duration(to: clock.now))
      guard let full = timeCJPEG(ppm, folder.path), let empty = timeCJPEG(tiny, folder.path) else {
        print("cjpeg not found: install libjpeg-turbo-progs (make setup does)")
        return
      }
      theirs.append(full)
      startup.append(empty)
    }
    let o = Sample(ours).median.milliseconds
    let t = Sample(theirs).median.milliseconds - Sample(startup).median.milliseconds
    row(
      "encode \(width)×\(height) q92 vs cjpeg", ours: "\(fixed(o, 1)) ms",
      baseline: "\(fixed(t, 1)) ms (cjpeg)", ratio: ratio(t, o), target: "≥ 0.8× (≤ 1.25× cjpeg)")
  }

  private static func timeCJPEG(_ input: String, _ folder: String) -> Duration? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
    process.arguments = ["-quality", "92", "-outfile", folder + "/cjpeg.jpg", input]
    let start = clock.now
    do { try process.run() } catch { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? start.duration(to: clock.now) : nil
  }

  /// The worst lateness of countdown ticks (40 × 50 ms) while 12-megapixel photos are filtered
  /// and encoded back to back (two at a time, like --keep-original): ours off the cooperative
  /// pool, beside the same work done naively on it.
  static func tickLatenessDuringCapture() async {
    let picture = await scenePicture(width: 4000, height: 3000)
    let metadata = PhotoMetadata(
      make: "phototimer", model: "bench", date: Date(),
      settings: ExposureProgram.standard.settings(forSceneEV: 12), filter: .vivid, location: nil)
    var results: [Bool: [Duration]] = [:]
    for offPool in [true, false] {
      for _ in 0..<3 {
        let stop = Locked(false)
        let workers = (0..<2).map { _ in
          Task.detached {
            while !stop.withLock({ $0 }) {
              if offPool {
                _ = try? await Look(.vivid).apply(to: picture)
                _ = try? await OffPool.run { _ in try JPEGFile.make(picture, metadata: metadata) }
              } else {
                var frame = picture
                Look(.vivid).applyInPlace(to: &frame)
                _ = try? JPEGFile.make(frame, metadata: metadata)
                // NB: without this the two workers hold both pool threads (2 cores) for good
                // and the countdown never runs at all.
                await Task.yield()
              }
            }
          }
        }
        results[offPool, default: []].append(await worstTickLateness())
        stop.withLock { $0 = true }
        for worker in workers { await worker.value }
      }
    }
    let o = Sample(results[true] ?? []).median.milliseconds
    let n = Sample(results[false] ?? []).median.milliseconds
    row(
      "worst tick lateness, 12 MP capture running", ours: "\(fixed(o, 2)) ms",
      baseline: "\(fixed(n, 1)) ms (on pool)", ratio: ratio(n, o), target: "≤ 5 ms")
  }

  private static func worstTickLateness() async -> Duration {
    let interval = Duration.milliseconds(50)
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 40, tickInterval: interval),
      services: .simulated(
        clock: clock, camera: .succeed(after: .zero), location: .succeed(after: .zero),
        filter: .succeed(after: .zero)),
      clock: clock)
    let worst = Locked(Duration.zero)
    _ = await engine.run { event in
      guard case .tick(let remaining) = event.kind else { return }
      let deadline = interval * (40 - remaining)
      worst.withLock { $0 = max($0, event.offset - deadline) }
    }
    return worst.withLock { $0 }
  }
}
