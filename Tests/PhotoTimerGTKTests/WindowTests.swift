import Foundation
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// An X server of the tests' own, with what the tests do on it.
final class XServer: Sendable {
  private let server: VirtualDisplay
  var display: String { server.name }

  static let width = 1280
  static let height = 800

  init() async throws {
    server = try await VirtualDisplay(width: Self.width, height: Self.height)
  }

  func stop() async { await server.stop() }

  /// The screen as RGB bytes, also saved as `name.png` under `.build/window-screenshots/`
  /// for a person to look at.
  func screenshot(_ name: String) async throws -> Screenshot {
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-screen-\(getpid())-\(name).rgb")
    defer { try? FileManager.default.removeItem(at: raw) }
    let png = Screenshot.folder.appendingPathComponent("\(name).png")
    let result = try await ChildProcess.run([
      "ffmpeg", "-loglevel", "error", "-y", "-f", "x11grab", "-video_size",
      "\(Self.width)x\(Self.height)", "-i", display, "-frames:v", "1", "-f", "rawvideo",
      "-pix_fmt", "rgb24", raw.path, "-frames:v", "1", png.path,
    ])
    guard result.exit == .status(0), let data = FileManager.default.contents(atPath: raw.path),
      data.count == Self.width * Self.height * 3
    else { throw WindowTestError("screenshot failed: \(result.output)") }
    return Screenshot(width: Self.width, height: Self.height, pixels: [UInt8](data))
  }

  /// Presses `keys` (xdotool names) in the window called exactly "phototimer".
  func press(_ keys: String...) async throws {
    let result = try await ChildProcess.run(
      [
        "env", "DISPLAY=\(display)", "xdotool", "search", "--sync", "--name", "^phototimer$",
        "windowfocus", "--sync", "key",
      ] + keys)
    #expect(result.exit == .status(0), "xdotool: \(result.output)")
  }
}

extension XServer {
  /// Clicks (or touches) at `x`, `y` on the screen.
  func click(_ x: Int, _ y: Int) async throws {
    let result = try await ChildProcess.run([
      "env", "DISPLAY=\(display)", "xdotool", "mousemove", "--sync", "\(x)", "\(y)", "click", "1",
    ])
    #expect(result.exit == .status(0), "xdotool: \(result.output)")
  }
}

struct WindowTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Screen pixels.
struct Screenshot {
  let width: Int
  let height: Int
  let pixels: [UInt8]

  static let folder: URL = {
    // NB: .build/window-screenshots next to the test bundle's build folder.
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while url.path != "/", url.lastPathComponent != ".build" { url.deleteLastPathComponent() }
    if url.path == "/" { url = FileManager.default.temporaryDirectory }
    url.appendPathComponent("window-screenshots")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
    let index = (y * width + x) * 3
    return (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
  }

  /// The share of pixels in the rectangle within `tolerance` of `color` on every channel.
  func share(
    of color: (Int, Int, Int), tolerance: Int, x: Int = 0, y: Int = 0, width: Int? = nil,
    height: Int? = nil
  ) -> Double {
    let w = width ?? self.width
    let h = height ?? self.height
    var matching = 0
    for row in y..<(y + h) {
      for column in x..<(x + w) {
        let (r, g, b) = pixel(column, row)
        if abs(r - color.0) <= tolerance, abs(g - color.1) <= tolerance,
          abs(b - color.2) <= tolerance
        {
          matching += 1
        }
      }
    }
    return Double(matching) / Double(w * h)
  }

  /// How many pixels of the rectangle differ from `other`'s by more than `threshold` on some
  /// channel.
  func changed(
    from other: Screenshot, threshold: Int, x: Int, y: Int, width: Int, height: Int
  )
    -> Int
  {
    var count = 0
    for row in y..<(y + height) {
      for column in x..<(x + width) {
        let a = pixel(column, row)
        let b = other.pixel(column, row)
        if abs(a.0 - b.0) > threshold || abs(a.1 - b.1) > threshold || abs(a.2 - b.2) > threshold {
          count += 1
        }
      }
    }
    return count
  }
}

/// `phototimer-gtk` running on a test X server, with its trace read back.
final class RunningWindow: Sendable {
  let process: ChildProcess
  let trace: URL
  let folder: URL
  let log: URL
  let config: URL

  static let binary: URL = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("phototimer-gtk")

