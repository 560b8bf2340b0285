import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerImaging

#if canImport(Glibc)
  import Glibc
#endif

extension Benchmarks {
  /// Shutter lag on ffmpeg's lavfi testsrc2 (640×480, 30 fps): ours (streaming during the
  /// count, the frame nearest the shutter kept) beside the pibooth way (a cold
  /// `ffmpeg -frames:v 1` started at zero).
  static func shutterLag() async {
    guard access("/usr/bin/ffmpeg", X_OK) == 0 else {
      print("shutter lag: ffmpeg is not installed (make setup installs it)")
      return
    }
    let source = "testsrc2=size=640x480:rate=30"
    let camera = FFmpegCamera(input: source, format: "lavfi", clock: clock)
    var ours: [Duration] = []
    do {
      let session = try await camera.open()
      ours = try await shutterLags(session)
      await session.close()
    } catch {
      print("shutter lag: \(error)")
      return
    }
    var cold: [Duration] = []
    for _ in 0..<9 {
      let start = clock.now
      guard coldCapture(source) else {
        print("shutter lag: the cold ffmpeg capture failed")
        return
      }
      cold.append(start.duration(to: clock.now))
    }
    let o = Sample(ours)
    let c = Sample(cold)
    row(
      "shutter lag, lavfi 640×480 30 fps, median", ours: "\(fixed(o.median.milliseconds, 1)) ms",
      baseline: "\(fixed(c.median.milliseconds, 1)) ms (cold)",
      ratio: ratio(c.median.milliseconds, o.median.milliseconds), target: "≤ 33 ms")
    row(
      "shutter lag, p95", ours: "\(fixed(o.percentile(95).milliseconds, 1)) ms",
      baseline: "\(fixed(c.percentile(95).milliseconds, 1)) ms (cold)",
      ratio: ratio(c.percentile(95).milliseconds, o.percentile(95).milliseconds),
      target: "≤ 33 ms")
  }

  /// 40 shutters at uneven moments on a warmed-up session: how far each kept frame is from
  /// its shutter instant.
  static func shutterLags(_ session: any CameraSession) async throws -> [Duration] {
    for _ in 0..<15 { _ = try await session.nextPreview() }
    var lags: [Duration] = []
    for round in 0..<40 {
      try await Task.sleep(for: .milliseconds(23 + (round * 7) % 41))
      let shutter = clock.now
      let frame = try await session.capture()
      // The frame's arrival, on the same clock: the session stamps from its own start, so
      // compare with a preview taken now.
      lags.append(try await lagOf(frame, shutter: shutter, session: session))
    }
    return lags
  }

  /// How far the kept frame is from the shutter instant. The session's timestamps count from
  /// its own start; the offset between that and the benchmark's clock is found from a frame
  /// stamped just now.
  static func lagOf(
    _ frame: Frame, shutter: ContinuousClock.Instant, session: any CameraSession
  )
    async throws -> Duration
  {
    let probe = try await session.nextPreview()
    let now = clock.now
    // `probe` arrived at `now` (within microseconds): that fixes the session's origin.
    let origin = now.advanced(by: .zero - probe.timestamp)
    let taken = origin.advanced(by: frame.timestamp)
    return taken > shutter ? shutter.duration(to: taken) : taken.duration(to: shutter)
  }

  /// `ffmpeg -frames:v 1` from a cold start, as pibooth does at zero; true when it worked.
  private static func coldCapture(_ source: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = [
      "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", source, "-frames:v",
      "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    // NB: timed to the last byte of the frame, not to Process's slow exit detection.
    return data.count == 640 * 480 * 3
  }
}
