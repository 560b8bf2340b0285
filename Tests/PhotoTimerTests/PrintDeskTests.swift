import PhotoTimer
import Testing

/// The print desk (PrintDesk): what Print and Resume may do, in words when they may not; and
/// the printer's troubles (PrinterTrouble) in words with the step to take.
@Suite("The print desk decides what is printed")
struct PrintDeskTests {
  static let collage = "/photos/collage-1.jpg"
  static let other = "/photos/collage-2.jpg"

  /// The job the reply sends.
  static func sent(_ reply: PrintDesk.Reply) -> PrintJob? {
    guard case .accepted(let effects) = reply, case .submit(let job)? = effects.first else {
      return nil
    }
    return job
  }

  @Test("Nothing to print before a photo; Print sends the last one; a second press is refused")
  func doublePress() {
    var desk = PrintDesk(PrintDesk.Rules(destination: "selphy"))
    #expect(desk.ask(.print) == .refused("nothing to print yet"))
    #expect(desk.offer(Self.collage) == .accepted([]))
    let job = Self.sent(desk.ask(.print))
    #expect(job?.file == Self.collage)
    #expect(job?.number == 1)
    #expect(desk.words == "sending 1 of 1")
    #expect(desk.ask(.print) == .refused("this photo is printing already"))
    desk.sent(1, id: 41)
    desk.jobChanged(1, state: .processing)
    #expect(desk.words == "printing 1 of 1")
    #expect(desk.ask(.print) == .refused("this photo is printing already"))
    desk.jobChanged(1, state: .completed)
    #expect(desk.words == "printed")
    #expect(Self.sent(desk.ask(.print))?.number == 2)
  }

  @Test("The queue's limit: no more prints waiting than --max-queue, said with the option")
  func queueLimit() {
    var desk = PrintDesk(PrintDesk.Rules(maxQueue: 1))
    _ = desk.offer(Self.collage)
    #expect(Self.sent(desk.ask(.print)) != nil)
    _ = desk.offer(Self.other)
    #expect(
      desk.ask(.print)
        == .refused("1 print is waiting: try again when one is out (--max-queue 1)"))
    desk.sent(1, id: 3)
    desk.jobChanged(1, state: .completed)
    #expect(Self.sent(desk.ask(.print))?.file == Self.other)
  }

  @Test(
    "A photo's prints are limited by --max-prints, earlier runs' too; a failed one does not count")
  func printLimit() {
    var desk = PrintDesk(PrintDesk.Rules(maxPrints: 2), earlier: [Self.collage: 1])
    _ = desk.offer(Self.collage)
    #expect(desk.prints(of: Self.collage) == 1)
    #expect(Self.sent(desk.ask(.print)) != nil)
    desk.jobChanged(1, state: .aborted, reason: "the filter failed")
    #expect(desk.words == "not printed: the filter failed (press Print to try again)")
    #expect(desk.prints(of: Self.collage) == 1)
    #expect(Self.sent(desk.ask(.printAgain(file: Self.collage))) != nil)
    desk.jobChanged(2, state: .completed)
    #expect(desk.ask(.print) == .refused("this photo has had its 2 prints (--max-prints 2)"))
    #expect(desk.jobs.map(\.state) == [.aborted, .completed])
  }

  @Test("--auto-print sends each new photo as it is offered, with the copies asked")
  func autoPrint() {
    var desk = PrintDesk(PrintDesk.Rules(copies: 2, autoPrint: true))
    let job = Self.sent(desk.offer(Self.collage))
    #expect(job?.copies == 2)
    #expect(desk.words == "sending 1 of 1 (2 copies)")
    #expect(desk.offer(Self.collage) == .refused("this photo is printing already"))
  }

  @Test("Resume only for a stopped printer or a queue that refuses prints")
  func resume() {
    var desk = PrintDesk(PrintDesk.Rules())
    #expect(desk.ask(.resume) == .refused("the printer is not stopped"))
    desk.printerChanged(.status(PrinterStatus(state: .idle)))
    #expect(!desk.canResume)
    // Out of paper reported while printing, before CUPS stops the queue: Resume already.
    desk.printerChanged(.status(PrinterStatus(state: .processing, reasons: ["media-empty-error"])))
    #expect(desk.canResume)
    desk.printerChanged(.status(PrinterStatus(state: .idle, reasons: ["media-low-report"])))
    #expect(!desk.canResume)
    desk.printerChanged(
      .status(PrinterStatus(state: .stopped, reasons: ["media-empty-error", "paused"])))
    #expect(desk.canResume)
    #expect(desk.words == "the printer stopped: out of paper: load paper, then press Resume")
    #expect(desk.ask(.resume) == .accepted([.resume]))
    desk.printerChanged(.status(PrinterStatus(state: .idle, accepting: false)))
    #expect(desk.ask(.resume) == .accepted([.resume]))
    desk.printerChanged(.unreachable("no printer named 'selphy' in CUPS"))
    #expect(desk.ask(.resume) == .refused("no printer named 'selphy' in CUPS"))
    #expect(desk.words == "no printer: no printer named 'selphy' in CUPS")
  }

  @Test("A Resume that failed is said with the words until the printer changes or Resume again")
  func resumeFailed() {
    var desk = PrintDesk(PrintDesk.Rules())
    let paused = PrinterStatus(state: .stopped, reasons: ["paused"])
    desk.printerChanged(.status(paused))
    let stopped = desk.words
    #expect(desk.ask(.resume) == .accepted([.resume]))
    desk.resumeFailed("not allowed: add yourself to the lpadmin group")
    #expect(
      desk.words
        == "\(stopped ?? "") · Resume failed: not allowed: add yourself to the lpadmin group")
    // The same state heard again keeps it; Resume asked again clears it.
    desk.printerChanged(.status(paused))
    #expect(desk.resumeFailure != nil)
    #expect(desk.ask(.resume) == .accepted([.resume]))
    #expect(desk.words == stopped)
    desk.resumeFailed("the print server does not answer")
    desk.printerChanged(.status(PrinterStatus(state: .idle)))
    #expect(desk.resumeFailure == nil)
    #expect(desk.words == nil)
  }

  @Test("The printer's reasons in words, with the step; warnings do not stop it")
  func troubles() {
    func words(_ reasons: [String], state: PrinterStatus.State = .stopped) -> [String] {
      PrinterStatus(state: state, reasons: reasons).troubles.map(\.description)
    }
    #expect(words(["media-empty-error"]) == ["out of paper: load paper, then press Resume"])
    #expect(words(["media-needed"]) == ["out of paper: load paper, then press Resume"])
    #expect(
      words(["marker-supply-empty-error"])
        == ["out of ink or ribbon: put in a new ribbon or cartridge, then press Resume"])
    #expect(words(["door-open-error"]) == ["a door is open: close it, then press Resume"])
    #expect(
      words(["offline-report"], state: .idle) == [
        "the printer is offline: switch it on and check its cable"
      ])
    #expect(words(["media-low-report"], state: .idle) == ["paper is low: load more paper soon"])
    #expect(!PrinterStatus(state: .idle, reasons: ["media-low-report"]).isHeld)
    #expect(words(["none"]) == ["its queue is paused: press Resume to go on"])
    #expect(words(["paused"]) == ["its queue is paused: press Resume to go on"])
    #expect(
      words(["cups-waiting-for-job-completed", "com.example-vendor-thing"], state: .idle).isEmpty)
    #expect(
      PrinterStatus(state: .idle, accepting: false).troubles
        == [.refusing])
  }
}
