/// What the people step says: `3 people · eyes open`, `3 people · 1 blinking`.
///
/// The people step's value: how many people it follows in the picture, and how many of them
/// have their eyes closed now (each against their own open eyes, learned during the count).
public struct PeopleSummary: Sendable, Hashable, CustomStringConvertible {
  /// How many people are in the picture.
  public var count: Int
  /// How many of them have their eyes closed.
  public var eyesClosed: Int

  /// A summary.
  public init(count: Int, eyesClosed: Int) {
    self.count = count
    self.eyesClosed = eyesClosed
  }

  /// `no one in the picture`, `1 person · eyes open`, `3 people · 1 blinking`.
  public var description: String {
    guard count > 0 else { return "no one in the picture" }
    let people = count == 1 ? "1 person" : "\(count) people"
    if eyesClosed == 0 { return "\(people) · eyes open" }
    if count == 1 { return "\(people) · blinking" }
    return "\(people) · \(eyesClosed) blinking"
  }

  /// The same in a sentence, for the photo's facts: `6 people, all eyes open`, `1 person,
  /// eyes open`, `3 people, 1 blinking`, `no one in the picture`.
  public var sentence: String {
    guard count > 0 else { return "no one in the picture" }
    if count == 1 { return eyesClosed == 0 ? "1 person, eyes open" : "1 person, blinking" }
    if eyesClosed == 0 { return "\(count) people, all eyes open" }
    return "\(count) people, \(eyesClosed) blinking"
  }
}
