import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX

/// The booth's screen: `phototimer-gtk --booth --fullscreen` on a 1920 × 1080 Xvfb with a
/// 1080p30 lavfi source, its CPU during a count beside `ffplay -fs` showing the same source
/// on the same screen.
extension Benchmarks {
  static let fullscreenSource = "testsrc2=size=1920x1080:rate=30"

  static func windowFullscreen() async {
    guard
      let (binary, server) = await windowBench("window fullscreen", width: 1920, height: 1080)
    else { return }
    var ours: [WindowRun] = []
    var ffplay: [Double] = []
    for _ in 0..<3 {
      guard
        let run = await windowRun(
          binary, display: server.name,
          camera: [
            "--camera", "ffmpeg:\(fullscreenSource)", "--ffmpeg-format", "lavfi", "--booth",
            "--fullscreen", "--idle", "0", "--shots", "1",
          ])
      else { break }
      ours.append(run)
      if let cpu = await ffplayRun(
        display: server.name, source: fullscreenSource, size: ["-fs"])
      {
        ffplay.append(cpu)
      }
    }
    await server.stop()
    guard ours.count == 3, ffplay.count == 3 else {
      print("window fullscreen: a run failed (\(ours.count) of ours, \(ffplay.count) of ffplay)")
      return
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let cpu = ours.map(\.cpu)
    let withFFmpeg = ours.map { $0.cpu + $0.ffmpegCPU }
    row(
      "booth screen: CPU, fullscreen 1080p30", ours: "\(fixed(median(cpu) * 100, 1)) %",
      baseline: "\(fixed(median(ffplay) * 100, 1)) % (ffplay -fs)",
      ratio: ratio(median(cpu), median(ffplay)), target: "≤ 1× ffplay")
    row(
      "booth screen: CPU with its ffmpeg", ours: "\(fixed(median(withFFmpeg) * 100, 1)) %",
      baseline: "\(fixed(median(ffplay) * 100, 1)) % (ffplay -fs)",
      ratio: ratio(median(withFFmpeg), median(ffplay)), target: "")
    print(
      "  (3 runs on a 1920×1080 Xvfb, 15 s each during a 20 s count; fps "
        + "\(ours.map { fixed($0.framesPerSecond, 1) }), CPU \(cpu.map { fixed($0 * 100, 1) }) %,"
        + " its ffmpeg \(ours.map { fixed($0.ffmpegCPU * 100, 1) }) %, ffplay -fs "
        + "\(ffplay.map { fixed($0 * 100, 1) }) % generating and showing the same source)")
  }
}
