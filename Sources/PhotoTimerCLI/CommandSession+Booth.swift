import PhotoTimer
import PhotoTimerSetup

/// What the command does with what its booth reports: the collage published for its guests,
/// each event in the event's log, on the phones' event stream and on the screen.
extension CommandSession {
  /// Shows, logs and publishes `events`, a collage's guest link first filled in.
  func boothHappened(_ events: [BoothEvent], display: any CommandDisplay) async {
    let time = progress.record.now
    for var event in events {
      if case .collage(let session, let file, let shots, _) = event {
        let guest = remote?.publishSession(
          session, collage: file, shots: shots, event: options.event)
        event = .collage(session: session, file: file, shots: shots, guest: guest)
        model.post(note: "collage saved: \(file)")
      }
      let line = event.jsonLine(time: time)
      remote?.hub.publish(eventLine: line)
      do throws(EventLogError) {
        try log?.append(line)
      } catch {
        model.post(note: "\(error)")
      }
      await display.showBooth(event, time: time)
    }
  }
}
