import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The booth's soak (`make soak`; a short form in `make bench`): the release `phototimer
/// booth` in a pseudo-terminal, as an evening's booth runs: session after session started by
/// a key, four shots each with its collage and guest link, the process's resident memory and
/// descriptors read from /proc for a trend.
extension Benchmarks {
  static func soakBooth(sessions: Int) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("phototimer")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      return print("booth soak: \(binary.path) not built (make soak builds it)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-booth-soak-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // NB: no count, no review, no pause between shots: the figure is the booth's own cost
    // and footprint, not its waits. 640 × 360 shots, the people step on (the scene camera's
    // faces), the remote serving each session's guest link.
    let arguments = [
      "booth", "--shots", "4", "--review", "0", "--between", "0", "-s", "0", "--camera",
      "scene", "--size", "640x360", "--no-location", "--no-preview", "--remote=127.0.0.1:0",
      "--event", "soak", "-o", folder.path,
    ]
    guard let run = try? PseudoTerminal(binary: binary, arguments: arguments, environment: [:])
    else { return print("booth soak: no pseudo-terminal here") }
    let pid = run.process.processIdentifier
    guard run.read(until: { $0.contains("to start") }, limit: .seconds(60)) else {
      run.press("q")
      run.finish()
      return print("booth soak: the booth did not start")
    }
    let log = folder.appendingPathComponent("soak/event.jsonl")
    // NB: a session is done when the event's log says so (its collage saved and said); the
    // log is read from where the last look stopped, so looking costs the same all evening.
    var offset: UInt64 = 0
    var complete = 0
    var partial = ""
    func completed() -> Int {
      guard let handle = try? FileHandle(forReadingFrom: log) else { return complete }
      defer { try? handle.close() }
      try? handle.seek(toOffset: offset)
      let data = (try? handle.readToEnd()) ?? Data()
      offset += UInt64(data.count)
      partial += String(decoding: data, as: UTF8.self)
      var lines = partial.split(separator: "\n", omittingEmptySubsequences: false)
      partial = String(lines.removeLast())
      complete +=
        lines.filter {
          $0.contains("\"event\":\"session\"") && $0.contains("\"state\":\"complete\"")
        }.count
      return complete
    }
    var samples: [Footprint] = [Footprint.of(pid)]
    let started = clock.now
    var times: [Duration] = []
    for session in 1...sessions {
      let start = clock.now
      run.press(" ")
      // NB: the output is drained meanwhile, so the booth never waits on its terminal.
      guard run.read(until: { _ in completed() >= session }, limit: .seconds(60)) else {
        print("booth soak: session \(session) made no collage within a minute")
        break
      }
      times.append(start.duration(to: clock.now))
      if session % 50 == 0 { samples.append(Footprint.of(pid)) }
    }
    let wall = started.duration(to: clock.now)
    run.press("q")
    run.finish()
    let collages =
      ((try? FileManager.default.contentsOfDirectory(
        atPath: folder.appendingPathComponent("soak").path)) ?? []).filter {
        // NB: sessions within one second: `IMG_…_collage_2.jpg`.
        $0.contains("_collage")
      }.count
    row(
      "booth soak: \(sessions) × 4 shots, collages", ours: "\(collages)",
      baseline: "log: \(completed()) complete", ratio: "—", target: "all")
    row(
      "booth soak: key → collage, p50 / p99",
      ours:
        "\(fixed(Sample(times).median.milliseconds, 0)) / "
        + "\(fixed(Sample(times).percentile(99).milliseconds, 0)) ms",
      baseline: "—", ratio: "—", target: "flat")
    printSlopes("booth soak", per: "50", samples, wall: wall)
  }
}

extension Benchmarks.Footprint {
  /// The resident memory, descriptors and threads of process `pid`, from /proc.
  static func of(_ pid: Int32) -> Self {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Double {
      let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
      return Double(
        line.split(whereSeparator: \.isWhitespace).dropFirst().first.map(String.init) ?? "")
        ?? 0
    }
    let descriptors =
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0
    return Self(
      residentKiB: field("VmRSS:"), descriptors: Double(descriptors), threads: field("Threads:"))
  }
}
