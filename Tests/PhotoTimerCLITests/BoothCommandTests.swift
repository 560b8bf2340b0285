import Foundation
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerSetup
import Testing

/// `phototimer booth` end to end: a session of shots on a camera whose colour turns with
/// time, each kept, the collage's slots checked by colour and by place against the shots, the
/// events in order, the collage's EXIF read back; and its mistakes refused before anything
/// starts.
@Suite("phototimer booth", .serialized, .timeLimit(.minutes(10)))
struct BoothCommandTests {
  /// How long a booth run may take: a sanitizer's build draws and saves a 600 dpi collage
  /// slowly (over 50 s once under AddressSanitizer).
  static let runLimit = Duration.seconds(240)

  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-booth-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The mean colour of `frame` inside the middle half of `box`.
  static func mean(_ frame: Frame, x: Int, y: Int, width: Int, height: Int) -> [Int] {
    var sums = [0, 0, 0]
    var count = 0
    for row in stride(from: y + height / 4, to: y + height * 3 / 4, by: 3) {
      for column in stride(from: x + width / 4, to: x + width * 3 / 4, by: 3) {
        let pixel = frame[column, row]
        sums[0] += Int(pixel.red)
        sums[1] += Int(pixel.green)
        sums[2] += Int(pixel.blue)
        count += 1
      }
    }
    return sums.map { $0 / max(count, 1) }
  }

