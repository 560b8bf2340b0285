import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerLocation

extension Benchmarks {
  /// From connecting to gpsd (fed by gpsfake, one epoch every 0.2 s) to the first accepted fix.
  static func firstFix() async {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
      print("gpsd: gpsfake is not installed (package gpsd-clients); figure skipped")
      return
    }
    let port = UInt16.random(in: 40_000...59_000)
    let log = "Tests/PhotoTimerGPSDTests/Fixtures/golden-gate-park.nmea"
    let gpsfake = Process()
    gpsfake.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    // NB: SIGINT reset before exec, so gpsfake can be asked to stop its gpsd.
    gpsfake.arguments = [
      "-c",
      "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
        + "os.execv('/usr/bin/gpsfake', ['gpsfake'] + sys.argv[1:])",
      "-q", "-c", "0.2", "-P", String(port), log,
    ]
    gpsfake.standardOutput = FileHandle.nullDevice
    gpsfake.standardError = FileHandle.nullDevice
    do {
      try gpsfake.run()
    } catch {
      print("gpsd: could not start gpsfake: \(error)")
      return
    }
    defer {
      // NB: gpsfake does not always end on SIGINT (it waits on its clients): a bounded wait,
      // then SIGKILL for it and for the gpsd serving this port, as the tests do.
      gpsfake.interrupt()
      let deadline = ContinuousClock.now + .seconds(2)
      while gpsfake.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
      if gpsfake.isRunning { kill(gpsfake.processIdentifier, SIGKILL) }
      let pkill = Process()
      pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
      pkill.arguments = ["-KILL", "-f", "gpsd .*-S \(port) "]
      try? pkill.run()
      pkill.waitUntilExit()
    }
    _ = BundledGeocoder.shared  // loaded once, as a second run of the app would find it
    let endpoint = GPSDEndpoint(host: "127.0.0.1", port: port)
    var times: [Duration] = []
    for attempt in 0..<40 where times.count < 7 {
      // A new source each time, so no fix is cached between runs.
      let source = GPSDLocationSource(endpoint: endpoint, clock: clock)
      let start = clock.now
      do {
        _ = try await source.locate(within: .seconds(5))
        times.append(start.duration(to: clock.now))
      } catch {
        // gpsd is still starting: try again shortly.
        if attempt == 39 { print("gpsd: no fix from gpsfake: \(error)") }
        try? await Task.sleep(for: .milliseconds(100))
      }
    }
    guard !times.isEmpty else { return }
    let sample = Sample(times)
    row(
      "gpsd: connect → first accepted fix", ours: "\(fixed(sample.median.milliseconds, 1)) ms",
      baseline: "max \(fixed(sample.percentile(100).milliseconds, 1)) ms", ratio: "",
      target: "epoch every 200 ms")
  }
}
