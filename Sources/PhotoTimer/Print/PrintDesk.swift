/// What may be printed next, decided in one place for every front end: a pure state machine
/// (inputs in, effects out, nothing done) beside ``FrontEndSession``.
///
/// It keeps the photo or collage a Print prints (the last one made), the prints sent and
/// where each is, how often each photo was printed, and the printer's state; it answers Print
/// and Resume with ``Reply/accepted(_:)`` and the effects to carry out, or
/// ``Reply/refused(_:)`` and the reason in words. Nobody wastes paper: a photo printing now
/// is not sent again, a photo has at most ``Rules/maxPrints`` prints, and no more than
/// ``Rules/maxQueue`` prints wait at once. A print that failed is kept (``jobs``) and its
/// photo may be printed again.
///
/// ```swift
/// var desk = PrintDesk(PrintDesk.Rules(destination: "selphy"))
/// desk.offer("/photos/collage.jpg")
/// switch desk.ask(.print) {
/// case .accepted(let effects): run(effects)     // [.submit(job)]
/// case .refused(let reason): show(reason)       // "this photo is printing already"
/// }
/// ```
public struct PrintDesk: Equatable, Sendable {
  /// How printing goes.
  public struct Rules: Equatable, Sendable {
    /// The printer's name (`nil`: the print server's default).
    public var destination: String?
    /// Copies of each print.
    public var copies: Int
    /// The most prints of one photo (`nil`: no limit).
    public var maxPrints: Int?
    /// The most prints waiting or printing at once.
    public var maxQueue: Int
    /// Each new photo or collage is printed as soon as it is saved.
    public var autoPrint: Bool

    /// Creates rules: one copy, no limit a photo, two prints at once, none automatic.
    public init(
      destination: String? = nil, copies: Int = 1, maxPrints: Int? = nil, maxQueue: Int = 2,
      autoPrint: Bool = false
    ) {
      self.destination = destination
      self.copies = copies
      self.maxPrints = maxPrints
      self.maxQueue = maxQueue
      self.autoPrint = autoPrint
    }
  }

  /// What a person (or the automatic print) asks.
  public enum Intent: Equatable, Sendable {
    /// Print the last photo or collage.
    case print
    /// Print this file again (a print that failed).
    case printAgain(file: String)
    /// Let the printer go on: its queue enabled and taking jobs again.
    case resume
  }

  /// What the front end carries out.
  public enum Effect: Equatable, Sendable {
    /// Send this print to the printer, then tell the desk (``sent(_:id:)`` or
    /// ``jobChanged(_:state:reason:)`` with `.failed`).
    case submit(PrintJob)
    /// Enable the printer's queue and let it take jobs.
    case resume
  }

  /// The answer to an intent.
  public enum Reply: Equatable, Sendable {
    /// Allowed: carry out these effects.
    case accepted([Effect])
    /// Not now, and why, in words a screen shows (`this photo is printing already`).
    case refused(String)

    /// The effects, or none when refused.
    public var effects: [Effect] {
      if case .accepted(let effects) = self { return effects }
      return []
    }
  }

  /// What the desk knows of the printer.
  public enum Printer: Equatable, Sendable {
    /// Not asked yet.
    case unknown
    /// As it said last.
    case status(PrinterStatus)
    /// It cannot be reached, or is gone: why, in words.
    case unreachable(String)
  }

  /// The rules.
  public let rules: Rules
  /// Every print sent this run, oldest first; those that failed stay.
  public private(set) var jobs: [PrintJob] = []
  /// What Print prints: the last photo or collage, if one was made.
  public private(set) var latest: String?
  /// The printer, as last heard.
  public private(set) var printer: Printer = .unknown
  /// Why the last Resume did not let the printer go on (CUPS refused it, or could not be
  /// reached), said with the words until the printer's state changes or Resume is asked again.
  public private(set) var resumeFailure: String?
  /// The prints each photo had before this run (an event's log), by file.
  public let earlier: [String: Int]

  /// A desk with these rules and nothing printed in this run; `earlier`: the prints each
  /// photo had before (they count against ``Rules/maxPrints``).
  public init(_ rules: Rules, earlier: [String: Int] = [:]) {
    self.rules = rules
    self.earlier = earlier
  }

  /// The prints of `file` that count against ``Rules/maxPrints``: those printed and those on
  /// their way (a failed one does not count), earlier runs' too.
  public func prints(of file: String) -> Int {
    (earlier[file] ?? 0) + jobs.filter { $0.file == file && !$0.state.failedToPrint }.count
  }

  /// The prints waiting or printing.
  public var inFlight: [PrintJob] { jobs.filter { !$0.state.isOver } }

  /// A photo or collage was saved: Print prints it from now on, and with
  /// ``Rules/autoPrint`` it is sent now (a refusal is then said, not shown as a refused key).
  public mutating func offer(_ file: String) -> Reply {
    latest = file
    guard rules.autoPrint else { return .accepted([]) }
    return ask(.print)
  }

  /// Asks for `intent`: accepted with its effects, or refused with the reason.
  public mutating func ask(_ intent: Intent) -> Reply {
    switch intent {
    case .resume:
      guard canResume else {
        if case .unreachable(let why) = printer { return .refused(why) }
        return .refused("the printer is not stopped")
      }
      resumeFailure = nil
      return .accepted([.resume])
    case .print:
      guard let latest else { return .refused("nothing to print yet") }
      return send(latest)
    case .printAgain(let file):
      guard jobs.contains(where: { $0.file == file }) || earlier[file] != nil else {
        return .refused("that photo was never printed here")
      }
      return send(file)
    }
  }

