import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerTerminal
import PhotoTimerTesting
import Testing

@testable import PhotoTimerCLI
@testable import PhotoTimerSetup

/// The displays and the command's loop, read as the bytes they write, without a terminal.
@Suite("The terminal's displays, as bytes through a sink")
struct DisplayTests {
  private func example(_ name: String) throws -> PhotoTimerPresentation {
    try #require(PresentationExample.all.first { $0.name == name }).presentation
  }

  private func live(
    _ sink: MemorySink, preview: TerminalGraphics.Method? = nil, clock: TestClock = TestClock()
  ) -> LiveDisplay {
    LiveDisplay(
      title: "test camera", color: false, beep: false, sink: sink, terminal: nil,
      preview: preview, size: { (columns: 60, rows: 20) }, frameLog: nil, spinnerClock: clock)
  }

  @Test("The text view redraws over its own lines; the spinner turns on its clock, then stops")
  func textView() async throws {
    let sink = MemorySink()
    let clock = TestClock()
    let display = live(sink, clock: clock)
    let counting = try example("counting, steps running")
    #expect(counting.isAnimating)
    await display.show(counting, after: nil, time: .zero)
    let first = sink.text
    #expect(first.hasPrefix("phototimer  ·  test camera"))
    #expect(first.contains(BigDigits.rows(3)[0]))
    #expect(first.contains("⠋ location"))
    let lines = first.components(separatedBy: "\n").count - 1
    // One tenth of a second on the spinner's clock: the same frame drawn over itself, the
    // spinner one step on.
    await clock.waitForSleepers(1)
    sink.clear()
    _ = clock.advance(by: .milliseconds(100))
    await clock.waitForSleepers(1)
    #expect(sink.text.hasPrefix("\u{1B}[\(lines)F"))
    #expect(sink.text.contains("⠙ location"))
    // Nothing animates: the spinner stops, and nothing more is drawn.
    await display.show(try example("captured"), after: nil, time: .zero)
    #expect(sink.text.contains("✓ Saved /tmp/photos/IMG_1.jpg"))
    // NB: cancelling the spinner's task runs its sleep's cancellation handler at once.
    #expect(clock.sleeperCount == 0)
    #expect(await display.close() == nil)
  }

