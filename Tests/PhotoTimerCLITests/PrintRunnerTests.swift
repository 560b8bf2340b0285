import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerSetup
import PhotoTimerTesting
import Synchronization
import Testing

/// A printer as a script: the paper it offers, the states each job goes through, its status;
/// what was asked of it, in order.
final class ScriptedPrinter: PrintService {
  struct Script {
    var jobStates: [PrintJob.State] = [.processing, .completed]
    var status = PrinterStatus(state: .idle)
    var calls: [String] = []
    var nextID = 7
    /// Why Resume fails, if it does.
    var resumeFails: PrintError?
  }
  let script = Mutex(Script())
  var name: String { "scripted" }

  func media(for page: PrintPage) async throws(PrintError) -> PrintMedia {
    script.withLock { $0.calls.append("media \(page)") }
    return PrintMedia(name: "oe_2x6-in_2x6in", title: "2 x 6 in", borderless: true)
  }

  func submit(
    file: String, title: String, copies: Int, media: PrintMedia
  ) async throws(PrintError) -> Int {
    script.withLock { script in
      script.calls.append("submit \(file) ×\(copies)")
      script.nextID += 1
      return script.nextID - 1
    }
  }

  func job(_ id: Int) async throws(PrintError) -> PrintJobStatus {
    script.withLock {
      let state = $0.jobStates.count > 1 ? $0.jobStates.removeFirst() : $0.jobStates[0]
      return PrintJobStatus(state: state)
    }
  }

  func status() async throws(PrintError) -> PrinterStatus { script.withLock { $0.status } }

  func resume() async throws(PrintError) {
    let failure = script.withLock { script -> PrintError? in
      script.calls.append("resume")
      if script.resumeFails == nil { script.status = PrinterStatus(state: .idle) }
      return script.resumeFails
    }
    if let failure { throw failure }
  }

  var calls: [String] { script.withLock { $0.calls } }
}

/// The print runner (PrintRunner) carries out the desk's effects on a scripted printer and a
/// test clock: a print sent and followed to its end, the printer's trouble said, Resume asked.
@MainActor
@Suite("The print runner follows each print and the printer")
struct PrintRunnerTests {
  static func runner(
    _ printer: ScriptedPrinter, clock: TestClock, rules: PrintDesk.Rules
  ) -> (PrintRunner, AsyncStream<PrintEvent>) {
    let runner = PrintRunner(
      rules: rules, service: printer, page: PrintPage(width: 2, height: 6), clock: clock)
    let (events, sink) = AsyncStream<PrintEvent>.makeStream()
    runner.report = { for event in $0 { sink.yield(event) } }
    return (runner, events)
  }

  /// The next event `matching`, skipping others.
  static func next(
    _ events: inout AsyncStream<PrintEvent>.Iterator, _ matching: (PrintEvent) -> Bool
  ) async -> PrintEvent? {
    while let event = await events.next(isolation: #isolation) {
      if matching(event) { return event }
    }
    return nil
  }

  static func state(_ event: PrintEvent?) -> PrintJob.State? {
    if case .job(let job, _)? = event { return job.state }
    return nil
  }

  @Test("--auto-print: a collage sent, then followed each second to printed; the desk agrees")
  func followed() async throws {
    let printer = ScriptedPrinter()
    let clock = TestClock()
    let (runner, stream) = Self.runner(printer, clock: clock, rules: .init(autoPrint: true))
    var events = stream.makeAsyncIterator()
    runner.offer("/photos/collage.jpg")
    #expect(Self.state(await Self.next(&events) { _ in true }) == .sending)
    let pending = await Self.next(&events) { _ in true }
    guard case .job(let job, let prints)? = pending else {
      Issue.record("\(String(describing: pending))")
      return
    }
    #expect(job.id == 7 && job.state == .pending && prints == 1)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(1))
    #expect(Self.state(await Self.next(&events) { _ in true }) == .processing)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(1))
    #expect(Self.state(await Self.next(&events) { _ in true }) == .completed)
    #expect(runner.desk.words == "printed")
    #expect(printer.calls == ["media 2 × 6 in", "submit /photos/collage.jpg ×1"])
    _ = await runner.finish()
    #expect(clock.sleeperCount == 0)
  }

