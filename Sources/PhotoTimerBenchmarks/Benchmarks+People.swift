import Foundation
import PhotoTimer
import PhotoTimerFaces
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

/// The people step's figures (issue 31), on six copies of the astronaut's head (NASA, public
/// domain; the face tests' fixture), each 1/17 of the frame's width, on a grey wall.
extension Benchmarks {
  /// The fixture the six faces are made of.
  static let astronaut = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/PhotoTimerFacesTests/Fixtures/astronaut.jpg")

  static func people() async {
    guard FaceModel.standard.isInstalled else {
      print("people: no face model (\(FaceModel.standard.path)); apt-get install libdlib-data")
      return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-bench-people-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    await detectionPerFrame(folder)
    runInChild(["--people-memory"])
    await peopleCommand(folder)
  }

  /// A JPEG of six faces at `width` × `height`, made by ffmpeg from the fixture.
  static func sixFaces(width: Int, height: Int, in folder: URL) async -> URL? {
    // The fixture's face is 86 px wide in a 150 × 170 crop around the head.
    let face = Double(width) / 17
    let head = Int((face * 150 / 86).rounded()) / 2 * 2
    var graph =
      "[1]crop=150:170:147:50,scale=\(head):-2,split=6[h0][h1][h2][h3][h4][h5];[0]null[b0]"
    for index in 0..<6 {
      let x = Int(Double(width) * [0.2, 0.5, 0.8][index % 3]) - head / 2
      let y = Int(Double(height) * [0.3, 0.7][index / 3]) - head / 2
      graph += ";[b\(index)][h\(index)]overlay=\(x):\(y)[b\(index + 1)]"
    }
    let output = folder.appendingPathComponent("six-\(width)x\(height).jpg")
    let made = try? await ChildProcess.run([
      "ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
      "color=c=0x8a8a8a:s=\(width)x\(height):d=1", "-i", astronaut.path, "-filter_complex",
      graph, "-map", "[b6]", "-frames:v", "1", "-q:v", "2", output.path,
    ])
    guard made?.succeeded == true else {
      print("people: ffmpeg could not make the six faces: \(made?.output ?? "not run")")
      return nil
    }
    return output
  }

  /// Detection per frame, the way the people step follows known faces (a region around each)
  /// beside dlib's detector over the whole frame at the scale a face of 1/20 of the width
  /// needs (what a search without known faces costs).
  static func detectionPerFrame(_ folder: URL) async {
    guard let finder = try? DlibFaceFinder.load() else {
      print("people: the face model did not load")
      return
    }
    let search = FaceSearch(finder: finder)
    for (width, height) in [(640, 360), (1280, 720), (1920, 1080)] {
      guard let file = await sixFaces(width: width, height: height, in: folder),
        let bytes = try? [UInt8](Data(contentsOf: file)),
        let frame = try? JPEGCodec.decode(bytes, path: file.path)
      else { return }
      let known = (try? search.boxes(in: frame, near: [], everywhere: true)) ?? []
      var whole: [Duration] = []
      var ours: [Duration] = []
      var found = 0
      let scale = search.scaleEverywhere(width: width)
      for _ in 0..<9 {
        let start = ContinuousClock.now
        // NB: dlib plainly, one pyramid (the people step's search everywhere runs two).
        _ = try? finder.faces(in: GreyImage(frame, scale: scale))
        let middle = ContinuousClock.now
        found = (try? search.boxes(in: frame, near: known, everywhere: false))?.count ?? 0
        whole.append(start.duration(to: middle))
        ours.append(middle.duration(to: .now))
      }
      let o = Sample(ours).median.milliseconds
      let w = Sample(whole).median.milliseconds
      row(
        "faces: detection a frame, \(width)×\(height) (\(found) of 6)",
        ours: "\(fixed(o, 1)) ms",
        baseline:
          "\(fixed(w, 1)) ms (dlib, whole frame ×\(fixed(scale, 2)))",
        ratio: ratio(w, o), target: "ours ≤ 0.5× (≥ 2.0×)")
    }
  }

  /// `--people-memory`, in a process of its own: resident memory before and after the face
  /// model is loaded.
  static func peopleMemory() async {
    let before = residentBytes()
    let start = ContinuousClock.now
    guard let finder = try? DlibFaceFinder.load() else {
      print("people: the face model did not load")
      return
    }
    let took = start.duration(to: .now)
    let after = residentBytes()
    withExtendedLifetime(finder) {}
    let mib = { (bytes: Int) in fixed(Double(bytes) / 1_048_576, 1) }
    row(
      "faces: resident memory, model loaded",
      ours: "\(mib(after)) MiB", baseline: "\(mib(before)) MiB without",
      ratio: "+\(mib(after - before)) MiB",
      target: "reported (load \(fixed(took.milliseconds, 0)) ms)")
  }

  /// One run of the release `phototimer` on the six faces at 720p30: its CPU and what its
  /// events say.
  struct CommandFigures: Sendable {
    var cpu: Duration
    /// Each tick's and the shutter's lateness against its second.
    var lateness: [Duration] = []
    /// Zero (the shutter) to the photo saved.
    var zeroToSaved: Duration?
    /// What the captured event says of the people.
    var people = "no people"

    init(cpu: Duration, events: [[String: Any]], seconds: Int) {
      self.cpu = cpu
      var shutter: Double?
      for event in events {
        guard let t = event["t"] as? Double, let name = event["event"] as? String else { continue }
        switch name {
        case "tick":
          if let remaining = event["remaining"] as? Int {
            lateness.append(.seconds(t - Double(seconds - remaining)))
          }
        case "shutter":
          shutter = t
          lateness.append(.seconds(t - Double(seconds)))
        case "captured":
          if let shutter { zeroToSaved = .seconds(t - shutter) }
          if let found = event["people"] as? [String: Any] {
            people =
              "\(found["count"] ?? "?") people, \(found["eyesClosed"] ?? "?") closed, frame "
              + "\(found["frameOffset"] ?? "?") s"
          }
        default: break
        }
      }
    }
  }

  /// The release `phototimer` (with the people step, or `--no-people`), a 10 s count on the
  /// six faces at 1280×720, 30 fps: CPU time of it and its ffmpeg (wait4), and its events.
  static func commandRun(
    _ binary: String, picture: URL, people: Bool, folder: URL
  ) async
    -> CommandFigures?
  {
    let output = folder.appendingPathComponent(
      "events-\(people)-\(UInt32.random(in: 0...UInt32.max)).jsonl")
    let camera =
      "ffmpeg:movie=\(picture.path),loop=loop=-1:size=1,setpts=N/30/TB,format=yuvj420p"
    var arguments = [
      "--json", "-s", "10", "--no-location", "--camera", camera, "--ffmpeg-format", "lavfi",
      "-o", folder.path, "--blink-window", "1",
    ]
    if !people { arguments.append("--no-people") }
    return await Task.detached {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(
        &actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let argv = ([binary] + arguments).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { return nil }
      var status: Int32 = 0
      var usage = rusage()
      // NB: a thread of its own (detached task on a benchmark with nothing else to run), and
      // the rusage of the run with every child it waited for (its ffmpeg).
      guard wait4(pid, &status, 0, &usage) == pid else { return nil }
      let cpu =
        Duration.seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      let events = text.split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
      }
      return CommandFigures(cpu: cpu, events: events, seconds: 10)
    }.value
  }

  /// A bare timer's own lateness: 10 wake-ups one second apart on `ContinuousClock`, the
  /// worst (what `cyclictest --policy=other` measures, for the command's ticks to be set
  /// beside).
  static func bareTimerWorst() async -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    var worst = Duration.zero
    for second in 1...10 {
      let deadline = start.advanced(by: .seconds(second))
      try? await clock.sleep(until: deadline)
      worst = max(worst, deadline.duration(to: clock.now))
    }
    return worst
  }