  private mutating func send(_ file: String) -> Reply {
    if inFlight.contains(where: { $0.file == file }) {
      return .refused("this photo is printing already")
    }
    if let most = rules.maxPrints, prints(of: file) >= most {
      return .refused(
        "this photo has had its \(most) print\(most == 1 ? "" : "s") (--max-prints \(most))")
    }
    let waiting = inFlight.count
    if waiting >= rules.maxQueue {
      return .refused(
        "\(waiting) print\(waiting == 1 ? " is" : "s are") waiting: try again when one is out"
          + " (--max-queue \(rules.maxQueue))")
    }
    let job = PrintJob(number: jobs.count + 1, file: file, copies: rules.copies)
    jobs.append(job)
    return .accepted([.submit(job)])
  }

  /// Print `number` is with the print server as job `id`, waiting.
  public mutating func sent(_ number: Int, id: Int) {
    update(number) {
      $0.id = id
      if $0.state == .sending { $0.state = .pending }
    }
  }

  /// Print `number` is now in `state` (`reason`: why it failed or stopped, in words).
  public mutating func jobChanged(_ number: Int, state: PrintJob.State, reason: String? = nil) {
    update(number) {
      $0.state = state
      $0.reason = reason
    }
  }

  private mutating func update(_ number: Int, _ change: (inout PrintJob) -> Void) {
    guard let index = jobs.firstIndex(where: { $0.number == number }) else { return }
    change(&jobs[index])
  }

  /// The printer as heard now.
  public mutating func printerChanged(_ printer: Printer) {
    if printer != self.printer { resumeFailure = nil }
    self.printer = printer
  }

  /// Resume did not let the printer go on: `why`, said with the words
  /// (``resumeFailure``).
  public mutating func resumeFailed(_ why: String) {
    resumeFailure = why
  }

  /// The printer's troubles now, in words, most pressing first; none when it prints.
  public var troubles: [PrinterTrouble] {
    if case .status(let status) = printer { return status.troubles }
    return []
  }

  /// What every screen says of printing now, or `nil` when there is nothing to say: the
  /// printer's trouble and its step, `printing 1 of 2`, `printed`, `not printed: …`.
  public var words: String? {
    guard let resumeFailure else { return standingWords }
    return (standingWords.map { "\($0) · " } ?? "") + "Resume failed: \(resumeFailure)"
  }

  /// The words without a Resume that failed.
  private var standingWords: String? {
    if case .unreachable(let why) = printer, !inFlight.isEmpty || jobs.isEmpty {
      return "no printer: \(why)"
    }
    if let trouble = troubles.first(where: \.stopsPrinting) {
      return "the printer stopped: \(trouble)"
    }
    let flying = inFlight
    if let first = flying.first {
      let copies = first.copies > 1 ? " (\(first.copies) copies)" : ""
      let doing = first.state == .sending ? "sending" : "printing"
      return "\(doing) 1 of \(flying.count)\(copies)"
    }
    guard let last = jobs.last else { return nil }
    switch last.state {
    case .completed: return last.copies > 1 ? "printed \(last.copies) copies" : "printed"
    default:
      return "not printed: \(last.reason ?? last.state.rawValue) (press Print to try again)"
    }
  }

  /// Whether Resume would be accepted now: the printer stopped, or its queue refuses jobs.
  ///
  /// NB: also while a fault keeps it (out of paper) before CUPS has stopped its queue: the
  /// words say "press Resume" from the fault's first report, so Resume is there from then.
  public var canResume: Bool {
    guard case .status(let status) = printer else { return false }
    return status.state == .stopped || !status.accepting || status.isHeld
  }
}

extension PrintJob.State {
  /// Ended without a print: it does not count against a photo's prints.
  var failedToPrint: Bool { self == .cancelled || self == .aborted || self == .failed }
}

/// What a screen offers of printing now: Print and Resume, or why not, and the words of where
/// printing is. Read from the desk (``PrintDesk/controls``) into the front end's gate, so a
/// screen offers exactly what the desk accepts.
public struct PrintControls: Hashable, Sendable {
  /// Why Print would be refused now, or `nil` when it would be accepted.
  public var printRefusal: String?
  /// Why Resume would be refused now, or `nil` when it would be accepted.
  public var resumeRefusal: String?
  /// Where printing is, in words (``PrintDesk/words``).
  public var words: String?

  /// Creates controls.
  public init(printRefusal: String?, resumeRefusal: String?, words: String?) {
    self.printRefusal = printRefusal
    self.resumeRefusal = resumeRefusal
    self.words = words
  }

  /// Print would be accepted now.
  public var canPrint: Bool { printRefusal == nil }
  /// Resume would be accepted now.
  public var canResume: Bool { resumeRefusal == nil }
}

extension PrintDesk {
  /// What a screen offers now.
  public var controls: PrintControls {
    func refusal(_ intent: Intent) -> String? {
      var copy = self
      if case .refused(let why) = copy.ask(intent) { return why }
      return nil
    }
    return PrintControls(
      printRefusal: refusal(.print), resumeRefusal: refusal(.resume), words: words)
  }
}
