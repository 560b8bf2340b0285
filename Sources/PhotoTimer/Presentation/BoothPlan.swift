/// A booth session as asked for: how many shots, the count before each later shot, how long
/// each shot is shown for Keep or Retake, and how many retakes each shot has.
public struct BoothPlan: Equatable, Sendable {
  /// The shots of a session, 1…4.
  public var shots: Int
  /// The count, in seconds, before each shot after the first and before a retake.
  public var between: Int
  /// How long each shot is shown with Keep and Retake before it is kept by itself, in
  /// seconds; 0 keeps every shot at once (no review).
  public var review: Int
  /// How many times each shot may be taken again.
  public var retakes: Int

  /// A plan; by default four shots, 3 s between them, 4 s of review and one retake each.
  public init(shots: Int = 4, between: Int = 3, review: Int = 4, retakes: Int = 1) {
    self.shots = shots
    self.between = between
    self.review = review
    self.retakes = retakes
  }
}

/// Where a booth session is: the shot being taken or shown, how many are kept, the retakes
/// left for this shot, and whether it waits for Keep or Retake.
public struct BoothProgress: Hashable, Sendable {
  /// The shot being taken or shown, from 1.
  public var shot: Int
  /// The session's shots.
  public var shots: Int
  /// The shots kept so far.
  public var kept: Int
  /// The retakes left for this shot.
  public var retakesLeft: Int
  /// The shot is shown, waiting for Keep or Retake (or its review's end).
  public var reviewing: Bool
  /// The shot's run has ended and the front end has not yet told the machine (a key pressed
  /// in that moment): only Cancel is allowed until it has.
  public var settling = false

  /// The progress of a session at its first shot.
  public init(plan: BoothPlan) {
    shot = 1
    shots = plan.shots
    kept = 0
    retakesLeft = plan.retakes
    reviewing = false
  }

  /// `shot 2 of 4`.
  public var words: String { "shot \(shot) of \(shots)" }
}
