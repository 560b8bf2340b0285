import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `phototimer` in a tmux pane of its own (a server on a private socket), read back with
/// `capture-pane -e` the way a person sees it: characters and their 24-bit colours.
final class TmuxPane {
  let socket: String
  let folder: URL
  let configuration: URL

  /// Starts `phototimer arguments` in a `columns` × `rows` pane with `environment` added;
  /// `@folder` in an argument stands for a new empty folder of the pane's own.
  init(
    _ arguments: [String], columns: Int = 100, rows: Int = 32,
    environment: [String: String] = ["COLORTERM": "truecolor"]
  ) async throws {
    socket = "phototimer-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // NB: from the server's start, so a program that ends at once still leaves its status.
    configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
    try "set-option -g remain-on-exit on\n".write(
      to: configuration, atomically: true, encoding: .utf8)
    var command = ["env", "-u", "NO_COLOR", "-u", "TMUX", "HOME=\(CommandRun.home.path)"]
    command += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    command +=
      [CommandRun.binary.path]
      + arguments.map { $0.replacingOccurrences(of: "@folder", with: folder.path) }
    // NB: the shell writes the status to a file: tmux does not always keep a pane's status.
    let script =
      command.map(Self.quoted).joined(separator: " ") + "; echo $? > "
      + Self.quoted(statusFile.path)
    // NB: the server this starts keeps the client's standard output open; ChildProcess.run
    // stops reading once the client has exited.
    try await tmux(
      ["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "test", "sh", "-c", script])
  }

  /// Where the shell in the pane writes the program's exit status.
  var statusFile: URL { configuration.appendingPathExtension("status") }

  static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Runs a tmux command on this pane's server; returns its output.
  @discardableResult
  func tmux(_ arguments: [String]) async throws -> String {
    try await ChildProcess.run(["tmux", "-L", socket, "-f", configuration.path] + arguments).output
  }

  /// The pane's text with its colours (`capture-pane -e`).
  func screen() async -> String {
    (try? await tmux(["capture-pane", "-e", "-p", "-t", "test"])) ?? ""
  }

  /// The pane's text without colours.
  func text() async -> String { (try? await tmux(["capture-pane", "-p", "-t", "test"])) ?? "" }

  /// Waits until `condition` holds for the screen (polling every 50 ms, at most `seconds`).
  /// NB: this polls what another process shows; the deadline only stops a hung test.
  @discardableResult
  func wait(seconds: Double = 30, until condition: (String) -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    // NB: a cancelled task (the test's time limit) stops at once: its sleep would throw at
    // once on every turn, and the loop would spin on a thread of the pool to the deadline.
    while Date() < deadline, !Task.isCancelled {
      if condition(await screen()) { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return condition(await screen())
  }

  /// What a failed wait prints: the screen's text and whether the program still runs.
  func account() async -> String {
    let status = await exitStatus().map { "ended with status \($0)" } ?? "still running"
    return "the program \(status); the screen:\n\(await text())"
  }

  func press(_ keys: String...) async { _ = try? await tmux(["send-keys", "-t", "test"] + keys) }

  /// The program's pid (the child of the pane's shell).
  func pid() async -> Int32? {
    let shell = Int32(
      (try? await tmux(["display", "-p", "-t", "test", "#{pane_pid}"]))?.trimmed ?? "")
    return shell.flatMap { ProcessTable.children(of: $0).first?.pid }
  }

  /// The exit status once the program ended, else `nil`.
  func exitStatus() async -> Int32? {
    let text = (try? String(contentsOf: statusFile, encoding: .utf8)) ?? ""
    return Int32(text.trimmed)
  }

  /// Waits for the program to end; its status.
  func waitForExit(seconds: Double = 30) async -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, !Task.isCancelled {
      if let status = await exitStatus() { return status }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return await exitStatus()
  }

  func resize(columns: Int, rows: Int) async {
    _ = try? await tmux(["resize-window", "-t", "test", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// Stops the server (and whatever still runs in the pane) and removes the folder.
  func close() async {
    _ = try? await tmux(["kill-server"])
    // NB: the server does not always remove its socket file when killed.
    let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    try? FileManager.default.removeItem(at: folder)
    try? FileManager.default.removeItem(at: configuration)
    try? FileManager.default.removeItem(at: statusFile)
  }
}

extension String {
  var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// The preview's half-block cells on a captured screen: their 24-bit colours, per row.
struct PaneCells {
  struct Cell: Equatable {
    var top: [Int]
    var bottom: [Int]
  }

  var rows: [[Cell]] = []

  init(_ screen: String) {
    for line in screen.split(separator: "\n", omittingEmptySubsequences: false) {
      var cells: [Cell] = []
      var foreground = [0, 0, 0]
      var background = [0, 0, 0]
      var index = line.startIndex
      while index < line.endIndex {
        if line[index] == "\u{1B}", line.index(after: index) < line.endIndex,
          line[line.index(after: index)] == "["
        {
          let body = line.index(index, offsetBy: 2)
          guard let end = line[body...].firstIndex(where: { $0.isLetter }) else { break }
          if line[end] == "m" {
            let numbers = line[body..<end].split(separator: ";", omittingEmptySubsequences: false)
              .map { Int($0) ?? 0 }
            var at = 0
            while at < numbers.count {
              if numbers[at] == 38, at + 4 < numbers.count, numbers[at + 1] == 2 {
                foreground = Array(numbers[(at + 2)...(at + 4)])
                at += 5
              } else if numbers[at] == 48, at + 4 < numbers.count, numbers[at + 1] == 2 {
                background = Array(numbers[(at + 2)...(at + 4)])
                at += 5
              } else {
                if numbers[at] == 0 {
                  foreground = [0, 0, 0]
                  background = [0, 0, 0]
                }
                at += 1
              }
            }
          }
          index = line.index(after: end)
          continue
        }
        if line[index] == "▀" { cells.append(Cell(top: foreground, bottom: background)) }
        index = line.index(after: index)
      }
      rows.append(cells)
    }
  }

  /// Every cell, row by row.
  var all: [Cell] { rows.flatMap { $0 } }
  /// The widest row of cells.
  var width: Int { rows.map(\.count).max() ?? 0 }
}

/// ffmpeg processes whose parent is `pid`.
func ffmpegChildren(of pid: Int32) -> [Int32] {
  ProcessTable.children(of: pid, named: "ffmpeg").map(\.pid)
}

/// Runs `body` on a new pane, then closes it whatever happened.
func withPane(
  _ arguments: [String], columns: Int = 100, rows: Int = 32,
  environment: [String: String] = ["COLORTERM": "truecolor"],
  _ body: (TmuxPane) async throws -> Void
) async throws {
  let pane = try await TmuxPane(arguments, columns: columns, rows: rows, environment: environment)
  do {
    try await body(pane)
  } catch {
    await pane.close()
    throw error
  }
  await pane.close()
}

/// The changes of a screen's text rows that are not picture (the count, the checklist), each
/// with its time since the history began: what a failed wait prints.
/// NB: a class: a local `var` of a struct mutated from the waits' closures crashes the
/// compiler (Swift 6.3.1, AccessEnforcementSelection).
final class ScreenHistory: CustomStringConvertible {
  private let start = Date()
  private var changes: [(time: Double, rows: String)] = []

  /// Notes `screen` (as `capture-pane -e` gives it), when its text rows changed.
  func note(_ screen: String) {
    // NB: without the colours, and without the spinner's braille, which turns at every frame.
    let plain = screen.replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "")
    let lines = plain.split(separator: "\n").map { line in
      line.unicodeScalars.filter { !(0x2800...0x28FF).contains($0.value) }
        .map(String.init).joined().split(separator: " ").joined(separator: " ")
    }
    let rows = lines.filter { line in !line.isEmpty && !line.contains("▀") }
      .joined(separator: " | ")
    guard changes.last?.rows != rows else { return }
    changes.append((Date().timeIntervalSince(start), rows))
  }

  var description: String {
    changes.map { String(format: "%6.1f s  ", $0.time) + $0.rows }.joined(separator: "\n")
  }
}

/// Whether every channel of a cell is within `tolerance` of `color`.
func isNear(_ cell: PaneCells.Cell, _ color: [Int], tolerance: Int = 6) -> Bool {
  zip(cell.top + cell.bottom, color + color).allSatisfy { abs($0 - $1) <= tolerance }
}

@Suite("The live preview in a real terminal (tmux)", .serialized, .timeLimit(.minutes(3)))
struct PreviewTests {
  static let blue = [
    "--camera", "ffmpeg:color=c=0x3366cc:size=320x240:rate=30", "--ffmpeg-format", "lavfi",
  ]
  static let moving = [
    "--camera", "ffmpeg:testsrc2=size=320x240:rate=30", "--ffmpeg-format", "lavfi",
  ]

  @Test("The preview's cells carry the source's colour, before any count starts")
  func colours() async throws {
    try await withPane(Self.blue + ["--frame", "--no-location", "-o", "@folder"]) { pane in
      #expect(await pane.wait { PaneCells($0).all.count > 500 && $0.contains("Framing") })
      let cells = PaneCells(await pane.screen()).all
      let off = cells.filter { !isNear($0, [0x33, 0x66, 0xCC]) }
      #expect(off.isEmpty, "\(off.prefix(3)) of \(cells.count) cells are not 0x3366cc")
      await pane.press("q")
      #expect(await pane.waitForExit() == 130)  // quit without a photo
    }
  }

  @Test(
    "One ffmpeg for everything: a restart, a cancel back to framing (the preview keeps running), ten photos"
  )
  func oneCamera() async throws {
    // NB: a long count, each photo taken with space ("take it now"): every phase waits for
    // something that stays on screen, however slow the machine.
    let arguments =
      Self.moving + ["--frame", "-s", "30", "--no-location", "--no-beep", "-o", "@folder"]
    try await withPane(arguments) { pane in
      #expect(await pane.wait { PaneCells($0).all.count > 500 && $0.contains("Framing") })
      let pid = try #require(await pane.pid())
      let ffmpeg = ffmpegChildren(of: pid)
      #expect(ffmpeg.count == 1)
      // A restart during a count, then a cancel back to framing: the preview still runs.
      await pane.press("Space")
      #expect(await pane.wait { $0.contains("c cancel") })
      await pane.press("r")
      #expect(await pane.wait { $0.contains("restarted (1)") })
      await pane.press("c")
      #expect(
        await pane.wait {
          $0.contains("Cancelled: press space to count again") && !$0.contains("c cancel")
        })
      let before = await pane.screen()
      #expect(await pane.wait { $0 != before && PaneCells($0).all.count > 500 })
      #expect(ffmpegChildren(of: pid) == ffmpeg)
      // Ten photos from the same open camera.
      for photo in 1...10 {
        await pane.press("Space")
        let counting = await pane.wait { $0.contains("c cancel") }
        let notCounting = counting ? "" : await pane.account()
        #expect(counting, "count \(photo): \(notCounting)")
        await pane.press("Space")
        let taken = await pane.wait { $0.contains("✓ \(photo) taken") }
        let notTaken = taken ? "" : await pane.account()
        #expect(taken, "photo \(photo): \(notTaken)")
        #expect(ffmpegChildren(of: pid) == ffmpeg, "photo \(photo)")
      }
      let files = try FileManager.default.contentsOfDirectory(atPath: pane.folder.path)
      #expect(files.filter { $0.hasSuffix(".jpg") }.count == 10)
      await pane.press("q")
      #expect(await pane.waitForExit() == 0)
      #expect(ffmpegChildren(of: pid).isEmpty)
    }
  }

  @Test(
    "Waiting for the people, her face is outlined in green cells, mirrored with the picture"
  )
  func faces() async throws {
    let arguments =
      PeopleCommandTests.astronautCamera + [
        "--start-when-ready=2", "--mirror", "--no-location", "-o", "@folder",
      ]
    try await withPane(arguments, columns: 100, rows: 44) { pane in
      let green = [51, 209, 122]
      func outline(_ screen: String) -> [(column: Int, row: Int, width: Int)] {
        let rows = PaneCells(screen).rows.filter { !$0.isEmpty }
        return rows.enumerated().flatMap { row, cells in
          cells.indices.filter { column in
            let cell = cells[column]
            return [cell.top, cell.bottom].contains { colour in
              zip(colour, green).allSatisfy { abs($0 - $1) <= 8 }
            }
          }.map { (column: $0, row: row, width: cells.count) }
        }
      }
      // NB: the model loads, then the whole frame is searched; under a sanitizer that takes
      // seconds. She is one of the two it waits for: no count starts.
      let outlined = await pane.wait(seconds: 90) {
        outline($0).count > 10 && $0.contains("1 of 2")
      }
      let notOutlined = outlined ? "" : await pane.account()
      #expect(outlined, "\(notOutlined)")
      let cells = outline(await pane.screen())
      let width = try #require(cells.first?.width)
      let columns = cells.map(\.column)
      let centre = Double(columns.min()! + columns.max()!) / 2 / Double(width)
      // Her face is at 0.43 of the camera's width: mirrored, at about 0.57.
      #expect(centre > 0.5 && centre < 0.65, "the outline's centre at \(centre) of the picture")
      await pane.press("q")
      #expect(await pane.waitForExit() == 130)
    }
  }

  @Test("SIGINT during the count: exit 130, no ffmpeg left, no file, the normal screen back")
  func interruptDuringCount() async throws {
    try await withPane(Self.blue + ["-s", "30", "--no-location", "-o", "@folder"]) { pane in
      #expect(await pane.wait { PaneCells($0).all.count > 500 && $0.contains("c cancel") })
      let pid = try #require(await pane.pid())
      #expect(ffmpegChildren(of: pid).count == 1)
      kill(pid, SIGINT)
      #expect(await pane.waitForExit() == 130)
      #expect(ffmpegChildren(of: pid).isEmpty)
      #expect(try FileManager.default.contentsOfDirectory(atPath: pane.folder.path).isEmpty)
      // Back on the normal screen: no preview cells, the text view says it was cancelled.
      #expect(PaneCells(await pane.screen()).all.isEmpty)
      #expect(await pane.text().contains("Cancelled"))
    }
  }

  @Test("A resize redraws the preview at the new size")
  func resize() async throws {
    let arguments = Self.blue + ["--frame", "--no-location", "-o", "@folder"]
    try await withPane(arguments, columns: 120, rows: 40) { pane in
      #expect(await pane.wait { PaneCells($0).width > 60 })
      let wide = PaneCells(await pane.screen()).width
      await pane.resize(columns: 60, rows: 24)
      // NB: one capture can land while a row is half written (under load, a frame reaches
      // tmux in several writes): the whole redrawn picture is waited for, not one snapshot.
      // Nothing of the old, bigger picture is left over: every row is the new width or empty.
      #expect(
        await pane.wait { screen in
          let cells = PaneCells(screen)
          return cells.width > 0 && cells.width <= 58
            && cells.rows.allSatisfy { $0.count == 0 || $0.count == cells.width }
        })
      let narrow = PaneCells(await pane.screen())
      #expect(narrow.width < wide)
      await pane.press("q")
      #expect(await pane.waitForExit() == 130)
    }
  }

  @Test(
    "No preview with NO_COLOR, without 24-bit colour, with --no-preview, or in a tiny terminal",
    arguments: [
      (["COLORTERM": "truecolor", "NO_COLOR": "1"], [String](), 100, 32),
      (["TERM": "xterm-256color"], [String](), 100, 32),
      (["COLORTERM": "truecolor"], ["--no-preview"], 100, 32),
      (["COLORTERM": "truecolor"], [String](), 36, 14),
    ])
  func noPreview(
    environment: [String: String], extra: [String], columns: Int, rows: Int
  )
    async throws
  {
    let arguments = Self.blue + ["-s", "30", "--no-location", "-o", "@folder"] + extra
    try await withPane(arguments, columns: columns, rows: rows, environment: environment) { pane in
      // NB: what was on screen goes into a failure: make stress once saw neither the camera's
      // line in 30 s nor the exit 30 s after c, under a load average of 19 (a build and the
      // face tests beside it), with nothing else to go on.
      if !(await pane.wait { $0.contains("camera    320×240") }) {
        Issue.record("no camera line; the screen: \(await pane.text())")
      }
      #expect(PaneCells(await pane.screen()).all.isEmpty)
      await pane.press("c")
      let exit = await pane.waitForExit()
      if exit != 130 {
        Issue.record("exit \(String(describing: exit)); the screen: \(await pane.text())")
      }
    }
  }

  /// A stand-in gphoto2 in `folder`: a blue live view that holds the device, a capture that
  /// fails while it is held.
  static func standInDSLR(in folder: URL, liveView: URL? = nil) async throws -> String {
    let script = folder.appendingPathComponent("gphoto2.sh")
    // A 0x3366cc JPEG for the live view (or `liveView`) and a grey one for the photo.
    for (name, color) in [("live", "0x3366cc"), ("photo", "0x808080")] {
      let made = try await ChildProcess.run([
        "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):size=160x120",
        "-frames:v", "1", folder.appendingPathComponent("\(name).jpg").path,
      ])
      #expect(made.succeeded, "\(made.standardError)")
    }
    if let liveView {
      let live = folder.appendingPathComponent("live.jpg")
      try FileManager.default.removeItem(at: live)
      try FileManager.default.copyItem(at: liveView, to: live)
    }
    let dir = folder.path
    try """
    case "$1" in
      --auto-detect) printf 'Model                          Port\\n----------\\nCanon EOS 80D                  usb:001,005\\n' ;;
      --capture-movie)
        trap 'rm -f "\(dir)/held"; exit 0' TERM; touch "\(dir)/held"
        while :; do cat "\(dir)/live.jpg"; sleep 0.04; done ;;
      --capture-image-and-download)
        if [ -e "\(dir)/held" ]; then echo "*** Error: Could not claim the USB device ***" >&2; exit 1; fi
        cp "\(dir)/photo.jpg" "$(echo "$3" | sed 's/%C/jpg/')" ;;
      *) echo "*** Error (-6: 'Unsupported operation') ***"; exit 1 ;;
    esac
    """.write(to: script, atomically: true, encoding: .utf8)
    return script.path
  }

  @Test("A DSLR (stand-in gphoto2): its live view is the preview, and it shoots between streams")
  func dslr() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-dslr-cli-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = try await Self.standInDSLR(in: folder)
    let arguments = ["--camera", "gphoto2", "--frame", "-s", "1", "--no-location", "-o", "@folder"]
    let environment = ["COLORTERM": "truecolor", "PHOTOTIMER_GPHOTO2": script]
    try await withPane(arguments, environment: environment) { pane in
      #expect(await pane.wait { PaneCells($0).all.count > 200 && $0.contains("Framing") })
      let cells = PaneCells(await pane.screen()).all
      #expect(cells.filter { !isNear($0, [0x33, 0x66, 0xCC], tolerance: 10) }.isEmpty)
      await pane.press("Space")
      #expect(await pane.wait { $0.contains("✓ 1 taken") })
      // Streaming again after the shot.
      #expect(await pane.wait { PaneCells($0).all.count > 200 && $0.contains("✓ 1 taken") })
      await pane.press("q")
      #expect(await pane.waitForExit() == 0)
      let photos = try FileManager.default.contentsOfDirectory(atPath: pane.folder.path)
      #expect(photos.filter { $0.hasSuffix(".jpg") }.count == 1)
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("held").path))
    }
  }

  @Test("A DSLR: the people are followed on its live view during the count, and outlined")
  func dslrPeople() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-dslr-people-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = try await Self.standInDSLR(in: folder, liveView: PeopleCommandTests.astronaut)
    let arguments = [
      "--camera", "gphoto2", "--frame", "-s", "300", "--no-location", "-o", "@folder",
    ]
    let environment = ["COLORTERM": "truecolor", "PHOTOTIMER_GPHOTO2": script]
    try await withPane(arguments, columns: 100, rows: 40, environment: environment) { pane in
      #expect(await pane.wait { PaneCells($0).all.count > 200 && $0.contains("Framing") })
      await pane.press("Space")
      // What the count and people rows said, each change with its time since Space: a
      // failure says how the count went, not only where it ended.
      let history = ScreenHistory()
      // NB: the model loads, then the live view is searched: under AddressSanitizer beside
      // two busy loops (make stress) that took over 90 s once (the test's limit is 180 s).
      let found = await pane.wait(seconds: 150) {
        history.note($0)
        return $0.contains("1 person · eyes open")
      }
      let seen = found ? "" : "\(history)\nthe screen: \(await pane.text())"
      #expect(found, "\(seen)")
      let outlined = await pane.wait {
        history.note($0)
        return PaneCells($0).all.contains {
          isNear($0, [51, 209, 122], tolerance: 8) || $0.top == [51, 209, 122]
            || $0.bottom == [51, 209, 122]
        }
      }
      let shown = outlined ? "" : "\(history)\nthe screen: \(await pane.text())"
      #expect(outlined, "her face is outlined: \(shown)")
      await pane.press("Space")
      let taken = await pane.wait { $0.contains("✓ 1 taken") }
      let notTaken = taken ? "" : await pane.account()
      #expect(taken, "\(notTaken)")
      await pane.press("q")
      #expect(await pane.waitForExit() == 0)
    }
  }

  @Test("doctor shows the DSLR's live view and the margin measured before the shutter")
  func doctorLiveView() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-dslr-doctor-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = try await Self.standInDSLR(in: folder)
    let result = try await ChildProcess.run([
      "env", "PHOTOTIMER_GPHOTO2=\(script)", CommandRun.binary.path, "doctor", "--no-location",
    ])
    #expect(result.output.contains("camera: Canon EOS 80D"))
    let line = result.output.split(separator: "\n").first { $0.contains("live view") }
    #expect(
      line?.contains("160×120 (gphoto2 --capture-movie); stopped") == true, "\(result.output)")
    #expect(line?.contains(" ms before the shutter") == true)
  }
}