  /// How many command runs each way: the worst of a count's eleven wake-ups moves by a
  /// millisecond from run to run, so its median needs more than three.
  static let peopleRuns = 5

  /// The command's figures with six faces: CPU of the people step, tick and shutter lateness
  /// with it on, off and for a bare timer (alone, and beside the run with people on, under
  /// the same load), zero → saved.
  static func peopleCommand(_ folder: URL) async {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("phototimer").path
    guard FileManager.default.isExecutableFile(atPath: binary),
      let picture = await sixFaces(width: 1280, height: 720, in: folder)
    else {
      print("people: \(binary) not built (make bench builds it)")
      return
    }
    var on: [CommandFigures] = []
    var off: [CommandFigures] = []
    var bare: [Duration] = []
    var beside: [Duration] = []
    for _ in 0..<peopleRuns {
      // NB: the bare timer starts as the command does and wakes through its count (about
      // 12 s with the camera's opening): on the same machine, under the same load.
      async let besideOn = bareTimerWorst()
      guard
        let withPeople = await commandRun(binary, picture: picture, people: true, folder: folder),
        let without = await commandRun(binary, picture: picture, people: false, folder: folder)
      else {
        print("people: the command did not run")
        return
      }
      beside.append(await besideOn)
      on.append(withPeople)
      off.append(without)
      bare.append(await bareTimerWorst())
    }
    let cpuOn = Sample(on.map(\.cpu)).median
    let cpuOff = Sample(off.map(\.cpu)).median
    // NB: the count is 10 s; the people step's share is what it adds to the same run without it.
    let share = (cpuOn - cpuOff).secondsValue / 10 * 100
    let shares = zip(on, off).map { fixed(($0.cpu - $1.cpu).secondsValue * 10, 0) }
    row(
      "people step CPU, 10 s count, 720p30, 6 faces",
      ours: "\(fixed(share, 0)) % of a core",
      baseline:
        "run \(fixed(cpuOn.secondsValue, 2)) s, --no-people \(fixed(cpuOff.secondsValue, 2)) s",
      ratio: "", target: "≤ 35 % of a core")
    print("  (each run: " + shares.joined(separator: " / ") + " %)")
    // NB: the model's reading (once per process, as the camera opens) is in that share; timed
    // here alone, warm.
    let loadStart = ContinuousClock.now
    let loaded = try? DlibFaceFinder.load()
    let load = loadStart.duration(to: .now).secondsValue
    withExtendedLifetime(loaded) {}
    print(
      "  (of which the model's reading, once per process: \(fixed(load, 2)) s; the count's "
        + "looks alone: \(fixed(share - load * 10, 0)) % of a core)")
    let worst = { (runs: [CommandFigures]) in runs.map { $0.lateness.max() ?? .zero } }
    let ms = { (values: [Duration]) in fixed(Sample(values).median.milliseconds, 2) }
    row(
      "worst tick/shutter late, people on (off)",
      ours: "\(ms(worst(on))) ms (\(ms(worst(off))) ms)",
      baseline: "bare timer \(ms(beside)) ms beside it, \(ms(bare)) ms alone",
      ratio: "", target: "on ≤ bare timer")
    let each = { (values: [Duration]) in
      values.map { fixed($0.milliseconds, 2) }.joined(separator: " / ")
    }
    print(
      "  (each run, on: \(each(worst(on))); off: \(each(worst(off))); bare beside: "
        + "\(each(beside)); alone: \(each(bare)) ms)")
    let saved = on.compactMap(\.zeroToSaved)
    row(
      "zero → saved, 1 s window, 6 faces",
      ours: "\(fixed(Sample(saved).median.milliseconds, 0)) ms",
      baseline:
        "\(fixed(Sample(off.compactMap(\.zeroToSaved)).median.milliseconds, 0)) ms --no-people",
      ratio: "", target: "≤ 1300 ms")
    print("  (people on, each run: " + on.map(\.people).joined(separator: "; ") + ")")
  }
}
