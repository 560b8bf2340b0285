import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerRemote
import PhotoTimerSetup

extension Benchmarks {
  /// The phone as remote, on a 1280×720 30 fps camera (ffmpeg's testsrc2): the frame → paint
  /// latency in headless chromium, the server's CPU with 0, 1 and 10 viewers (plus one that
  /// never reads), and the shutter lag and tick lateness beside them.
  static func remote() async {
    let camera = LiveCamera(
      FFmpegCamera(input: "testsrc2=size=1280x720:rate=30", format: "lavfi", clock: clock))
    let link: RemoteLink
    do {
      try await camera.start()
      link = try RemoteLink(
        address: RemoteAddress(host: "127.0.0.1", port: 0), camera: "bench", mirrored: false,
        seconds: 3)
    } catch {
      print("remote: \(error)")
      await camera.close()
      return
    }
    let feed = Task { await link.feed(camera) }
    var phases: [(name: String, cpu: Double, lag: Sample, late: Sample, rss: Double)] = []

    // No viewer: the server idles, nothing is encoded.
    phases.append(await remotePhase("no viewer", camera: camera))

    // One browser: the page paces the stream; its paints give the latency.
    var paints = Sample([])
    do {
      let browser = try await WebDriver(width: 360, height: 780)
      try await browser.open(link.links[0])
      _ = try await browser.wait(for: "return window.phototimer.frames >= 30")
      let before = link.server.paintLatencies.count
      phases.append(await remotePhase("1 browser", camera: camera))
      paints = Sample(Array(link.server.paintLatencies.dropFirst(before)))
      await browser.quit()
    } catch {
      print("remote: the browser: \(error)")
    }

    // Ten viewers and one that never reads, in a process of their own.
    let viewers = Process()
    viewers.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    viewers.arguments = [
      "--viewers", "10", "1", "\(link.server.port)", link.server.token.text, "14",
    ]
    let output = Pipe()
    viewers.standardOutput = output
    var received = ""
    do {
      try viewers.run()
      try await Task.sleep(for: .seconds(2))
      phases.append(await remotePhase("10 + 1 stuck", camera: camera))
      received = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      viewers.waitUntilExit()
    } catch {
      print("remote: the viewers: \(error)")
    }
    let totals = link.hub.previewTotals
    feed.cancel()
    await link.stop()
    await camera.close()
    await feed.value

    row(
      "remote: frame → painted in chromium, p50",
      ours: "\(fixed(paints.median.milliseconds, 1)) ms",
      baseline: "—", ratio: "—", target: "—")
    row(
      "remote: frame → painted in chromium, p95",
      ours: "\(fixed(paints.percentile(95).milliseconds, 1)) ms", baseline: "—", ratio: "—",
      target: "≤ 100 ms")
    let size = Double(totals.bytes) / Double(max(1, totals.count)) / 1024
    row(
      "remote: preview JPEG, 720p, quality \(RemoteLink.previewQuality)",
      ours: "\(fixed(size, 0)) KiB (\(fixed(size * 30 / 1024, 2)) MiB/s at 30 fps)", baseline: "—",
      ratio: "—", target: "~1 MB/s")
    let idle = phases.first?.cpu ?? 0
    for phase in phases {
      row(
        "remote: CPU, \(phase.name) (720p30)", ours: "\(fixed(phase.cpu * 100, 1)) % of a core",
        baseline: phase.name == "no viewer" ? "—" : "\(fixed(idle * 100, 1)) % (none)",
        ratio: "—", target: "—")
    }
    if phases.count == 3 {
      let perViewer = (phases[2].cpu - phases[1].cpu) / 9
      row(
        "remote: CPU per extra viewer", ours: "\(fixed(perViewer * 100, 2)) % of a core",
        baseline: "—", ratio: "—", target: "—")
    }
    for phase in phases {
      row(
        "remote: shutter lag p95, \(phase.name)",
        ours: "\(fixed(phase.lag.percentile(95).milliseconds, 1)) ms", baseline: "—", ratio: "—",
        target: "≤ 33 ms")
      row(
        "remote: tick lateness max, \(phase.name)",
        ours: "\(fixed(phase.late.percentile(100).milliseconds, 2)) ms", baseline: "—",
        ratio: "—", target: "≤ 5 ms")
    }
    print(
      "  (\(paints.values.count) paints; resident memory after each phase: "
        + phases.map { "\($0.name) \(fixed($0.rss, 0)) MiB" }.joined(separator: ", ")
        + "; frames received by the 10 viewers and the stuck one: \(received.trimmingCharacters(in: .whitespacesAndNewlines)))"
    )
  }

  /// One phase: 8 s of CPU, then the shutter lag on the running stream and three 3 s counts.
  private static func remotePhase(
    _ name: String, camera: LiveCamera
  ) async -> (
    name: String, cpu: Double, lag: Sample, late: Sample, rss: Double
  ) {
    let cpuStart = processCPU()
    let start = clock.now
    try? await Task.sleep(for: .seconds(8))
    let cpu = (processCPU() - cpuStart) / start.duration(to: clock.now).secondsValue
    var lags: [Duration] = []
    if let session = try? await camera.open() {
      lags = (try? await shutterLags(session)) ?? []
      await session.close()
    }
    let late = await tickLateness(camera)
    return (name, cpu, Sample(lags), Sample(late), residentMiB())
  }

  /// Three runs of a 3 s count on `camera`: how late each tick was published.
  private static func tickLateness(_ camera: LiveCamera) async -> [Duration] {
    let pipeline = CameraPipeline(source: camera, sink: nil, clock: clock, filter: .auto)
    let clock = clock
    let late = Locked([Duration]())
    for _ in 0..<3 {
      let session = PhotoTimerSession(
        configuration: PhotoTimerConfiguration(countdownSeconds: 3),
        services: pipeline.services(location: .disabled(reason: "bench")), clock: clock)
      let start = Locked<ContinuousClock.Instant?>(nil)
      _ = await session.run { event in
        guard case .run(let inner, _) = event else { return }
        let now = clock.now
        switch inner.kind {
        case .started: start.withLock { $0 = now }
        case .tick(let remaining):
          if let first = start.withLock({ $0 }) {
            late.withLock {
              $0.append(first.advanced(by: .seconds(3 - remaining)).duration(to: now))
            }
          }
        default: break
        }
      }
    }
    return late.withLock { $0 }
  }

  /// This process's resident memory, in MiB.
  private static func residentMiB() -> Double {
    let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = Double(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    return pages * 4096 / 1_048_576
  }
}
