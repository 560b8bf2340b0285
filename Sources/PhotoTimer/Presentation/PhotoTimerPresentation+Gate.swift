/// The one gate: what can be done now, why not, and the words each kind of screen asks with.
extension PhotoTimerPresentation {
  /// Who reads a screen, and so the words it takes.
  public enum Audience: Hashable, Sendable {
    /// The terminal and the window: keys (`press space to start`) and the computer's paths.
    case keyboard
    /// The phone page: taps (`tap Start`), and a photo's name, never a path of the computer.
    case phone

    /// How to ask for `action` on this screen: `press space`, `tap Start`.
    public func prompt(_ action: Action) -> String {
      switch self {
      case .keyboard: "press \(action.key)"
      case .phone: "tap \(action.title)"
      }
    }
  }

  /// Something the user can do now: the one list of intents every front end maps its keys,
  /// buttons and requests to. The raw value is the intent's name on the wire and in GActions
  /// (`take-now`).
  public enum Action: String, Hashable, Sendable, CaseIterable {
    /// Start the count.
    case start
    /// End the count and take the photo at once.
    case takeNow = "take-now"
    /// Cancel the run.
    case cancel
    /// Cancel the run and start it again.
    case restart
    /// Leave.
    case quit
    /// Turn the count that starts by itself once the group is in and still on or off (the
    /// switch beside Start; `--start-when-ready` turns it on at the start).
    case autoStart = "start-when-ready"
    /// Keep the booth's shot just taken (the next shot's count starts, or the collage).
    case keep
    /// Take the booth's shot again.
    case retake
    /// Print the last photo or collage (`--print`): the print desk (``PrintDesk``) sends it.
    case print
    /// Let a stopped printer go on (`--print`).
    case resume

    /// The action on a button: `Take it now`.
    public var title: String { label.prefix(1).uppercased() + label.dropFirst() }

    /// The key that asks for it in the terminal and the window (the window also takes Esc
    /// for cancel and Ctrl+Q for quit): `space`, `c`, `r`, `q`.
    public var key: String {
      switch self {
      case .start, .takeNow, .keep: "space"
      case .cancel: "c"
      case .restart, .retake: "r"
      case .quit: "q"
      case .autoStart: "w"
      case .print: "p"
      case .resume: "u"
      }
    }

    /// What the action does, in a few words: `take it now`.
    public var label: String {
      switch self {
      case .start: "start"
      case .takeNow: "take it now"
      case .cancel: "cancel"
      case .restart: "restart"
      case .quit: "quit"
      case .autoStart: "start when ready"
      case .keep: "keep"
      case .retake: "retake"
      case .print: "print"
      case .resume: "resume"
      }
    }
  }

  /// What asking for `action` does now, in a few words: the action's ``Action/label``, but
  /// for the switch what pressing it does (`start when ready`, or `start by hand` while on).
  public func label(of action: Action) -> String {
    action == .autoStart && autoStart == true ? "start by hand" : action.label
  }

  /// The countdowns a front end offers to choose from, in seconds (0: no count); a front end
  /// adds the one in use when it is not among them.
  public static let countdownChoices = [0, 3, 5, 10]

  /// A countdown choice in words: `no count`, `5 s`.
  public static func countdownLabel(_ seconds: Int) -> String {
    seconds == 0 ? "no count" : "\(seconds) s"
  }

  /// Why `action` cannot be done now, in words (`a count is already running`), or `nil` when
  /// it can: what a remote is answered, what a refused key would say.
  public func refusal(of action: Action) -> String? {
    actions.contains(action) ? nil : refusals[action] ?? "not now"
  }

  /// The first of `candidates` that can be done now: a key or a shortcut that serves two
  /// intents in turn (space takes it now while counting, else starts).
  public func first(of candidates: [Action]) -> Action? {
    candidates.first { actions.contains($0) }
  }

  static func refusals(
    _ status: PhotoTimerStatus, context: Context, allowed: [Action]
  ) -> [Action: String] {
    var reasons: [Action: String] = [:]
    for action in Action.allCases where !allowed.contains(action) {
      reasons[action] = refusal(action, status, context: context)
    }
    return reasons
  }

  private static func refusal(
    _ action: Action, _ status: PhotoTimerStatus, context: Context
  )
    -> String
  {
    if context.isOver { return "the program is closing" }
    // NB: printing has its own reasons, the print desk's, whatever the run does.
    if action == .print || action == .resume {
      guard let printing = context.printing else { return "no printer here: start with --print" }
      return (action == .print ? printing.printRefusal : printing.resumeRefusal) ?? "not now"
    }
    if context.betweenShots { return "a time-lapse is waiting for its next shot: cancel it first" }
    if action == .restart, context.photoTaken {
      return "a time-lapse is under way: cancel it to start again"
    }
    if let booth = context.booth, booth.settling {
      return "\(booth.words) is being saved: a moment"
    }
    if let booth = context.booth, booth.reviewing {
      switch action {
      case .retake: return "no retakes left for \(booth.words)"
      case .quit: return "a booth session is going: cancel it first"
      default: return "\(booth.words) is waiting: keep it or take it again"
      }
    }
    switch (action, status) {
    case (.quit, _): return "a run is going: cancel it first"
    case (.start, .counting): return "a count is already running"
    case (.start, .waiting), (.start, .capturing): return "a photo is being taken"
    case (.takeNow, .waiting), (.takeNow, .capturing):
      return "the count is over: the photo is being taken"
    case (.start, _):
      if let problem = context.problem { return "the camera is not ready: \(problem)" }
      return "the camera is still starting"
    case (.takeNow, _), (.cancel, _), (.restart, _): return "no count is running"
    case (.keep, _): return "no shot to keep now"
    case (.retake, _): return "no shot to take again now"
    case (.autoStart, _):
      return "no count starts by itself here: it needs a camera on screen and the people step"
    case (.print, _), (.resume, _): return "not now"
    }
  }

  static func actions(_ status: PhotoTimerStatus, context: Context) -> [Action] {
    if context.isOver { return [] }
    // NB: Print and Resume whenever the print desk allows them, a count running or not.
    var printing: [Action] = []
    if context.printing?.canPrint == true { printing.append(.print) }
    if context.printing?.canResume == true { printing.append(.resume) }
    return runActions(status, context: context) + printing
  }

  private static func runActions(_ status: PhotoTimerStatus, context: Context) -> [Action] {
    if context.betweenShots { return [.cancel] }
    if let booth = context.booth, booth.settling { return [.cancel] }
    if let booth = context.booth, booth.reviewing {
      return [.keep] + (booth.retakesLeft > 0 ? [.retake] : []) + [.cancel]
    }
    // NB: the switch is there whenever it can be used, counting or not: turned on during a
    // count, it waits for the next group.
    let switchable: [Action] = context.autoStart != nil ? [.autoStart] : []
    // NB: a time-lapse that has taken its first photo goes on: a restart would not count it
    // again from the top.
    let restart: [Action] = context.photoTaken ? [] : [.restart]
    switch status {
    case .counting: return [.takeNow, .cancel] + restart + switchable
    case .waiting, .capturing: return [.cancel] + restart + switchable
    case .idle where context.cameraStarting && context.startsWhenReady && !context.hasRun:
      return [.takeNow, .quit]
    case .idle, .captured, .failed:
      let canStart = !context.cameraStarting && context.problem == nil
      return (canStart ? [.start] : []) + switchable + [.quit]
    }
  }
}
