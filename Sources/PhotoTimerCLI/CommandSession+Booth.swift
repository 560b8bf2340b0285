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
      if case .collage(_, let file, _, _) = event { model.post(note: "collage saved: \(file)") }
      if let notice = event.notice { model.post(note: notice) }
      await display.showBooth(event, time: time)
    }
  }
}
