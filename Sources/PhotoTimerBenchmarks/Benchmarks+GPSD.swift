import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerHarnesses
import PhotoTimerLocation
import PhotoTimerPOSIX

extension Benchmarks {
  /// From connecting to gpsd (fed by gpsfake, one epoch every 0.2 s) to the first accepted fix.
  static func firstFix() async {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
      print("gpsd: gpsfake is not installed (package gpsd-clients); figure skipped")
      return
    }
    let gpsfake: GPSFake
    do {
      gpsfake = try await GPSFake.start(
        replaying: "Tests/PhotoTimerGPSDTests/Fixtures/golden-gate-park.nmea", cycle: 0.2)
    } catch {
      print("gpsd: \(error)")
      return
    }
    defer { gpsfake.stop() }
    _ = BundledGeocoder.shared  // loaded once, as a second run of the app would find it
    let endpoint = GPSDEndpoint(host: "127.0.0.1", port: gpsfake.port)
    var times: [Duration] = []
    for attempt in 0..<40 where times.count < 7 {
      // A new source each time, so no fix is cached between runs.
      let source = GPSDLocationSource(endpoint: endpoint, clock: clock)
      let start = clock.now
      do {
        _ = try await source.locate(within: .seconds(5))
        times.append(start.duration(to: clock.now))
      } catch {
        // gpsd opens the receiver on the first watch, and a fresh one can take a while: again.
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

/// A gpsd gone wild: one TPV every millisecond for 10 s, from a stand-in server (Python, so its
/// CPU is not ours), every report imprecise but the last. The location step must read them as
/// they come (no backlog: the last one, the one precise fix, ends it at once), with bounded CPU
/// and no growth in memory. The baseline is gpsd's own client, `gpspipe -w`, reading the same
/// flood to /dev/null.
extension Benchmarks {
  nonisolated static let floodReports = 10_000

  /// The stand-in: prints its port, then `last NS` (CLOCK_MONOTONIC) just before it sends the
  /// last report, then `done`; stays connected until the client closes.
  nonisolated static let floodServer = """
    import socket, sys, time
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
    print(s.getsockname()[1], flush=True)
    c, _ = s.accept()
    c.sendall(b'{"class":"VERSION","release":"3.22"}\\n')
    c.recv(256)
    n = int(sys.argv[1]); start = time.monotonic_ns()
    for i in range(n):
        target = start + (i + 1) * 1000000
        while time.monotonic_ns() < target:
            time.sleep(max(target - time.monotonic_ns(), 0) / 1e9)
        eph = 5 if i == n - 1 else 151 + (i * 7919) % 1800
        if i == n - 1: print("last", time.monotonic_ns(), flush=True)
        c.sendall(b'{"class":"TPV","mode":2,"lat":48.8584,"lon":2.2945,"eph":%d}\\n' % eph)
    print("done", (time.monotonic_ns() - start) // 1000000, flush=True)
    c.recv(1)
    """

  /// One flood: the server, and the lines it printed, read on a thread of their own.
  struct Flood {
    let server: ChildProcess
    let port: UInt16
    private var lines: AsyncStream<String>.Iterator

    init?() async {
      guard
        let server = try? ChildProcess(command: [
          "python3", "-c", Benchmarks.floodServer, String(Benchmarks.floodReports),
        ])
      else { return nil }
      self.server = server
      let (stream, continuation) = AsyncStream.makeStream(of: String.self)
      Thread {
        var pending = ""
        while let bytes = try? server.output.read(upTo: 256), !bytes.isEmpty {
          pending += String(decoding: bytes, as: UTF8.self)
          while let newline = pending.firstIndex(of: "\n") {
            continuation.yield(String(pending[..<newline]))
            pending.removeSubrange(...newline)
          }
        }
        continuation.finish()
      }.start()
      var lines = stream.makeAsyncIterator()
      guard let first = await lines.next(), let port = UInt16(first) else {
        _ = try? await server.stop()
        server.closePipes()
        return nil
      }
      self.port = port
      self.lines = lines
    }

    /// The next line the server printed, split in words.
    mutating func next() async -> [Substring] { (await lines.next() ?? "").split(separator: " ") }

    func stop() async {
      _ = try? await server.stop()
      server.closePipes()
    }
  }

  static func gpsdFlood() async {
    guard access("/usr/bin/python3", X_OK) == 0 else {
      print("gpsd flood: needs python3; figure skipped")
      return
    }
    _ = BundledGeocoder.shared
    var cpu: [Double] = []
    var lags: [Duration] = []
    var growth: [Double] = []
    var baseline: [Double] = []
    for _ in 0..<3 {
      guard var flood = await Flood() else {
        print("gpsd flood: the stand-in server did not start")
        return
      }
      let source = GPSDLocationSource(
        endpoint: GPSDEndpoint(host: "127.0.0.1", port: flood.port), clock: clock)
      let cpuStart = processCPU()
      let wallStart = monotonicNanoseconds()
      // Resident memory 2 s into the flood and 9 s into it: what a backlog would grow.
      let sampler = Task.detached { () -> (Int, Int) in
        try? await Task.sleep(for: .seconds(2))
        let early = residentBytes()
        try? await Task.sleep(for: .seconds(7))
        return (early, residentBytes())
      }
      let tag = try? await source.preparation().perform()
      let returned = monotonicNanoseconds()
      let (early, late) = await sampler.value
      let cpuEnd = processCPU()
      let last = await flood.next()
      await flood.stop()
      guard tag?.horizontalError == 5, last.first == "last", let sent = Int64(last[1]) else {
        print("gpsd flood: the step did not end on the last report (\(String(describing: tag)))")
        return
      }
      cpu.append((cpuEnd - cpuStart) / (Double(returned - wallStart) / 1e9))
      lags.append(.nanoseconds(returned - sent))
      growth.append(Double(late - early) / 1024)

      // The same flood read by gpspipe.
      guard var again = await Flood(),
        let pipe = try? ChildProcess(command: [
          "/bin/sh", "-c", "exec gpspipe -w 127.0.0.1:\(again.port) >/dev/null 2>&1",
        ])
      else { continue }
      _ = await again.next()  // `last`
      let done = await again.next()
      let seconds = done.count > 1 ? (Double(done[1]) ?? 0) / 1000 : 0
      if let entry = ProcessEntry(pid: pipe.pid), seconds > 0 {
        baseline.append(entry.cpuSeconds / seconds)
      }
      _ = try? await pipe.stop()
      pipe.closePipes()
      await again.stop()
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let ours = median(cpu)
    let theirs = baseline.isEmpty ? nil : median(baseline)
    row(
      "gpsd flood: CPU reading a TPV a ms for 10 s", ours: "\(fixed(ours * 100, 1)) %",
      baseline: theirs.map { "gpspipe \(fixed($0 * 100, 1)) %" } ?? "—",
      ratio: theirs.map { "\(fixed($0 / ours, 2))×" } ?? "—", target: "bounded")
    row(
      "gpsd flood: last report sent → step done",
      ours: "\(fixed(Sample(lags).median.milliseconds, 2)) ms",
      baseline: "—", ratio: "—", target: "no backlog")
    row(
      "gpsd flood: resident memory, 2 s → 9 s in", ours: "\(fixed(median(growth), 0)) KiB",
      baseline: "—", ratio: "—", target: "flat")
    print(
      "  (3 floods of \(floodReports) reports; CPU per run \(cpu.map { fixed($0 * 100, 1) }) %, "
        + "gpspipe \(baseline.map { fixed($0 * 100, 1) }) %, lag \(lags.map { fixed($0.milliseconds, 2) }) ms, "
        + "memory \(growth.map { fixed($0, 0) }) KiB)")
  }
}
