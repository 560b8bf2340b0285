/// What every front end shows at one moment, as words and states: the one place the screen
/// is decided.
///
/// A presentation is a pure value computed from the run's state (``PhotoTimerState``) and
/// what surrounds the run (``Context``): the window, the terminal's live view and the plain
/// lines only draw it, so the same moment reads the same everywhere. JSON output stays the
/// event stream.
///
/// ```swift
/// let shown = PhotoTimerPresentation(state: model.state, context: .init(hasRun: true))
/// label.text = shown.status.text          // "Waiting for the camera to end its live view…"
/// for row in shown.checklist {
///   print(row.mark.symbol, row.label, row.detail, row.time ?? "")
/// }
/// ```
public struct PhotoTimerPresentation: Hashable, Sendable {
  /// What surrounds the run: the camera before it, framing between counts, notes.
  public struct Context: Hashable, Sendable {
    /// The camera the screen shows is still opening: nothing can start yet.
    public var cameraStarting: Bool
    /// Why nothing can start (a camera that failed to open), shown instead of the status.
    public var problem: String?
    /// A run has started since the screen opened: an idle state after it is a cancel.
    public var hasRun: Bool
    /// Nothing more will happen (the command is ending): steps still running show as stopped.
    public var isOver: Bool
    /// Framing between counts (`--frame`), or `nil`.
    public var framing: Framing?
    /// Something that happened outside the run: a restart, a time-lapse shot.
    public var note: String?
    /// A time-lapse waits for its next shot: the session goes on after this photo.
    public var betweenShots: Bool
    /// Who reads the screen: a keyboard's user (keys, paths) or a phone's (taps, names).
    public var audience: Audience
    /// The count starts by itself once the camera is open (the command without `--frame`):
    /// while it opens, take it now is allowed, and done as soon as the count begins.
    public var startsWhenReady: Bool
    /// The faces followed in the picture now (``FaceMark``), by the people step or a count
    /// that waits for the people; empty when no one follows them.
    public var faces: [FaceMark]
    /// The switch for a count that starts by itself once the group is in and still: on,
    /// off, or `nil` where there is none (no camera on screen, the people step off, a single
    /// count that starts at once).
    public var autoStart: Bool?
    /// The session under way has taken a photo (a time-lapse goes on): it can be cancelled,
    /// no longer restarted from the top.
    public var photoTaken = false
    /// The booth session under way, or `nil` outside one.
    public var booth: BoothProgress?
    /// Printing, where the front end prints: what the print desk allows now, and why not.
    public var printing: PrintControls?

    /// Creates a context; by default a ready camera and no run yet.
    ///
    /// - Parameters:
    ///   - cameraStarting: The camera is still opening.
    ///   - problem: Why nothing can start, if anything.
    ///   - hasRun: A run has started since the screen opened.
    ///   - isOver: Nothing more will happen.
    ///   - framing: Framing between counts.
    ///   - note: A restart, a time-lapse shot.
    ///   - betweenShots: A time-lapse waits for its next shot.
    ///   - audience: Who reads the screen; the keyboard's user by default.
    ///   - startsWhenReady: The count starts by itself once the camera is open.
    ///   - faces: The faces followed in the picture now.
    ///   - autoStart: The switch for a count that starts by itself, if there is one.
    public init(
      cameraStarting: Bool = false, problem: String? = nil, hasRun: Bool = false,
      isOver: Bool = false, framing: Framing? = nil, note: String? = nil,
      betweenShots: Bool = false, audience: Audience = .keyboard, startsWhenReady: Bool = false,
      faces: [FaceMark] = [], autoStart: Bool? = nil
    ) {
      self.faces = faces
      self.autoStart = autoStart
      self.audience = audience
      self.startsWhenReady = startsWhenReady
      self.cameraStarting = cameraStarting
      self.problem = problem
      self.hasRun = hasRun
      self.isOver = isOver
      self.framing = framing
      self.note = note
      self.betweenShots = betweenShots
    }
  }