  init(
    _ arguments: [String], on server: XServer, name: String, settings: String? = nil,
    environment: [String] = []
  ) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-window-\(getpid())-\(name)")
    try? FileManager.default.removeItem(at: base)
    folder = base.appendingPathComponent("photos")
    config = base.appendingPathComponent("config")
    trace = base.appendingPathComponent("trace.txt")
    log = base.appendingPathComponent("log.txt")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    if let settings {
      let file = config.appendingPathComponent("phototimer/window.json")
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(settings.utf8).write(to: file)
    }
    // NB: the shell execs the window (same pid) with its output in a file: nothing can fill
    // a pipe nobody reads.
    process = try ChildProcess(
      command: [
        "/bin/sh", "-c", "log=$1; shift; exec env \"$@\" >\"$log\" 2>&1", "sh", log.path,
        "DISPLAY=\(server.display)", "XDG_CONFIG_HOME=\(config.path)",
        "PHOTOTIMER_GTK_TRACE=\(trace.path)", "HOME=\(base.path)",
      ] + environment + [Self.binary.path, "-o", folder.path, "--no-location"] + arguments)
  }

  var lines: [String] {
    ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// Waits (up to `limit`) for a trace line that starts with `prefix`, after `after` lines.
  @discardableResult
  func waitFor(
    _ prefix: String, after: Int = 0, limit: Duration = .seconds(20)
  ) async throws
    -> String
  {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let line = lines.dropFirst(after).first(where: { $0.hasPrefix(prefix) }) { return line }
      if process.exit != nil { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    throw WindowTestError(
      "no '\(prefix)' in the trace (\(process.exit.map { "\($0)" } ?? "running")): "
        + lines.suffix(5).joined(separator: " | ") + "; output: " + output)
  }

  var photos: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// Waits for the window to end by itself.
  func exit(limit: Duration = .seconds(10)) async throws -> ChildProcess.Exit {
    let process = process
    return try await withThrowingTaskGroup(of: ChildProcess.Exit?.self) { group in
      group.addTask { try await process.wait() }
      group.addTask {
        try await Task.sleep(for: limit)
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      guard let first else {
        process.terminate(grace: .milliseconds(100))
        throw WindowTestError("the window did not end within \(limit)")
      }
      return first
    }
  }

  func stop() async {
    _ = try? await process.stop(grace: .seconds(2))
    process.closePipes()
  }
}

/// The processes whose parent is `pid` and whose name is `name`.
func children(of pid: Int32, named name: String) -> [Int32] {
  ProcessTable.children(of: pid, named: name).map(\.pid)
}

/// Runs `body` with a fresh X server and the window on it, and stops both whatever happens.
func withWindow(
  _ arguments: [String], name: String, settings: String? = nil, environment: [String] = [],
  _ body: (XServer, RunningWindow) async throws -> Void
) async throws {
  let server = try await XServer()
  let window: RunningWindow
  do {
    window = try RunningWindow(
      arguments, on: server, name: name, settings: settings, environment: environment)
  } catch {
    await server.stop()
    throw error
  }
  do {
    try await body(server, window)
  } catch {
    await window.stop()
    await server.stop()
    throw error
  }
  await window.stop()
  await server.stop()
}

/// NASA's astronaut portrait (the face tests' fixture) as an endless camera, as a camera is: a
/// file would end before a slow machine's photo.
let astronautCamera: [String] = {
  let astronaut = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(
      "PhotoTimerFacesTests/Fixtures/astronaut.jpg")
  return [
    "--camera",
    "ffmpeg:movie=\(astronaut.path),loop=loop=-1:size=1,setpts=N/30/TB,format=yuvj420p",
    "--ffmpeg-format", "lavfi",
  ]
}()

let blue = (0x33, 0x66, 0xcc)
let blueSource = [
  "--camera", "ffmpeg:color=c=0x3366cc:size=640x480:rate=30", "--ffmpeg-format", "lavfi",
]

@Suite("phototimer-gtk in a window under Xvfb", .serialized, .timeLimit(.minutes(2)))
struct WindowTests {
  @Test(
    "the main actor runs in GTK's loop: a task started from a GTK callback runs on the GTK thread and its sleep wakes on time"
  )
  func mainActorInGLibLoop() async throws {
    try await withWindow(blueSource, name: "main-actor") { _, window in
      try await window.waitFor("main-sleep")
      let lines = window.lines
      #expect(lines.filter { $0.hasPrefix("main-thread") } == ["main-thread 1", "main-thread 1"])
      let late = try #require(
        lines.first { $0.hasPrefix("main-sleep") }.flatMap { Int($0.split(separator: " ")[1]) })
      // NB: a lower bound only (it never wakes early); how late it is, is the benchmark's.
      #expect(late >= 0)
    }
  }

  @Test("before the count, the preview's colour fills most of the window")
  func previewColour() async throws {
    try await withWindow(blueSource, name: "preview") { server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      let shot = try await server.screenshot("preview")
      // The window is 1024 × 720 at the origin (no window manager): the picture is its top.
      let share = shot.share(of: blue, tolerance: 6, width: 1024, height: 720)
      #expect(share > 0.6, "\(share) of the window is the source's colour")
    }
  }

  @Test(
    "space starts the count, drawn over the preview; Esc goes back to the preview with no file and only the preview's ffmpeg"
  )
  func countAndCancel() async throws {
    try await withWindow(blueSource + ["-s", "10"], name: "count") { server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      let before = try await server.screenshot("before-count")
      try await server.press("space")
      try await window.waitFor("status counting: 10")
      // NB: the label is set with the status; the next screenshot may still precede its frame.
      var during = try await server.screenshot("mid-count")
      for _ in 0..<50 {
        if during.changed(from: before, threshold: 40, x: 412, y: 200, width: 200, height: 200)
          > 2000
        {
          break
        }
        try await Task.sleep(for: .milliseconds(20))
        during = try await server.screenshot("mid-count")
      }
      let changed = during.changed(
        from: before, threshold: 40, x: 412, y: 200, width: 200, height: 200)
      #expect(changed > 2000, "\(changed) pixels changed where the count is drawn")
      // Away from the count, the preview is the same picture.
      let edge = during.changed(from: before, threshold: 40, x: 800, y: 40, width: 200, height: 200)
      #expect(edge < 100)

      let frames = window.lines.count
      try await server.press("Escape")
      try await window.waitFor("status idle", after: frames)
      // The preview goes on: new frames after the cancel.
      let afterCancel = window.lines.count
      try await window.waitFor("frame", after: afterCancel)
      #expect(window.photos.isEmpty)
      #expect(children(of: window.process.pid, named: "ffmpeg").count == 1)
    }
  }

  @Test(
    "--remote: the window prints its link; a phone's Start counts in the window and closes the Remote popover, a second is refused, Cancel ends it; a count started in the window shows on the remote"
  )
  func remote() async throws {
    try await withWindow(blueSource + ["-s", "10", "--remote=127.0.0.1:0"], name: "remote") {
      server, window in
      try await window.waitFor("status idle")
      let text = (try? String(contentsOf: window.log, encoding: .utf8)) ?? ""
      let link = try #require(
        text.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\?t=([0-9a-f]{32})/))
      let base = "http://127.0.0.1:\(link.output.1)"
      let auth = "Authorization: Bearer \(link.output.2)"
      func post(_ intent: String) async throws -> String {
        let output = try await ChildProcess.run([
          "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", auth,
          "\(base)/api/\(intent)",
        ]).output
        return output
      }
      // The phone's events, from before its Start: they name the camera, as --json does.
      // NB: read until the started event (stopped then), not for a fixed time: under
      // AddressSanitizer beside two busy loops (make stress) the count began after curl's
      // earlier 3 s limit.
      let connected = OneShot<Void>()
      let events = Task {
        defer { connected.fulfil(.success(())) }  // NB: a curl that never connected ends too
        return try await ChildProcess.run(
          ["curl", "-s", "-N", "--max-time", "60", "-H", auth, "\(base)/api/events"],
          received: { curl, output in
            if !output.isEmpty { connected.fulfil(.success(())) }
            // NB: the started event's whole line.
            let text = String(decoding: output, as: UTF8.self)
            if let started = text.range(of: "\"event\":\"started\""),
              text[started.upperBound...].contains("\n")
            {
              curl.terminate()
            }
          })
      }
      try await connected.value()
      // The Remote popover open (Alt+R) when the phone starts: it closes over the count.
      let opening = window.lines.count
      try await server.press("alt+r")
      try await window.waitFor("popover 1", after: opening)
      let starting = window.lines.count
      #expect(try await post("start") == "202")
      try await window.waitFor("status counting: 10")
      try await window.waitFor("popover 0", after: starting)
      #expect(try await post("start") == "409")
      let stream = try await events.value.output
      #expect(stream.contains(/"event":"started".*"camera":\{"kind":"ffmpeg"/), "\(stream)")
      let lines = window.lines.count
      #expect(try await post("cancel") == "202")
      try await window.waitFor("status idle", after: lines)
      #expect(window.photos.isEmpty)
      let state = try await ChildProcess.run(["curl", "-s", "-H", auth, "\(base)/api/state"]).output
      #expect(state.contains("\"actions\":[\"start\""))
      let denied = try await ChildProcess.run([
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/api/state",
      ]).output
      #expect(denied == "403")
      // The other way round: space in the window, and the remote's state counts.
      let before = window.lines.count
      try await server.press("space")
      try await window.waitFor("status counting: 10", after: before)
      let counting = try await ChildProcess.run([
        "curl", "-s", "-H", auth, "\(base)/api/state",
      ]).output
      #expect(
        counting.contains("\"actions\":[\"take-now\",\"cancel\",\"restart\",\"start-when-ready\"]"))
      #expect(counting.contains(/"count":\d/))
    }
  }

  @Test(
    "during the count the face is outlined in green over the preview, mirrored with it"
  )
  func faces() async throws {
    let camera = astronautCamera + ["--mirror", "-s", "300"]
    try await withWindow(camera, name: "faces") { server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      try await server.press("space")
      try await window.waitFor("status counting")
      // NB: the model loads and the step looks; under a sanitizer that takes seconds.
      try await window.waitFor("faces 1", limit: .seconds(90))
      let green = (51, 209, 122)
      // NB: the outline is drawn on the next frame after the trace's line.
      var shot = try await server.screenshot("faces")
      var tries = 0
      while shot.share(of: green, tolerance: 8) * Double(shot.width * shot.height) < 200,
        tries < 100
      {
        tries += 1
        try await Task.sleep(for: .milliseconds(50))
        shot = try await server.screenshot("faces")
      }
      // Where the picture is: the columns of the preview's middle row that are not black.
      let row = 300
      let picture = (0..<shot.width).filter { shot.pixel($0, row) != (0, 0, 0) }
      let (left, right) = (try #require(picture.first), try #require(picture.last))
      var outline: [(Int, Int)] = []
      for y in 0..<720 {
        for x in left...right {
          let (r, g, b) = shot.pixel(x, y)
          if abs(r - green.0) <= 8, abs(g - green.1) <= 8, abs(b - green.2) <= 8 {
            outline.append((x, y))
          }
        }
      }
      #expect(outline.count > 200, "\(outline.count) green pixels")
      // Her face is left of the middle of the camera's picture (0.43 of its width): mirrored,
      // the outline is right of the middle, around the same share from the right.
      let xs = outline.map(\.0)
      let (first, last) = (try #require(xs.min()), try #require(xs.max()))
      let centre = Double(first + last) / 2
      let share = (centre - Double(left)) / Double(right - left)
      #expect(share > 0.5 && share < 0.65, "the outline's centre at \(share) of the picture")
      try await server.press("Escape")
      try await window.waitFor("status idle")
      #expect(window.photos.isEmpty)
    }
  }

  @Test(
    "w ticks the switch beside Start: the count then starts by itself once she is in and still"
  )
  func startWhenReady() async throws {
    let camera = astronautCamera + ["-s", "1"]
    try await withWindow(camera, name: "start-when-ready") { server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      // Off: she is in the picture and nothing starts.
      try await Task.sleep(for: .seconds(2))
      #expect(!window.lines.contains { $0.hasPrefix("status counting") })
      _ = try await server.screenshot("start-when-ready-off")
      try await server.press("w")
      // NB: the model loads, she is found and holds still for a second; under a sanitizer
      // that takes many seconds.
      try await window.waitFor("status counting", limit: .seconds(90))
      try await window.waitFor("status captured", limit: .seconds(60))
      #expect(window.photos.count == 1)
    }
  }

  @Test("a full run writes a JPEG exiftool reads, and the window shows that photo")
  func fullRun() async throws {
    let source = ["--camera", "ffmpeg:testsrc2=size=640x480:rate=30", "--ffmpeg-format", "lavfi"]
    try await withWindow(source + ["-s", "1"], name: "photo") { server, window in
      try await window.waitFor("status idle")
      try await server.press("space")
      try await window.waitFor("status captured")
      let name = try #require(window.photos.first)
      #expect(window.photos.count == 1)
      let photo = window.folder.appendingPathComponent(name)
      let exif = try await ChildProcess.run(["exiftool", "-s3", "-Make", "-ImageWidth", photo.path])
      #expect(exif.exit == .status(0))
      #expect(exif.output.contains("640"), "\(exif.output)")

      let bounds = try await window.waitFor("photo-bounds").split(separator: " ").dropFirst()
        .compactMap { Int($0) }
      try #require(bounds.count == 4)
      let (x, y, width, height) = (bounds[0], bounds[1], bounds[2], bounds[3])
      // The photo, scaled to the size shown, beside the screen's pixels there.
      let scaled = FileManager.default.temporaryDirectory.appendingPathComponent(
        "phototimer-window-\(getpid())-scaled.rgb")
      defer { try? FileManager.default.removeItem(at: scaled) }
      let scale = try await ChildProcess.run([
        "ffmpeg", "-loglevel", "error", "-y", "-i", photo.path, "-vf",
        "scale=\(width):\(height):flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", scaled.path,
      ])
      try #require(scale.exit == .status(0))
      let reference = try #require(FileManager.default.contents(atPath: scaled.path))
      var difference = Double.infinity
      for _ in 0..<50 {
        let shot = try await server.screenshot("photo")
        var total = 0
        for row in 0..<height {
          for column in 0..<width {
            let (r, g, b) = shot.pixel(x + column, y + row)
            let index = (row * width + column) * 3
            total +=
              abs(r - Int(reference[index])) + abs(g - Int(reference[index + 1]))
              + abs(b - Int(reference[index + 2]))
          }
        }
        difference = Double(total) / Double(width * height * 3)
        if difference < 12 { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(difference < 12, "mean difference \(difference) per channel")
    }
  }

  @Test("Ctrl+Q mid-count closes: exit 0, no ffmpeg left, nothing partial")
  func closeMidCount() async throws {
    try await withWindow(blueSource + ["-s", "10"], name: "close") { server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      let pid = window.process.pid
      try await server.press("space")
      try await window.waitFor("status counting")
      let ffmpeg = children(of: pid, named: "ffmpeg")
      #expect(ffmpeg.count == 1)
      try await server.press("ctrl+q")
      #expect(try await window.exit() == .status(0))
      for child in ffmpeg { #expect(!ProcessTable.exists(child)) }
      #expect(window.photos.isEmpty)
    }
  }

  @Test("SIGTERM mid-count closes the same way, with 143")
  func terminateMidCount() async throws {
    try await withWindow(blueSource + ["-s", "10"], name: "term") { server, window in
      try await window.waitFor("status idle")
      try await server.press("space")
      try await window.waitFor("status counting")
      let ffmpeg = children(of: window.process.pid, named: "ffmpeg")
      _ = window.process.send(SIGTERM)
      #expect(try await window.exit() == .status(143))
      for child in ffmpeg { #expect(!ProcessTable.exists(child)) }
      #expect(window.photos.isEmpty)
    }
  }

  @Test("no display: a clear error and exit 1")
  func noDisplay() async throws {
    let result = try await ChildProcess.run([
      "env", "-u", "WAYLAND_DISPLAY", "DISPLAY=:99999", RunningWindow.binary.path,
    ])
    #expect(result.exit == .status(1))
    #expect(result.output.contains("error: phototimer-gtk cannot open a display (':99999')"))
  }

  @Test("terminal-only options are refused with a usage error")
  func badUsage() async throws {
    let result = try await ChildProcess.run([RunningWindow.binary.path, "--json"])
    #expect(result.exit == .status(2))
    #expect(result.output.contains("--json is for the terminal program"))
  }

  @Test("the countdown and camera remembered from the last time are used at the next start")
  func remembered() async throws {
    // NB: the command line names no camera and no count.
    let settings =
      #"{"countdown": 7, "camera": "ffmpeg:color=c=0x3366cc:size=640x480:rate=30", "ffmpegFormat": "lavfi"}"#
    try await withWindow(["--filter", "none"], name: "remembered", settings: settings) {
      server, window in
      try await window.waitFor("first-frame")
      try await window.waitFor("status idle")
      let shot = try await server.screenshot("remembered")
      #expect(shot.share(of: blue, tolerance: 6, width: 1024, height: 720) > 0.6)
      try await server.press("space")
      try await window.waitFor("status counting: 7")
    }
  }
}
