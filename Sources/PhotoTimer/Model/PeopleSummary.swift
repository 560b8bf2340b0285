/// What the people step says: `3 people · eyes open`, `3 people · 1 blinking`.
///
/// The people step's value: how many people it follows in the picture, and how many of them
/// have their eyes closed now (each against their own open eyes, learned during the count).
public struct PeopleSummary: Sendable, Hashable, CustomStringConvertible {
  /// How many people are in the picture.
  public var count: Int
  /// How many of them have their eyes closed.
  public var eyesClosed: Int
  /// How many of them look away from the camera (head turned well aside, or bowed).
  public var lookingAway: Int
  /// The frame the photo was made from, when the camera chose it among the frames around
  /// zero for the people in it; `nil` for the frame nearest zero, as without the step.
  public var frame: KeptFrame?

  /// A summary.
  public init(count: Int, eyesClosed: Int, lookingAway: Int = 0, frame: KeptFrame? = nil) {
    self.count = count
    self.eyesClosed = eyesClosed
    self.lookingAway = lookingAway
    self.frame = frame
  }

  /// `no one in the picture`, `1 person · eyes open`, `3 people · 1 blinking`,
  /// `6 people · 1 looking away`, `6 people · 1 blinking · 1 looking away`.
  public var description: String {
    guard count > 0 else { return "no one in the picture" }
    let people = count == 1 ? "1 person" : "\(count) people"
    var parts = [people]
    if eyesClosed > 0 { parts.append(count == 1 ? "blinking" : "\(eyesClosed) blinking") }
    if lookingAway > 0 { parts.append(count == 1 ? "looking away" : "\(lookingAway) looking away") }
    if parts.count == 1 { parts.append("eyes open") }
    return parts.joined(separator: " · ")
  }

  /// The same in a sentence, for the photo's facts: `6 people, all eyes open`, `1 person,
  /// eyes open`, `3 people, 1 blinking`, `no one in the picture`; with the frame kept when
  /// it was chosen: `6 people, all eyes open · frame +0.27 s`.
  public var sentence: String {
    let who: String
    if count == 0 {
      who = "no one in the picture"
    } else if count == 1 {
      who = eyesClosed == 0 ? "1 person, eyes open" : "1 person, blinking"
    } else if eyesClosed == 0 {
      who = "\(count) people, all eyes open"
    } else {
      who = "\(count) people, \(eyesClosed) blinking"
    }
    let away =
      lookingAway == 0 ? "" : count == 1 ? ", looking away" : ", \(lookingAway) looking away"
    guard let frame else { return who + away }
    return "\(who)\(away) · frame \(frame.offsetText)"
  }
}

/// The frame a photo was made from, chosen among the frames around zero for the people in
/// it: when it was taken and why it was kept.
public struct KeptFrame: Sendable, Hashable {
  /// When it was taken, from the count's zero (negative: before it).
  public var offset: Duration
  /// Whether it passed: everyone there, every eye open, sharp. When not, it was the best
  /// there was.
  public var passed: Bool
  /// Why it was kept, in words: `every eye open`, `the best there was: 1 blinking`.
  public var reason: String

  /// A kept frame.
  public init(offset: Duration, passed: Bool, reason: String) {
    self.offset = offset
    self.passed = passed
    self.reason = reason
  }

  /// The offset signed, to the hundredth of a second: `+0.27 s`, `-0.10 s`, `+0.00 s`.
  public var offsetText: String {
    let seconds = offset.formattedSeconds(fractionDigits: 2)
    return (seconds.hasPrefix("-") ? seconds : "+" + seconds) + " s"
  }
}
