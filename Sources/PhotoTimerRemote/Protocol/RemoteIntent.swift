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

  /// The longest count a remote may ask for.
  public static let secondsRange = 0...600

  /// The intent's name in the API: `start`, `take-now`, `cancel`, `restart`.
  public var description: String {
    switch self {
    case .start: "start"
    case .takeNow: "take-now"
    case .cancel: "cancel"
    case .restart: "restart"
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
