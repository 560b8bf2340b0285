import PhotoTimer

/// What a front end runs beside its model, the booth (`--booth`) and printing (`--print`),
/// with what every front end does alike with them: their reports passed on (the guests'
/// link, the phones, the event's log), each collage and each photo offered to the printer
/// (a booth prints its collages, not its shots), and whether the front end must stay open
/// for them. A front end shows what ``pass(_:remote:time:)`` gives it, then hands it to
/// ``print(_:)``.
@MainActor
package final class FrontEndRunners {
  /// The booth, if the front end is one.
  package let booth: BoothRunner?
  /// Printing, if asked for.
  package let printer: PrintRunner?

  /// A report of the booth or of printing, in the order it came.
  package enum Report: Sendable {
    case booth([BoothEvent])
    case print([PrintEvent])
  }

  /// A report passed on: its events as every output says them, the problems passing them
  /// on met (an event's log that cannot be written), and each collage made, with its guests'
  /// link.
  package struct Passed {
    package var events: [any OutputEvent] = []
    package var problems: [String] = []
    package var collages: [(file: String, guest: String?)] = []
  }

  package init(booth: BoothRunner?, printer: PrintRunner?) {
    self.booth = booth
    self.printer = printer
  }

  /// Has both report to `report`, and starts watching the printer.
  package func start(reporting report: @escaping @MainActor (Report) -> Void) {
    booth?.report = { report(.booth($0)) }
    printer?.report = { report(.print($0)) }
    printer?.start()
  }

  /// Passes `report` on: each event to the phones and to the event's log at `time`, each
  /// collage to its guests (``RemoteLink/publishSession(_:collage:shots:event:)``).
  package func pass(_ report: Report, remote: RemoteLink?, time: Duration) -> Passed {
    var passed = Passed()
    switch report {
    case .booth(let events):
      guard let booth else { return passed }
      let (events, problems) = booth.pass(events, remote: remote, time: time)
      passed.problems = problems
      for event in events {
        if case .collage(_, let file, _, let guest) = event {
          passed.collages.append((file, guest))
        }
      }
      passed.events = events
    case .print(let events):
      guard let printer else { return passed }
      passed.problems = printer.pass(events, remote: remote, time: time)
      passed.events = events
    }
    return passed
  }

  /// Each collage of `passed` offered to the printer, once the front end has shown it: the
  /// printer's own report (`sending`) then comes after the collage's, on every screen.
  package func print(_ passed: Passed) {
    for collage in passed.collages { printer?.offer(collage.file) }
  }

  /// A photo saved: printed when printing, unless the front end is a booth (it prints its
  /// collages).
  package func saved(_ path: String) {
    if booth == nil { printer?.offer(path) }
  }

  /// What the print desk allows now (Print and Resume pass the front end's gate by it).
  package var printing: PrintControls? { printer?.desk.controls }

  /// Whether a front end whose last session has ended stays open: a collage is still being
  /// drawn, saved or said, or a print is on its way (until it is printed, or the printer
  /// holds it). A front end that was signalled stays only for the collage.
  package func keepOpen(signalled: Bool) -> Bool {
    booth?.isComposing == true || (!signalled && printer?.keepsFrontEndOpen == true)
  }

  /// Whether a collage could not be made (the command then exits 1).
  package var collageFailed: Bool { (booth?.failedCollages ?? 0) > 0 }

  /// Saves the collage being drawn, stops following the prints, and returns what the front
  /// end says last: each print still queued (``PrintRunner/finish()``).
  package func finish() async -> [PrintEvent] {
    await booth?.finish()
    return await printer?.finish() ?? []
  }
}

/// Passes one event on: to the phones, and to the event's log at `time`.
///
/// - Returns: The log's problem, if it could not be written.
@MainActor
func passOn(
  _ event: any OutputEvent, remote: RemoteLink?, log: EventLog?, time: Duration
)
  -> String?
{
  let line = event.jsonLine(time: time)
  remote?.hub.publish(eventLine: line)
  do throws(EventLogError) {
    try log?.append(line)
    return nil
  } catch {
    return "\(error)"
  }
}