  /// Between counts with framing: how many photos were taken, the last one, a problem.
  public struct Framing: Hashable, Sendable {
    /// Photos taken so far.
    public var photos: Int
    /// The last photo's file name.
    public var lastFile: String?
    /// Why the last count did not give a photo.
    public var problem: String?
    /// The last count was cancelled (said until the next one starts).
    public var cancelled: Bool
    /// What a count that starts by itself waits for (`waiting for everyone: 4 of 6`, `hold
    /// still`), or `nil` when counts start by hand only.
    public var waiting: String?

    /// Creates a framing note.
    ///
    /// - Parameters:
    ///   - photos: Photos taken so far.
    ///   - lastFile: The last photo's file name.
    ///   - problem: Why the last count gave no photo.
    ///   - cancelled: The last count was cancelled.
    ///   - waiting: What a count that starts by itself waits for.
    public init(
      photos: Int = 0, lastFile: String? = nil, problem: String? = nil, cancelled: Bool = false,
      waiting: String? = nil
    ) {
      self.photos = photos
      self.lastFile = lastFile
      self.problem = problem
      self.cancelled = cancelled
      self.waiting = waiting
    }
  }

  /// How a line reads: its colour in the terminal, its style in the window.
  public enum Tone: Hashable, Sendable {
    /// Plain text.
    case plain
    /// Something is under way: drawn with a spinner.
    case busy
    /// It worked.
    case success
    /// It failed: drawn as an error.
    case failure
  }

  /// The line under the count.
  public struct Status: Hashable, Sendable {
    /// The words, a sentence starting with a capital.
    public var text: String
    /// How it reads.
    public var tone: Tone
  }

  /// One preparation in the checklist.
  public struct Row: Hashable, Sendable {
    /// How the step stands.
    public enum Mark: Hashable, Sendable {
      /// Not started.
      case pending
      /// Running: a spinner.
      case working
      /// Ended with its value.
      case done
      /// Failed.
      case failed
      /// Dropped at the shutter: the photo went without it.
      case leftOut
      /// Turned off.
      case off
      /// Still running when everything stopped.
      case stopped

      /// The mark as one character: `✓`, `✗`, `–`, `·`; `nil` for a spinner.
      public var symbol: String? {
        switch self {
        case .done: "✓"
        case .failed: "✗"
        case .leftOut, .stopped: "–"
        case .pending, .off: "·"
        case .working: nil
        }
      }

      /// The tone of the mark.
      public var tone: Tone {
        switch self {
        case .done: .success
        case .failed: .failure
        case .working: .busy
        case .pending, .leftOut, .off, .stopped: .plain
        }
      }
    }

    /// The step.
    public var step: PreparationStep
    /// Its name: `camera`, `location`, `filter`.
    public var label: String
    /// How it stands.
    public var mark: Mark
    /// Its value, why it failed or was left out, or what it waits for now.
    public var detail: String
    /// When it ended, as `1.4 s` from the start; `nil` while it runs or when it never ran.
    public var time: String?
  }

  /// One line of a photo's summary: `settings  f/2.8 · 1/60 s · ISO 400`.
  public struct SummaryRow: Hashable, Sendable {
    /// What the row is: `file`, `settings`, `place`, `look`, `shutter`.
    public var label: String
    /// Its value.
    public var value: String
    /// A word about the value, shown dimmed, or `nil`.
    public var note: String?
  }

