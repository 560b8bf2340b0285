import PhotoTimer

/// What happened to a print or the printer, for the outputs: the JSON events `print` and
/// `printer`, the plain lines, and the notice every screen shows.
package enum PrintEvent: Sendable, Equatable {
  /// Print `job` changed (sent, printing, printed, stopped, failed); `prints`: the prints of
  /// its photo so far.
  case job(PrintJob, prints: Int)
  /// The printer's state changed.
  case printer(PrinterStatus)
  /// The printer cannot be reached, or is gone: why.
  case unreachable(String)
  /// A print was refused (the automatic one, or a key's): why.
  case refused(String)
  /// The paper differs from what the layout asked: why.
  case note(String)
  /// Resume did not let the printer go on: why (CUPS refused it, or could not be reached).
  case resumeFailed(String)

  /// The event as a JSON line at `time`.
  package func jsonLine(time: Duration) -> String {
    var object = JSONObject()
    switch self {
    case .job(let job, let prints):
      object.add("event", "print")
      object.add("t", time.secondsValue)
      object.add("print", job.number)
      if let id = job.id { object.add("job", id) }
      object.add("state", job.state.rawValue)
      object.add("file", job.file)
      object.add("copies", job.copies)
      object.add("prints", prints)
      if let reason = job.reason { object.add("reason", reason) }
    case .printer(let status):
      object.add("event", "printer")
      object.add("t", time.secondsValue)
      object.add("state", status.state.rawValue)
      object.addRaw(
        "reasons", "[" + status.reasons.map(JSONObject.quote).joined(separator: ",") + "]")
      object.addRaw("accepting", status.accepting ? "true" : "false")
      if let trouble = status.troubles.first {
        object.add("trouble", trouble.what)
        object.add("step", trouble.step)
      }
    case .unreachable(let why):
      object.add("event", "printer")
      object.add("t", time.secondsValue)
      object.add("state", "unreachable")
      object.add("error", why)
    case .refused(let why):
      object.add("event", "print")
      object.add("t", time.secondsValue)
      object.add("state", "refused")
      object.add("reason", why)
    case .note(let why):
      object.add("event", "printer")
      object.add("t", time.secondsValue)
      object.add("note", why)
    case .resumeFailed(let why):
      object.add("event", "printer")
      object.add("t", time.secondsValue)
      object.add("resume", "failed")
      object.add("error", why)
    }
    return object.text
  }

  /// The event as a plain line.
  package var line: String {
    switch self {
    case .job(let job, _):
      let id = job.id.map { " (job \($0))" } ?? ""
      let reason = job.reason.map { ": \($0)" } ?? ""
      return "print \(job.number)\(id): \(job.state.words)\(reason)"
    case .printer(let status):
      if let trouble = status.troubles.first { return "printer: \(trouble)" }
      return "printer: \(status.state.rawValue)"
    case .unreachable(let why): return "printer: \(why)"
    case .refused(let why): return "not printed: \(why)"
    case .note(let why): return "printer: \(why)"
    case .resumeFailed(let why): return "printer: Resume failed: \(why)"
    }
  }

  /// What every screen shows of the event, beside its line.
  package var notice: String? {
    switch self {
    case .job(let job, _):
      switch job.state {
      case .completed: return job.copies > 1 ? "printed \(job.copies) copies" : "printed"
      case .failed, .aborted, .cancelled:
        return "not printed: \(job.reason ?? job.state.rawValue) (press Print to try again)"
      default: return nil
      }
    case .printer(let status):
      return status.troubles.first.map { "the printer stopped: \($0)" }
    case .unreachable(let why): return "no printer: \(why)"
    case .refused(let why): return "not printed: \(why)"
    case .note(let why): return why
    case .resumeFailed(let why): return "Resume failed: \(why)"
    }
  }
}

extension PrintJob.State {
  /// `sent`, `printing`, `printed`…
  package var words: String {
    switch self {
    case .sending: "sending"
    case .pending: "waiting in the queue"
    case .held: "held in the queue"
    case .processing: "printing"
    case .stopped: "stopped"
    case .cancelled: "cancelled"
    case .aborted: "given up by CUPS"
    case .completed: "printed"
    case .failed: "not printed"
    }
  }
}
