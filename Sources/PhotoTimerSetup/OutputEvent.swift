/// Something a front end reports beside the model's own events (a booth's session, a print),
/// in each output's form: a JSON line, a plain line, and what every screen shows of it.
package protocol OutputEvent: Sendable {
  /// The event as a JSON line at `time`.
  func jsonLine(time: Duration) -> String
  /// The event as a plain line.
  var line: String { get }
  /// What every screen shows of it beside its line, if anything.
  var notice: String? { get }
}

extension BoothEvent: OutputEvent {}
extension PrintEvent: OutputEvent {}