  /// The number over the picture while counting, or `nil`.
  public var count: Int?
  /// The line under the count.
  public var status: Status
  /// The three preparations, in order.
  public var checklist: [Row]
  /// What the user can do now, in the order hints show them: the one gate every front end
  /// asks (``refusal(of:)`` says why another is not).
  public var actions: [Action]
  /// Why each action not in ``actions`` cannot be done now.
  private(set) var refusals: [Action: String]
  /// A restart or a time-lapse shot, if one is the latest news.
  public var note: String?
  /// The photo taken, summarised; empty until there is one.
  public var summary: [SummaryRow]
  /// Whether something turns (a spinner): front ends animate only while this is true.
  public var isAnimating: Bool
  /// The faces to outline over the live preview: green with open eyes, amber blinking.
  /// Empty when no one follows the people, and whenever the screen shows something else than
  /// the live picture (the photo just taken, a failure, the end).
  public var faces: [FaceMark]
  /// The switch for a count that starts by itself once the group is in: on, off, or `nil`
  /// where there is none (``Action/autoStart`` turns it).
  public var autoStart: Bool?
  /// Printing, where the front end prints (`--print`): what it offers and where it is; `nil`
  /// elsewhere. The print desk (``PrintDesk``) answers its intents.
  public var printing: PrintControls?

  /// The presentation of `state` in `context`.
  ///
  /// - Parameters:
  ///   - state: The run's state.
  ///   - context: What surrounds the run.
  public init(state: PhotoTimerState, context: Context = Context()) {
    note = context.note
    count = nil
    if context.framing == nil, context.problem == nil,
      case .counting(let remaining) = state.status, remaining > 0
    {
      count = remaining
    }
    status = Self.status(of: state, context: context)
    let started = context.hasRun || state.status != .idle
    checklist = PreparationStep.allCases.map { step in
      Self.row(step, state: state, started: started && context.framing == nil, over: context.isOver)
    }
    actions = Self.actions(state.status, context: context)
    refusals = Self.refusals(state.status, context: context, allowed: actions)
    if case .captured(let photo) = state.status {
      summary = Self.summary(of: photo, audience: context.audience)
    } else {
      summary = []
    }
    isAnimating =
      !context.isOver && (status.tone == .busy || checklist.contains { $0.mark == .working })
    faces = Self.showsLivePicture(state.status, context: context) ? context.faces : []
    autoStart = context.isOver ? nil : context.autoStart
    printing = context.isOver ? nil : context.printing
  }
}

extension PhotoTimerPresentation {
  /// Whether the screen shows the live picture now: framing, or before and during a count;
  /// not the photo, a failure or a camera that is not there.
  private static func showsLivePicture(_ status: PhotoTimerStatus, context: Context) -> Bool {
    guard context.problem == nil, !context.isOver, !context.cameraStarting else { return false }
    if context.framing != nil { return true }
    switch status {
    case .idle, .counting, .waiting: return true
    case .capturing, .captured, .failed: return false
    }
  }

  private static func status(of state: PhotoTimerState, context: Context) -> Status {
    var status = plainStatus(of: state, context: context)
    guard let booth = context.booth, context.problem == nil else { return status }
    let shot = sentence(booth.words, ellipsis: false)
    if booth.reviewing {
      let keep = "\(context.audience.prompt(.keep)) to keep it"
      let retake =
        booth.retakesLeft > 0 ? " · \(context.audience.prompt(.retake)) to take it again" : ""
      return Status(text: "\(shot): \(keep)\(retake)", tone: .success)
    }
    status.text = "\(shot) · \(status.text)"
    return status
  }

  private static func plainStatus(of state: PhotoTimerState, context: Context) -> Status {
    if let problem = context.problem { return Status(text: problem, tone: .failure) }
    if let framing = context.framing { return framingStatus(framing, audience: context.audience) }
    switch state.status {
    case .idle:
      if context.cameraStarting { return Status(text: "Starting the camera…", tone: .busy) }
      let start = context.audience.prompt(.start)
      if context.hasRun {
        let text = context.isOver ? "Cancelled" : "Cancelled: \(start) to count again"
        return Status(text: text, tone: .plain)
      }
      return Status(text: "Frame the shot, then \(start) to count", tone: .plain)
    case .counting(let remaining) where remaining > 0:
      return Status(text: "Counting down: \(remaining)", tone: .plain)
    case .counting:
      return Status(text: "Shutter…", tone: .busy)
    case .waiting(let steps):
      let words = PhotoTimerStatus.waitingLine(for: steps, activity: state.activity)
      return Status(text: sentence(words, ellipsis: true), tone: .busy)
    case .capturing:
      return Status(text: "Taking the photo…", tone: .busy)
    case .captured(let photo):
      let name = context.audience == .phone ? photo.file?.lastPathComponent : photo.file?.path
      return Status(text: name.map { "Saved \($0)" } ?? "Photo taken", tone: .success)
    case .failed(let failure):
      return Status(text: sentence(failure.message, ellipsis: false), tone: .failure)
    }
  }