  @Test(
    "The text view: a collage's guest link in the status's place until the next count; other events draw nothing"
  )
  func guestLink() async throws {
    let sink = MemorySink()
    // NB: as the command's loop holds it: through the protocol (a call on the type itself would
    // take the protocol extension's async default).
    let display: any CommandDisplay = live(sink)
    let framing = try example("captured")
    await display.show(framing, after: nil, time: .zero)
    let link = "http://127.0.0.1:8470/guest/session/1?t=abc"
    sink.clear()
    await display.showEvent(
      BoothEvent.collage(session: 1, file: "/tmp/collage.jpg", shots: [], guest: link),
      time: .seconds(1))
    // NB: 20 rows have no room for the code: the link in words.
    #expect(sink.text.contains("Your photos: open this on your phone\u{1B}[K\n  \(link)"))
    sink.clear()
    await display.showEvent(BoothEvent.kept(session: 2, shot: 1, file: nil), time: .seconds(2))
    await display.showEvent(PrintEvent.refused("this photo is printing already"), time: .seconds(2))
    #expect(sink.text.isEmpty, "only a collage changes the picture's place")
    // The next count: the guests' code goes, the big count is back.
    sink.clear()
    let started = PhotoTimerViewModel.Update(
      cause: .event(
        .run(PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 3)), runStart: .zero)),
      snapshot: PhotoTimerViewModel.Snapshot(hasRun: true))
    await display.show(try example("counting, steps running"), after: started, time: .seconds(3))
    #expect(!sink.text.contains("Your photos"))
    #expect(sink.text.contains(BigDigits.rows(3)[0]))
    #expect(await display.close() == nil)
  }

  @Test("The full-screen view clears once, then writes only what changed")
  func fullScreen() async throws {
    let sink = MemorySink()
    let display = live(sink, preview: .halfBlocks)
    let room = try #require(display.previewRoom)
    #expect(room == PreviewSize(width: 58, height: 24))
    let framing = try example("framing after two photos")
    await display.show(framing, after: nil, time: .zero)
    #expect(sink.text.hasPrefix("\u{1B}[0m\u{1B}[2J"))
    #expect(sink.text.contains("Framing: press space to start the count"))
    var frame = Frame(width: room.width, height: room.height)
    for y in 0..<frame.height {
      for x in 0..<frame.width { frame[x, y] = RGB(red: 0x33, green: 0x66, blue: 0xCC) }
    }
    sink.clear()
    await display.show(preview: frame)
    #expect(sink.text.contains("38;2;51;102;204"))
    #expect(!sink.text.contains("\u{1B}[2J"))
    // The same picture and words again: not one byte.
    sink.clear()
    await display.show(preview: frame)
    await display.show(framing, after: nil, time: .zero)
    #expect(sink.text.isEmpty)
    _ = await display.close()
  }

  @Test(
    "The faces are outlined over the live picture in green, amber for a blink; not over the flash")
  func faces() async throws {
    let sink = MemorySink()
    let clock = TestClock()
    let display = LiveDisplay(
      title: "test camera", color: false, beep: false, sink: sink, terminal: nil,
      preview: .halfBlocks, mirrored: true, size: { (columns: 60, rows: 20) }, frameLog: nil,
      spinnerClock: clock)
    let room = try #require(display.previewRoom)
    var frame = Frame(width: room.width, height: room.height)
    for y in 0..<frame.height {
      for x in 0..<frame.width { frame[x, y] = RGB(red: 0x33, green: 0x66, blue: 0xCC) }
    }
    let example = try #require(
      PresentationExample.all.first { $0.name == "framing after two photos" })
    var context = example.context
    context.faces = [
      FaceMark(x: 0.1, y: 0.2, width: 0.3, height: 0.5, eyes: .open),
      FaceMark(x: 0.6, y: 0.2, width: 0.3, height: 0.5, eyes: .closed),
    ]
    let framing = PhotoTimerPresentation(state: example.state, context: context)
    await display.show(framing, after: nil, time: .zero)
    await display.show(preview: frame)
    #expect(sink.text.contains(";51;209;122"), "green: open eyes")
    #expect(sink.text.contains(";255;176;0"), "amber: a blink")
    // The shutter: the white flash carries no outline.
    let shutter = PhotoTimerViewModel.Update(
      cause: .event(.run(PhotoTimerEvent(offset: .seconds(3), kind: .shutter), runStart: .zero)),
      snapshot: PhotoTimerViewModel.Snapshot(hasRun: true))
    sink.clear()
    await display.show(framing, after: shutter, time: .seconds(3))
    #expect(sink.text.contains("38;2;255;255;255"))
    #expect(!sink.text.contains(";51;209;122") && !sink.text.contains(";255;176;0"))
    await clock.waitForSleepers(1)
    _ = clock.advance(by: LiveDisplay.flashLength)
    await display.flashEnded()
    _ = await display.close()
  }

  @Test(
    "The shutter flashes white on the display's clock; the photo then takes the picture's place, and ends the screen above its facts"
  )
  func capturedScreen() async throws {
    let sink = MemorySink()
    let clock = TestClock()
    let display = live(sink, preview: .halfBlocks, clock: clock)
    let room = try #require(display.previewRoom)
    func filled(_ colour: RGB, width: Int, height: Int) -> Frame {
      var frame = Frame(width: width, height: height)
      for y in 0..<height { for x in 0..<width { frame[x, y] = colour } }
      return frame
    }
    let framing = try example("framing after two photos")
    #expect(!framing.isAnimating)
    await display.show(framing, after: nil, time: .zero)
    await display.show(
      preview: filled(
        RGB(red: 0x33, green: 0x66, blue: 0xCC), width: room.width, height: room.height))
    func update(_ kind: PhotoTimerEvent.Kind) -> PhotoTimerViewModel.Update {
      PhotoTimerViewModel.Update(
        cause: .event(.run(PhotoTimerEvent(offset: .seconds(3), kind: kind), runStart: .zero)),
        snapshot: PhotoTimerViewModel.Snapshot(hasRun: true))
    }
    // The shutter: the picture white at once, the picture again once the flash is over.
    sink.clear()
    await display.show(framing, after: update(.shutter), time: .seconds(3))
    #expect(sink.text.contains("38;2;255;255;255"))
    await clock.waitForSleepers(1)
    sink.clear()
    _ = clock.advance(by: LiveDisplay.flashLength)
    await display.flashEnded()
    #expect(sink.text.contains("38;2;51;102;204"))
    // The photo saved: it takes the picture's place.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "captured-screen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("IMG_2.jpg")
    let red = filled(RGB(red: 220, green: 20, blue: 20), width: 640, height: 360)
    try Data(JPEGCodec.encode(red)).write(to: file)
    let photo = CapturedPhoto(
      settings: CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400), location: nil,
      filter: .natural, file: file)
    sink.clear()
    await display.show(framing, after: update(.captured(photo)), time: .seconds(3))
    await display.photoLoaded()
    #expect(sink.text.contains(/38;2;2[12]\d;[12]\d;[12]\d/), "the red photo is drawn")
    // The end: the photo above its facts, and both files of the session.
    sink.clear()
    let first = folder.appendingPathComponent("IMG_1.jpg")
    await display.finish(
      try example("captured"), result: .captured(photo), timeline: Timeline(),
      photos: [first, file])
    let end = sink.text
    #expect(end.hasPrefix("phototimer  ·  test camera"))
    let picture = try #require(end.range(of: "▀"))
    let facts = try #require(end.range(of: "file "))
    #expect(picture.lowerBound < facts.lowerBound)
    #expect(!end.contains("Saved"), "the path once, in the facts")
    #expect(end.contains("photos    2 this session, in \(folder.path): IMG_1.jpg, IMG_2.jpg"))
    #expect(await display.close() == nil)
  }

  @Test("A display that cannot write goes on, and says why once when it closes")
  func failedWrites() async throws {
    let sink = MemorySink()
    sink.failure.withLock { $0 = SystemCallError(call: "write", errno: .ioError) }
    let display = live(sink)
    await display.show(try example("captured"), after: nil, time: .zero)
    await display.show(try example("cancelled"), after: nil, time: .zero)
    let message = try #require(await display.close())
    #expect(message.contains("write"))
    let plain = PlainDisplay(sink: sink)
    await plain.show(try example("captured"), after: nil, time: .zero)
    #expect(await plain.close() != nil)
    // A pipe closed downstream (`| head -1`) is no failure: the reader has what it wanted.
    sink.failure.withLock { $0 = SystemCallError(call: "write", errno: .brokenPipe) }
    let piped = PlainDisplay(sink: sink)
    await piped.show(try example("captured"), after: nil, time: .zero)
    #expect(await piped.close() == nil)
  }

  @Test("Plain lines: each note once, the status when it changes, stamped with the update's time")
  func plainLines() async throws {
    let sink = MemorySink()
    let display = PlainDisplay(sink: sink)
    var context = PhotoTimerPresentation.Context(hasRun: true, note: "restarted (1)")
    let counting = PhotoTimerPresentation(
      state: PhotoTimerState(status: .counting(remaining: 5)), context: context)
    await display.show(counting, after: nil, time: .seconds(1.25))
    await display.show(counting, after: nil, time: .seconds(1.5))
    context.isOver = true
    let cancelled = PhotoTimerPresentation(state: PhotoTimerState(), context: context)
    await display.show(cancelled, after: nil, time: .seconds(2))
    #expect(
      sink.text == "restarted (1)\n+1.250s  Counting down: 5\n+2.000s  Cancelled\n")
  }

  @Test("JSON: a cancel the command asked for is written when it was asked, with its time")
  func jsonCancel() async {
    let sink = MemorySink()
    let display = JSONDisplay(sink: sink)
    let idle = PhotoTimerPresentation(state: PhotoTimerState())
    let update = PhotoTimerViewModel.Update(
      cause: .cancelled, snapshot: PhotoTimerViewModel.Snapshot(hasRun: true))
    await display.show(idle, after: update, time: .seconds(1.5))
    await display.show(idle, after: nil, time: .seconds(2))
    #expect(sink.text == "{\"event\":\"cancelled\",\"t\":1.5}\n")
  }

  private func session(
    _ arguments: [String], keys: AsyncStream<Key>, sink: MemorySink, clock: TestClock = TestClock()
  ) async throws -> CommandSession {
    let options = try CommandOptions(arguments: arguments, environment: [:])
    guard case .run(let run) = options.action else { throw Failure("not a run") }
    let screen = CommandScreen(
      options: run, environment: [:], interactive: false, size: (80, 24), hasCamera: false)
    let services = PhotoTimerServices.simulated(
      clock: clock, camera: .succeed(after: .zero), location: .succeed(after: .zero),
      filter: .succeed(after: .zero))
    return await CommandSession(
      options: run, services: services, screen: screen, camera: nil, sink: sink, keys: keys,
      clock: clock)
  }

  /// NB: the test clock never moves: the photo can only come from the key.
  @Test(
    "The loop takes keys as a sequence: space before the count began ends a 30 s count at once",
    .timeLimit(.minutes(1)))
  func spaceAtOnce() async throws {
    let sink = MemorySink()
    let (keys, press) = AsyncStream.makeStream(of: Key.self)
    press.yield(.go)
    let command = try await session(["--simulate", "-s", "30"], keys: keys, sink: sink)
    #expect(await command.run() == .success)
    #expect(sink.text.contains("Counting down: 30"))
    #expect(sink.text.hasSuffix("look: Natural\n") || sink.text.contains("Photo taken"))
    #expect(!sink.text.contains("Counting down: 29"))
  }

  /// NB: the model is cancelled at once, its update comes through the loop's queue after:
  /// what is drawn in between is the model as the loop has it, never half of each.
  @Test(
    "Framing, c mid-count: the count, then Cancelled; never 'press space to start' before it, nor the count after",
    .timeLimit(.minutes(1)))
  func cancelWhileFraming() async throws {
    let sink = MemorySink()
    let (keys, press) = AsyncStream.makeStream(of: Key.self)
    let command = try await session(
      ["--camera", "scene", "--frame", "-s", "30"], keys: keys, sink: sink)
    // NB: without a camera of its own the command's first count starts at once.
    async let code = command.run()
    try await sink.written("Counting down: 30")
    press.yield(.cancel)
    try await sink.written("Cancelled")
    press.yield(.quit)
    #expect(await code == .cancelled)
    // The status lines, without their times: the count, then the cancel, and nothing of
    // either on the wrong side of the other.
    let lines = sink.text.split(separator: "\n").map { String($0.drop { $0 != " " }).trimmed }
    let cancelled = try #require(lines.firstIndex { $0.hasPrefix("Cancelled") })
    #expect(!lines[..<cancelled].contains { $0.hasPrefix("Framing") }, "\(sink.text)")
    #expect(!lines[cancelled...].contains { $0.hasPrefix("Counting down") }, "\(sink.text)")
  }

  @Test("c cancels: the plain lines end with the cancel, exit 130", .timeLimit(.minutes(1)))
  func cancelKey() async throws {
    let sink = MemorySink()
    let (keys, press) = AsyncStream.makeStream(of: Key.self)
    press.yield(.cancel)
    let command = try await session(["--simulate", "-s", "30"], keys: keys, sink: sink)
    #expect(await command.run() == .cancelled)
    #expect(sink.text.hasSuffix("  Cancelled\n"))
  }
}
