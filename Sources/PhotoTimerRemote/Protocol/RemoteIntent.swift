import PhotoTimer

/// What a remote asks the program to do: the same intents as the keys and the buttons.
public enum RemoteIntent: Hashable, Sendable, CustomStringConvertible {
  /// Start the count; `seconds` chooses its length, else the program's own.
  case start(seconds: Int?)
  /// End the count and take the photo at once.
  case takeNow
  /// Cancel the run.
  case cancel
  /// Cancel the run and start it again.
  case restart
  /// Turn the count that starts by itself once the group is in on or off.
  case autoStart(on: Bool)
  /// Keep the booth's shot just taken.
  case keep
  /// Take the booth's shot again.
  case retake
  /// Print the last photo or collage (a program that prints).
  case print
  /// Let the stopped printer go on (a program that prints).
  case resume

  /// The longest count a remote may ask for.
  public static let secondsRange = 0...600

  /// The intents a remote can send: every action but quit (a phone does not close the
  /// program).
  public static let actions = PhotoTimerPresentation.Action.allCases.filter { $0 != .quit }

  /// The action the intent asks for, as every front end names it.
  public var action: PhotoTimerPresentation.Action {
    switch self {
    case .start: .start
    case .takeNow: .takeNow
    case .cancel: .cancel
    case .restart: .restart
    case .autoStart: .autoStart
    case .keep: .keep
    case .retake: .retake
    case .print: .print
    case .resume: .resume
    }
  }

  /// The intent's name in the API: the action's (`start`, `take-now`, `cancel`, `restart`).
  public var description: String { action.rawValue }

  /// The intent for `action` (a start of the program's own length, the switch turned on),
  /// or `nil` for quit.
  public init?(_ action: PhotoTimerPresentation.Action) {
    switch action {
    case .start: self = .start(seconds: nil)
    case .takeNow: self = .takeNow
    case .cancel: self = .cancel
    case .restart: self = .restart
    case .autoStart: self = .autoStart(on: true)
    case .keep: self = .keep
    case .retake: self = .retake
    case .print: self = .print
    case .resume: self = .resume
    case .quit: return nil
    }
  }
}

/// What the program answered a remote's intent.
public enum RemoteReply: Hashable, Sendable {
  /// Done: the intent changed the run (202).
  case accepted
  /// Not now, and why: a start while a count runs (a double tap), a cancel with nothing to
  /// cancel (409).
  case refused(String)
}
