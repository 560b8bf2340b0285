import PhotoTimer
import PhotoTimerConcurrency

/// What the people step knows at zero, to judge the frames around it: who it follows and
/// where, each with their own open eyes, and how sharp their faces were during the count.
public struct PeopleAtZero: Sendable {
  /// One frame around zero as looked at: who of the people followed is in it, with their
  /// eyes as measured, and how sharp their faces are. Judged against the people's open eyes
  /// by ``PeopleAtZero/candidate(for:)``, so the same look can be judged again once more is
  /// known of their eyes.
  public struct Judgement: Sendable {
    /// A person followed, found in the frame.
    public struct Sighting: Sendable, Equatable {
      /// Who (``PeopleTracker/Person/id``).
      public var person: Int
      /// Their eyes in this frame, when the landmarks were placed.
      public var eyes: EyeMeasure?
      /// Where they look in this frame, when the landmarks were placed.
      public var facing: Facing?
    }

    /// When the frame was taken, from zero.
    public var offset: Duration
    /// The people followed who are in it.
    public var sightings: [Sighting]
    /// How sharp their faces are (``Frame/faceSharpness(_:)``).
    public var sharpness: Double
  }

  /// The people followed, with their boxes in the pixels of a frame ``width`` wide.
  public var tracker: PeopleTracker
  /// The width of the frames the boxes were found in.
  public var width: Int
  /// The sharpness of the faces during the count (see ``Frame/faceSharpness(_:)``): a frame
  /// around zero well below it is blurred.
  public var sharpness: Double

  /// What the step knows.
  public init(tracker: PeopleTracker, width: Int, sharpness: Double) {
    self.tracker = tracker
    self.width = width
    self.sharpness = sharpness
  }

  /// How many people are followed.
  public var people: Int { tracker.people.count }

  /// Whether the count looked often enough to know everyone's open eyes
  /// (``EyeBaseline/isTrusted``). When not (a busy machine, a short count), the frames around
  /// zero must teach them first: a fixed threshold takes a half-shut blink for open eyes, and
  /// a few looks that fell mostly in blinks take shut eyes for open.
  public var eyesLearned: Bool { tracker.people.allSatisfy(\.baseline.isTrusted) }

  /// Looks at `frame`, taken `offset` from zero: each person looked for around where they
  /// were (no search everywhere: a newcomer is not waited for), their eyes measured, their
  /// faces' sharpness.
  ///
  /// - Throws: `CancellationError` when `isCancelled` says so between faces; what the finder
  ///   throws.
  public func judge(
    _ frame: Frame, offset: Duration, search: FaceSearch, isCancelled: () -> Bool = { false }
  ) throws -> Judgement {
    let scale = width > 0 ? Double(frame.width) / Double(width) : 1
    var tracker = tracker.scaled(by: scale)
    let followed = Set(tracker.people.map(\.id))
    // NB: the frame's own time, far enough after everyone's last sighting that the tracker
    // forgets no one who is missing from this frame alone.
    let time = (tracker.tracks.map(\.lastSeen).max() ?? .zero) + .nanoseconds(1)
    let seen = try tracker.look(
      at: frame, search: search, everywhere: false, time: time, isCancelled: isCancelled
    ).filter { followed.contains($0.person) }
    return Judgement(
      offset: offset,
      sightings: seen.map {
        Judgement.Sighting(person: $0.person, eyes: $0.face.eyes, facing: $0.face.facing)
      },
      sharpness: frame.faceSharpness(seen.map(\.box)))
  }

  /// A frame looked at, judged against each person's own open eyes: the candidate the
  /// choice weighs. Eyes count as closed here unless clearly open
  /// (``EyeBaseline/isClearlyOpen(_:)``): the photo's frame needs more than "not blinking".
  public func candidate(for judgement: Judgement) -> FrameCandidate {
    let closed = judgement.sightings.filter { sighting in
      guard let eyes = sighting.eyes,
        let person = tracker.people.first(where: { $0.id == sighting.person })
      else { return false }
      return !person.baseline.isClearlyOpen(eyes)
    }
    let away = judgement.sightings.filter { $0.facing?.judge(wasAway: false) ?? false }
    return FrameCandidate(
      offset: judgement.offset, faces: judgement.sightings.count, eyesClosed: closed.count,
      sharpness: judgement.sharpness, lookingAway: away.count)
  }

  /// The same people, knowing their open eyes also from the eyes measured in `judgements`.
  public func learning(from judgements: [Judgement]) -> PeopleAtZero {
    var copy = self
    for sighting in judgements.flatMap(\.sightings) {
      if let eyes = sighting.eyes { copy.tracker.learn(eyes, for: sighting.person) }
    }
    return copy
  }
}
