import PhotoTimer
import PhotoTimerSetup

/// What the command does with what its booth reports.
extension CommandSession {
  /// Passes `events` on (the guests' link, the phones, the event's log) and shows them.
  func boothHappened(_ events: [BoothEvent], display: any CommandDisplay) async {
    guard let booth else { return }
    let time = progress.record.now
    let (passed, problems) = booth.pass(events, remote: remote, time: time)
    for problem in problems { model.post(note: problem) }
    for event in passed {
      if case .collage(_, let file, _, _) = event {
        model.post(note: "collage saved: \(file)")
        printer?.offer(file)
      }
      if let notice = event.notice { model.post(note: notice) }
      await display.showEvent(event, time: time)
    }
  }

  /// Passes printing's `events` on (the phones, the event's log) and shows them.
  func printHappened(_ events: [PrintEvent], display: any CommandDisplay) async {
    guard let printer else { return }
    let time = progress.record.now
    for problem in printer.pass(events, remote: remote, time: time) { model.post(note: problem) }
    for event in events {
      if let notice = event.notice ?? printer.desk.words { model.post(note: notice) }
      await display.showEvent(event, time: time)
    }
  }

  /// Whether the command stays open after its last session for a print on its way: until it
  /// is printed, or the printer holds it (out of paper: it stays queued in CUPS), or a signal.
  var printsKeepOpen: Bool {
    guard let printer, progress.record.signal == nil else { return false }
    return printer.keepsFrontEndOpen
  }

  /// Tells the front-end machine what the print desk allows now (Print and Resume pass its
  /// gate by it).
  func syncPrinting() {
    progress.session.printing = printer?.desk.controls
  }
}
