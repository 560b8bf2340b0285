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
}