  static func decode(_ path: String) throws -> Frame {
    try JPEGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), path: path)
  }

  @Test("two shots kept, each in its slot of the strip by colour, the collage's events and EXIF")
  func twoShots() async throws {
    let output = try Self.folder()
    defer { try? FileManager.default.removeItem(at: output) }
    // A colour whose hue turns 30° a second of real time (`realtime`: lavfi would otherwise
    // run as fast as it is read): shots 2 s or more apart (the count between them) differ
    // by 60° or more, unless a loaded machine puts them a whole turn (12 s) apart.
    let run = try await CommandRun.run(
      [
        "booth", "--shots", "2", "--review", "0", "--between", "2", "-s", "1", "--json",
        "--camera", "ffmpeg:color=c=red:s=640x360:r=25,realtime,hue=h=t*30", "--ffmpeg-format",
        "lavfi",
        "--no-location", "--no-people", "-o", output.path,
      ], interruptWhen: nil, timeLimit: Self.runLimit)
    #expect(run.status == 0, "\(run.error)")
    let events = run.output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let booth = events.filter {
      ["session", "kept", "retaken", "collage"].contains($0["event"] as? String ?? "")
    }
    #expect(
      booth.map { "\($0["event"]!) \($0["state"] ?? $0["shot"] ?? "")" }
        == ["session started", "kept 1", "kept 2", "collage ", "session complete"])
    let shots = booth.filter { $0["event"] as? String == "kept" }.compactMap {
      $0["file"] as? String
    }
    #expect(shots.count == 2)
    let collagePath =
      try #require(booth.first { $0["event"] as? String == "collage" }?["file"])
      as? String ?? ""
    #expect(collagePath.hasSuffix("_collage.jpg"))
    let collage = try Self.decode(collagePath)
    #expect(collage.width == 1200 && collage.height == 3600)
    // Each slot holds its shot (the strip's four slots: shots 1, 2, then 1, 2 again).
    let layout = BoothLayout.strip
    var seen: [[Int]] = []
    for (index, slot) in layout.slots.enumerated() {
      let shot = try Self.decode(shots[index % 2])
      let expected = Self.mean(shot, x: 0, y: 0, width: shot.width, height: shot.height)
      let found = Self.mean(collage, x: slot.x, y: slot.y, width: slot.width, height: slot.height)
      #expect(
        zip(expected, found).allSatisfy { abs($0 - $1) <= 12 },
        "slot \(index): \(found), its shot \(expected)")
      seen.append(found)
    }
    #expect(
      zip(seen[0], seen[1]).contains { abs($0 - $1) > 30 },
      "the two shots look alike: \(seen[0]) and \(seen[1])")
    let tags = try await ChildProcess.run(["exiftool", "-s", "-Software", "-Model", collagePath])
    #expect(tags.standardOutput.contains("Software                        : phototimer"))
    #expect(tags.standardOutput.contains("Model                           : booth collage"))
    let left = try FileManager.default.contentsOfDirectory(atPath: output.path)
    #expect(left.filter { $0.hasPrefix(".") }.isEmpty, "partial files: \(left)")
  }

  @Test("--event: the event's folder, its log, and the sessions numbered on after a restart")
  func eventFolder() async throws {
    let output = try Self.folder()
    defer { try? FileManager.default.removeItem(at: output) }
    let folder = output.appendingPathComponent("Office opening")
    let arguments = [
      "booth", "--shots", "1", "--review", "0", "-s", "0", "--json", "--camera", "scene",
      "--size", "640x360", "--no-location", "--no-people", "-o", output.path, "--event",
      "Office opening",
    ]
    var sessions: [Int] = []
    for _ in 0..<2 {
      let run = try await CommandRun.run(arguments, interruptWhen: nil, timeLimit: Self.runLimit)
      #expect(run.status == 0, "\(run.error)")
      let started = run.output.split(separator: "\n").compactMap { line -> Int? in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        guard object?["event"] as? String == "session", object?["state"] as? String == "started"
        else { return nil }
        return object?["session"] as? Int
      }
      sessions += started
    }
    #expect(sessions == [1, 2])
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.filter { $0.hasSuffix("_collage.jpg") }.count == 2, "\(files)")
    #expect(files.contains(EventLog.fileName))
    // A line a crash cut short is skipped, and the next run numbers on from the last whole one.
    let log = folder.appendingPathComponent(EventLog.fileName)
    let handle = try FileHandle(forWritingTo: log)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"event\":\"session\",\"session\":9".utf8))
    try handle.close()
    let text = try String(contentsOf: log, encoding: .utf8)
    #expect(EventLog.lastSession(in: text) == 2)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 9, "\(text)")
    for line in lines.dropLast() {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect((object?["at"] as? String)?.hasPrefix("20") == true, "\(line)")
    }
    let third = try await CommandRun.run(arguments, interruptWhen: nil, timeLimit: Self.runLimit)
    #expect(third.output.contains("\"session\":3,\"state\":\"started\""), "\(third.output)")
    let after = try String(contentsOf: log, encoding: .utf8)
    #expect(after.contains("\"session\":9\n{\"at\":"), "the cut line ended, the next whole")
    // An event's folder that cannot be written is said as a folder, not as its log: exit 1.
    let refused = try await CommandRun.run(
      ["booth", "--camera", "scene", "--json", "-o", "/proc", "--event", "Party"],
      interruptWhen: nil, timeLimit: Self.runLimit)
    #expect(refused.status == 1)
    #expect(
      refused.error.hasPrefix("error: cannot write to the output folder /proc/Party"),
      "\(refused.error)")
  }

  @Test("a booth's mistakes are refused before anything starts, exit 2, with what to change")
  func refused() async throws {
    let single = try await CommandRun.run(["booth", "--layout", "single", "--simulate"])
    #expect(single.status == 2)
    #expect(single.error.contains("phototimer booth cannot take --simulate"))
    let layout = try await CommandRun.run([
      "booth", "--layout", "single", "--camera", "scene", "--json",
    ])
    #expect(layout.status == 2)
    #expect(
      layout.error.contains("single: slots: 1 slot for 4 shots; add 3 slots, or take 1 (--shots 1)")
    )
    let outside = try await CommandRun.run(["--shots", "2", "--camera", "scene"])
    #expect(outside.status == 2)
    #expect(outside.error.contains("--shots applies to a booth: phototimer booth --shots"))
    let missing = try await CommandRun.run([
      "booth", "--layout", "/nonexistent/party.json", "--camera", "scene", "--json",
    ])
    #expect(missing.status == 2)
    #expect(missing.error.contains("/nonexistent/party.json"), "\(missing.error)")
  }

  @Test("at the keyboard: space starts, each shot waits for keep (space) or retake (r), q quits")
  func keys() async throws {
    let output = try Self.folder()
    defer { try? FileManager.default.removeItem(at: output) }
    let run = try PseudoTerminalRun([
      "booth", "--shots", "2", "--review", "60", "--between", "0", "-s", "0", "--camera",
      "scene", "--size", "640x360", "--no-people", "--no-location", "--no-preview", "-o",
      output.path, "--remote=127.0.0.1:0",
    ])
    // NB: generous limits: a loaded machine (a sanitizer's build beside) may take its time.
    let limit = Duration.seconds(90)
    let before = run.settings()
    try run.start()
    #expect(await run.read(until: "press space to start", limit: limit), "\(run.text.suffix(600))")
    run.press(" ")
    #expect(
      await run.read(
        until: "Shot 1 of 2: press space to keep it · press r to take it again", limit: limit),
      "\(run.text.suffix(600))")
    run.press("r")
    // One retake a shot: the second review of shot 1 offers keep alone.
    #expect(
      await run.read(until: "Shot 1 of 2: press space to keep it\u{1B}", limit: limit),
      "\(run.text.suffix(600))")
    run.press(" ")
    #expect(
      await run.read(until: "Shot 2 of 2: press space to keep it · press r", limit: limit),
      "\(run.text.suffix(600))")
    run.press(" ")
    #expect(await run.read(until: "collage saved", limit: limit), "\(run.text.suffix(600))")
    // The guests' QR code under it, read off the terminal as a phone would: its link opens
    // the session's page, whose collage is the file's bytes.
    let marker = "Your photos: scan this with your phone's camera"
    #expect(
      await run.read(until: { Self.guestCode(in: $0, after: marker) != nil }, limit: limit),
      "\(run.text.suffix(600))")
    let picture = try #require(Self.guestCode(in: run.text, after: marker))
    let link = try await Self.decodeQR(picture, in: output)
    #expect(link.contains("/guest/session/1?t="), "\(link)")
    let page = try await ChildProcess.run(["curl", "-s", link])
    #expect(page.standardOutput.contains("Session 1"), "\(page.standardOutput.prefix(300))")
    // Framing again, the three photos counted.
    #expect(await run.read(until: "3 taken", limit: limit), "\(run.text.suffix(600))")
    run.press("q")
    #expect(try await run.wait() == 0, "\(run.text.suffix(400))")
    #expect(run.settings() == before)
    let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
    // Three photos (shot 1 twice), one collage.
    #expect(files.filter { $0.hasSuffix("_collage.jpg") }.count == 1, "\(files)")
    #expect(files.filter { !$0.hasSuffix("_collage.jpg") }.count == 3, "\(files)")
  }

  /// The last guests' QR code the text view drew under `marker`, as a PGM picture: each
  /// half block two modules (drawn is light), four pixels a module, a light border around;
  /// `nil` until the code's lines and the line after them are there.
  static func guestCode(in text: String, after marker: String) -> [UInt8]? {
    guard let found = text.range(of: marker, options: .backwards) else { return nil }
    var rows: [[Bool]] = []
    var ended = false
    // NB: whole lines only. The terminal's bytes come in pieces: a piece that ended inside a
    // line's closing escape (`\e[` of `\e[K`) left a line that was no code, and ended the code
    // halfway down (1 run in 5: zbarimg read nothing).
    let after = text[found.upperBound...]
    let complete = after[..<(after.lastIndex(where: \.isNewline) ?? after.startIndex)]
    // NB: the terminal ends each line with "\r\n", one Character.
    for raw in complete.split(whereSeparator: \.isNewline).dropFirst() {
      let line = String(raw).replacing(/\x1B\[[0-9;]*[A-Za-z]/, with: "")
      let cells = line.dropFirst(2)
      if rows.isEmpty, cells.isEmpty { continue }
      guard !cells.isEmpty, cells.allSatisfy({ "▀▄█ ".contains($0) }) else {
        ended = !rows.isEmpty
        break
      }
      rows.append(cells.map { $0 == "▀" || $0 == "█" })
      rows.append(cells.map { $0 == "▄" || $0 == "█" })
    }
    guard ended, rows.count >= 20, let width = rows.first?.count else { return nil }
    let scale = 4
    let border = 8
    let side = (width, rows.count)
    let pixelsWide = side.0 * scale + 2 * border
    let pixelsHigh = side.1 * scale + 2 * border
    var pixels = [UInt8](repeating: 255, count: pixelsWide * pixelsHigh)
    for (y, row) in rows.enumerated() {
      for (x, light) in row.enumerated() where !light {
        for dy in 0..<scale {
          for dx in 0..<scale {
            pixels[(border + y * scale + dy) * pixelsWide + border + x * scale + dx] = 0
          }
        }
      }
    }
    return Array("P5\n\(pixelsWide) \(pixelsHigh)\n255\n".utf8) + pixels
  }

  /// What `zbarimg` reads in `picture` (a PGM), written into `folder`.
  static func decodeQR(_ picture: [UInt8], in folder: URL) async throws -> String {
    let file = folder.appendingPathComponent("screen-code.pgm")
    try Data(picture).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let read = try await ChildProcess.run(["zbarimg", "--raw", "-q", file.path])
    return read.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Writes a `width` × `height` RGBA PNG whose pixels `pixel(x, y)` gives, with python3's
  /// zlib (no image library needed).
  static func writePNG(
    _ path: String, width: Int, height: Int, pixel: @escaping (Int, Int) -> [UInt8]
  ) async throws {
    var raw: [UInt8] = []
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width { raw += pixel(x, y) }
    }
    let data = path + ".rgba"
    try Data(raw).write(to: URL(fileURLWithPath: data))
    let script = """
      import struct, sys, zlib
      w, h, src, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
      raw = open(src, "rb").read()
      def chunk(kind, body):
          return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
      png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
      png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
      open(out, "wb").write(png)
      """
    let made = try await ChildProcess.run(
      ["python3", "-c", script, "\(width)", "\(height)", data, path])
    #expect(made.succeeded, "\(made.standardError)")
  }

  @Test("a layout file's overlay and background are drawn; an overlay gone by then is said, exit 1")
  func layoutPictures() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A 400 × 300 card: a grey background, one slot, a blue frame with a clear hole over it.
    try await Self.writePNG(folder.path + "/back.png", width: 40, height: 30) { _, _ in
      [128, 128, 128, 255]
    }
    try await Self.writePNG(folder.path + "/frame.png", width: 400, height: 300) { x, y in
      let hole = x >= 60 && x < 340 && y >= 40 && y < 240
      return hole ? [0, 0, 0, 0] : (x < 20 ? [0, 0, 255, 255] : [0, 0, 255, 0])
    }
    let layout = """
      {"name": "card", "canvas": {"width": 400, "height": 300, "dpi": 100},
       "background": "back.png", "overlay": "frame.png",
       "slots": [{"x": 50, "y": 30, "width": 300, "height": 220}]}
      """
    try Data(layout.utf8).write(to: folder.appendingPathComponent("card.json"))
    let arguments = [
      "booth", "--shots", "1", "--review", "0", "-s", "0", "--json", "--layout",
      folder.path + "/card.json", "--camera", "ffmpeg:color=c=red:s=640x360:r=25",
      "--ffmpeg-format", "lavfi", "--no-location", "--no-people", "-o", folder.path,
    ]
    let run = try await CommandRun.run(arguments, interruptWhen: nil, timeLimit: Self.runLimit)
    #expect(run.status == 0, "\(run.error)")
    let line = try #require(
      run.output.split(separator: "\n").first { $0.contains("\"event\":\"collage\"") })
    let file = try #require(RemotePageTests.file(in: String(line)))
    let collage = try Self.decode(file)
    #expect(collage.width == 400 && collage.height == 300)
    let blue = collage[5, 150]
    #expect(blue.blue > 200 && blue.red < 40, "the frame: \(blue)")
    let grey = collage[30, 150]
    #expect(abs(Int(grey.red) - 128) < 10 && abs(Int(grey.blue) - 128) < 10, "background: \(grey)")
    let shot = collage[200, 140]
    #expect(shot.red > 200 && shot.blue < 50, "the shot: \(shot)")
    // The overlay taken away once the count has started: the collage cannot be made.
    let overlay = folder.path + "/frame.png"
    let gone = try await CommandRun.run(arguments, interruptWhen: nil, timeLimit: Self.runLimit) {
      output in
      if output.contains("\"event\":\"started\"") {
        try? FileManager.default.removeItem(atPath: overlay)
      }
    }
    #expect(gone.status == 1, "\(gone.output.suffix(400))")
    #expect(gone.output.contains("\"event\":\"collage\""), "\(gone.error)")
    #expect(gone.output.contains("frame.png"), "\(gone.output.suffix(400)) \(gone.error)")
  }
}