  @Test(
    "The printer watched: out of paper said once with its step; Resume asked and the change heard"
  )
  func trouble() async throws {
    let printer = ScriptedPrinter()
    printer.script.withLock {
      $0.status = PrinterStatus(state: .stopped, reasons: ["media-empty-error"])
    }
    let clock = TestClock()
    let (runner, stream) = Self.runner(printer, clock: clock, rules: .init())
    var events = stream.makeAsyncIterator()
    runner.start()
    let stopped = await Self.next(&events) { _ in true }
    #expect(stopped?.notice == "the printer stopped: out of paper: load paper, then press Resume")
    #expect(runner.desk.canResume)
    await clock.waitForSleepers(1)
    clock.advance(by: .seconds(2))
    await clock.waitForSleepers(1)
    #expect(runner.ask(.resume) == .accepted([.resume]))
    let resumed = await Self.next(&events) { _ in true }
    #expect(resumed == .printer(PrinterStatus(state: .idle)))
    #expect(printer.calls == ["resume"])
    #expect(runner.ask(.resume) == .refused("the printer is not stopped"))
    #expect(runner.ask(.print) == .refused("nothing to print yet"))
    _ = await runner.finish()
    #expect(clock.sleeperCount == 0)
  }

  @Test("A Resume CUPS refuses is said as the printer's, with why; the printer stays stopped")
  func resumeRefused() async throws {
    let printer = ScriptedPrinter()
    printer.script.withLock {
      $0.status = PrinterStatus(state: .stopped, reasons: ["paused"])
      $0.resumeFails = PrintError("not allowed: add yourself to the lpadmin group")
    }
    let clock = TestClock()
    let (runner, stream) = Self.runner(printer, clock: clock, rules: .init())
    var events = stream.makeAsyncIterator()
    runner.start()
    _ = await Self.next(&events) { _ in true }
    #expect(runner.ask(.resume) == .accepted([.resume]))
    let failed = await Self.next(&events) { _ in true }
    #expect(failed == .resumeFailed("not allowed: add yourself to the lpadmin group"))
    #expect(
      failed?.line == "printer: Resume failed: not allowed: add yourself to the lpadmin group")
    #expect(failed?.notice == "Resume failed: not allowed: add yourself to the lpadmin group")
    let json = failed?.jsonLine(time: .seconds(2)) ?? ""
    #expect(
      json.contains("\"event\":\"printer\"") && json.contains("\"resume\":\"failed\""), "\(json)")
    #expect(runner.desk.canResume)
    #expect(
      runner.desk.words?.hasSuffix("Resume failed: not allowed: add yourself to the lpadmin group")
        == true)
    _ = await runner.finish()
    #expect(clock.sleeperCount == 0)
  }
}

/// What both front ends do alike with the booth's and printing's reports (FrontEndRunners).
@MainActor
@Suite("A booth's collage is shown before its print is said")
struct FrontEndRunnersTests {
  @Test("pass gives the collage back without printing it; print(passed) sends it, after")
  func collagePrintedAfterShown() async throws {
    let printer = ScriptedPrinter()
    let clock = TestClock()
    let (printing, stream) = PrintRunnerTests.runner(
      printer, clock: clock, rules: .init(autoPrint: true))
    let booth = BoothRunner(
      layout: try BoothLayout.load("strip", shots: 4),
      store: PhotoStore(folder: FileManager.default.temporaryDirectory), clock: clock)
    let runners = FrontEndRunners(booth: booth, printer: printing)
    var said: [String] = []
    // NB: the prints' reports only (the printer's watch says its state as well).
    runners.start { report in
      guard case .print(let events) = report else { return }
      for case .job(let job, _) in events { said.append("print \(job.number): \(job.state)") }
    }
    let collage = BoothEvent.collage(
      session: 1, file: "/photos/booth-1.jpg", shots: ["/photos/1.jpg"], guest: nil)
    let passed = runners.pass(.booth([collage]), remote: nil, time: .zero)
    #expect(passed.collages.map(\.file) == ["/photos/booth-1.jpg"])
    #expect(passed.events.map(\.line) == [collage.line])
    // NB: the print runner reports `sending` as it is asked: nothing yet, so a screen that
    // shows each report at once (the window) says the collage first.
    #expect(said.isEmpty, "\(said)")
    #expect(printer.calls.isEmpty)
    runners.print(passed)
    #expect(said.first == "print 1: sending", "\(said)")
    _ = await runners.finish()
    _ = stream
  }
}
