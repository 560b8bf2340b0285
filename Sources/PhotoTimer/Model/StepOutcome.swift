/// The typed value a preparation step produced.
public enum StepValue: Hashable, Sendable, CustomStringConvertible {
  /// The camera step's exposure.
  case camera(CameraSettings)
  /// The location step's place.
  case location(LocationTag)
  /// The filter step's suggestion.
  case filter(FilterSuggestion)
  /// The people step's last word: who is in the picture.
  case people(PeopleSummary)

  /// The value as a person would read it.
  public var description: String {
    switch self {
    case .camera(let settings): settings.description
    case .location(let tag): tag.description
    case .filter(let suggestion): suggestion.description
    case .people(let people): people.description
    }
  }
}

/// How a preparation step ended.
public enum StepOutcome: Hashable, Sendable, CustomStringConvertible {
  /// The step finished with its value.
  case succeeded(StepValue)
  /// The step failed; the reason says what went wrong and what to do.
  case failed(reason: String)
  /// The shutter fired before the step finished, so it was cancelled and its result left out.
  case dropped(reason: String)
  /// The step was turned off (see ``Preparation/disabled(reason:)``) and never ran.
  case skipped(reason: String)

  /// Whether the step produced its value.
  public var succeeded: Bool {
    if case .succeeded = self { return true }
    return false
  }

  /// Why the step gave no value, or `nil` when it succeeded.
  public var reason: String? {
    switch self {
    case .succeeded: nil
    case .failed(let reason), .dropped(let reason), .skipped(let reason): reason
    }
  }

  /// `ready: …`, `failed: …`, `dropped: …` or `skipped: …`.
  public var description: String {
    switch self {
    case .succeeded(let value): "ready: \(value)"
    case .failed(let reason): "failed: \(reason)"
    case .dropped(let reason): "dropped: \(reason)"
    case .skipped(let reason): "skipped: \(reason)"
    }
  }
}

/// What one preparation step did in a run and how long it took.
public struct StepReport: Hashable, Sendable {
  /// The step.
  public var step: PreparationStep
  /// How it ended.
  public var outcome: StepOutcome
  /// Time from the start of the run to the step's end (finish, failure or drop).
  public var elapsed: Duration

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - step: The step.
  ///   - outcome: How it ended.
  ///   - elapsed: Time from the start of the run to the step's end.
  public init(step: PreparationStep, outcome: StepOutcome, elapsed: Duration) {
    self.step = step
    self.outcome = outcome
    self.elapsed = elapsed
  }
}