  private static func framingStatus(_ framing: Framing, audience: Audience) -> Status {
    let start = audience.prompt(.start)
    var text =
      framing.cancelled
      ? "Cancelled: \(start) to count again"
      : "Framing: \(start) to start the count"
    if let waiting = framing.waiting {
      // NB: what the people are waited for leads; starting by hand stays one tap away.
      text = (framing.cancelled ? "Cancelled · " : "") + sentence(waiting, ellipsis: false)
      text += " · or \(start) to start now"
    }
    if let file = framing.lastFile {
      text += " · ✓ \(framing.photos) taken, last \(file)"
    }
    if let problem = framing.problem {
      return Status(text: text + " · ✗ \(problem)", tone: .failure)
    }
    return Status(text: text, tone: .plain)
  }

  /// `words` with a capital first letter, and an ellipsis when asked for and missing.
  private static func sentence(_ words: String, ellipsis: Bool) -> String {
    let capital = words.prefix(1).uppercased() + words.dropFirst()
    return ellipsis && !capital.hasSuffix("…") ? capital + "…" : capital
  }

  private static func row(
    _ step: PreparationStep, state: PhotoTimerState, started: Bool, over: Bool
  ) -> Row {
    var row = Row(step: step, label: step.rawValue, mark: .pending, detail: "", time: nil)
    if let report = state.reports[step] {
      let time = "\(report.elapsed.formattedSeconds(fractionDigits: 1)) s"
      switch report.outcome {
      case .succeeded(let value):
        (row.mark, row.detail, row.time) = (.done, value.description, time)
      case .failed(let reason):
        (row.mark, row.detail, row.time) = (.failed, reason, time)
      case .dropped(let reason):
        (row.mark, row.detail, row.time) = (.leftOut, "left out: \(reason)", time)
      case .skipped(let reason):
        (row.mark, row.detail) = (.off, reason)
      }
    } else if !started {
      row.mark = .pending
    } else if state.status.isRunning, !over {
      (row.mark, row.detail) = (.working, state.activity[step] ?? "working…")
    } else {
      // NB: the run ended (cancelled, failed, or the command is ending) with this step running.
      (row.mark, row.detail) = (.stopped, "stopped")
    }
    return row
  }

  private static func summary(of photo: CapturedPhoto, audience: Audience) -> [SummaryRow] {
    let file = audience == .phone ? photo.file?.lastPathComponent : photo.file?.path
    var look = photo.filter.description
    if case .succeeded(.filter(let suggestion))? = photo.report(for: .filter)?.outcome,
      !suggestion.reason.isEmpty
    {
      look += " (\(suggestion.reason))"
    }
    var rows = [
      SummaryRow(label: "file", value: file ?? "none (simulation)"),
      SummaryRow(label: "settings", value: photo.settings.description, note: photo.settingsNote),
      SummaryRow(
        label: "place",
        value: photo.location?.description
          ?? "none: \(photo.locationUnavailableReason ?? "location off")"),
      SummaryRow(label: "look", value: look),
      SummaryRow(
        label: "shutter",
        value: "\(photo.shutterOffset.formattedSeconds(fractionDigits: 2)) s after the start"),
    ]
    if let people = photo.people {
      rows.insert(SummaryRow(label: "people", value: people.sentence), at: 4)
    }
    return rows
  }
}
