/// A printer as its print server reports it: its state, the reasons it gives (IPP
/// `printer-state-reasons`), whether its queue takes jobs, and its message.
public struct PrinterStatus: Equatable, Sendable {
  /// IPP's `printer-state`.
  public enum State: String, Equatable, Sendable {
    /// Waiting for work.
    case idle
    /// Printing.
    case processing
    /// Stopped: paused by hand, or by a fault it reported.
    case stopped
  }

  /// The printer's state.
  public var state: State
  /// The reasons it gives, as IPP keywords (`media-empty-error`); `none` is left out.
  public var reasons: [String]
  /// Whether its queue takes new jobs (CUPS's `printer-is-accepting-jobs`).
  public var accepting: Bool
  /// What it says of itself, if anything (`printer-state-message`).
  public var message: String

  /// Creates a status.
  public init(state: State, reasons: [String] = [], accepting: Bool = true, message: String = "") {
    self.state = state
    self.reasons = reasons.filter { $0 != "none" }
    self.accepting = accepting
    self.message = message
  }

  /// The troubles a person must see, most pressing first: none for a printer at work.
  public var troubles: [PrinterTrouble] {
    var found: [PrinterTrouble] = []
    for reason in reasons {
      guard let trouble = PrinterTrouble(reason: reason), !found.contains(trouble) else {
        continue
      }
      found.append(trouble)
    }
    // NB: a queue stopped or refusing jobs with no fault named was paused by hand.
    if state == .stopped, !found.contains(where: \.stopsPrinting) {
      found.append(.paused)
    }
    if !accepting { found.append(.refusing) }
    return found
  }

  /// Whether the printer cannot print now (a job sent waits): it stopped, or a fault keeps it.
  public var isHeld: Bool { troubles.contains(where: \.stopsPrinting) }
}

/// One of a printer's troubles, in words, with the step a person takes: what every screen
/// shows while it lasts.
public struct PrinterTrouble: Hashable, Sendable, CustomStringConvertible {
  /// What is wrong: `out of paper`.
  public var what: String
  /// What to do: `load paper, then press Resume`.
  public var step: String
  /// Whether it keeps the printer from printing (a warning does not).
  public var stopsPrinting: Bool

  /// Creates a trouble.
  public init(what: String, step: String, stopsPrinting: Bool = true) {
    self.what = what
    self.step = step
    self.stopsPrinting = stopsPrinting
  }

  /// `out of paper: load paper, then press Resume`.
  public var description: String { "\(what): \(step)" }

  /// The queue was paused (`cupsdisable`, or a fault that has passed).
  public static let paused = PrinterTrouble(
    what: "its queue is paused", step: "press Resume to go on")
  /// The queue refuses new jobs (`cupsreject`).
  public static let refusing = PrinterTrouble(
    what: "the printer's queue refuses new prints", step: "press Resume to open it")

  /// The trouble an IPP `printer-state-reasons` keyword names (its `-error`, `-warning` or
  /// `-report` suffix read), or `nil` for one that asks nothing of a person.
  public init?(reason: String) {
    var keyword = reason
    var severity = "error"
    for suffix in ["-error", "-warning", "-report"] where keyword.hasSuffix(suffix) {
      keyword.removeLast(suffix.count)
      severity = String(suffix.dropFirst())
    }
    let stops = severity == "error"
    let resume = stops ? ", then press Resume" : ""
    switch keyword {
    case "media-empty", "media-needed":
      self.init(what: "out of paper", step: "load paper\(resume)", stopsPrinting: stops)
    case "media-low":
      self.init(what: "paper is low", step: "load more paper soon", stopsPrinting: false)
    case "media-jam":
      self.init(what: "paper jam", step: "open the printer, take the jammed paper out\(resume)")
    case "marker-supply-empty", "toner-empty", "marker-waste-full":
      self.init(
        what: "out of ink or ribbon", step: "put in a new ribbon or cartridge\(resume)",
        stopsPrinting: stops)
    case "marker-supply-low", "toner-low":
      self.init(
        what: "ink or ribbon is low", step: "have a new one ready", stopsPrinting: false)
    case "door-open", "cover-open", "interlock-open":
      self.init(what: "a door is open", step: "close it\(resume)", stopsPrinting: stops)
    case "input-tray-missing", "media-tray-missing":
      self.init(what: "the paper tray is out", step: "put it back\(resume)")
    case "offline", "connecting-to-device", "timed-out", "shutdown":
      self.init(
        what: "the printer is offline", step: "switch it on and check its cable\(resume)",
        stopsPrinting: stops)
    case "paused":
      self = .paused
    case "cups-missing-filter", "cups-insecure-filter":
      self.init(
        what: "the printer's driver is broken", step: "reinstall its driver (see doctor)")
    case "other" where stops:
      self.init(what: "the printer reports a fault", step: "look at its screen\(resume)")
    default:
      return nil
    }
  }
}
