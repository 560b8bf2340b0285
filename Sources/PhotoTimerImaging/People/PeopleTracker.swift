import PhotoTimer

/// The people in the picture during a count: each face followed from frame to frame, with
/// its own eye baseline, so "blinking" means closed for that person.
public struct PeopleTracker: Sendable {
  /// One person followed.
  public struct Person: Sendable, Equatable {
    /// A number that stays theirs while they are followed.
    public var id: Int
    /// Where their face was last seen, in the frame's pixels.
    public var box: PixelBox
    /// Their eyes, learned over the count.
    public var baseline = EyeBaseline()
    /// Whether their eyes were closed when last measured.
    public var eyesClosed = false
    /// When they were first seen, on the count's clock.
    public var firstSeen: Duration
    /// When they were last seen.
    public var lastSeen: Duration
  }

  /// Who is followed now.
  public private(set) var people: [Person] = []
  /// How long a face may go unseen before the person counts as gone.
  public var forgetAfter = Duration.seconds(1)
  private var nextID = 1

  /// An empty tracker.
  public init() {}

  /// The boxes of the people followed: where to look in the next frame.
  public var known: [PixelBox] { people.map(\.box) }

  /// What the tracker says now: how many, how many blinking.
  public var summary: PeopleSummary {
    PeopleSummary(count: people.count, eyesClosed: people.filter(\.eyesClosed).count)
  }

  /// Adds `eyes`, seen on the person `id`, to what is known of their open eyes (a look that
  /// did not go through ``update(_:at:)``: the frames judged around zero).
  public mutating func learn(_ eyes: EyeMeasure, for id: Int) {
    guard let index = people.firstIndex(where: { $0.id == id }) else { return }
    people[index].baseline.add(eyes)
  }

  /// Takes one frame's faces, seen at `time`: each matched to the person whose last box it
  /// overlaps most (or whose centre is nearest, within a face's width), else a new person;
  /// people unseen for longer than ``forgetAfter`` are dropped.
  public mutating func update(_ faces: [Face], at time: Duration) {
    var unmatched = Array(people.indices)
    for face in faces {
      let best = unmatched.max { a, b in
        score(people[a].box, face.box) < score(people[b].box, face.box)
      }
      if let best, score(people[best].box, face.box) > 0 {
        unmatched.removeAll { $0 == best }
        people[best].box = face.box
        people[best].lastSeen = time
        if let eyes = face.eyes {
          people[best].eyesClosed = people[best].baseline.isClosed(eyes)
          people[best].baseline.add(eyes)
        }
      } else {
        var person = Person(id: nextID, box: face.box, firstSeen: time, lastSeen: time)
        nextID += 1
        if let eyes = face.eyes {
          person.eyesClosed = person.baseline.isClosed(eyes)
          person.baseline.add(eyes)
        }
        people.append(person)
      }
    }
    people.removeAll { $0.lastSeen + forgetAfter < time }
  }

  /// The same people with their boxes in a frame `scale` times as wide (the photo's frames
  /// beside a stream watched at a smaller size).
  public func scaled(by scale: Double) -> PeopleTracker {
    guard scale != 1 else { return self }
    var copy = self
    for index in copy.people.indices {
      copy.people[index].box = copy.people[index].box.mapped(scale: scale)
    }
    return copy
  }

  /// How well a new box continues an old one: their overlap, else closeness of centres within
  /// a face's width; 0 when it does not.
  private func score(_ old: PixelBox, _ new: PixelBox) -> Double {
    let overlap = old.overlap(with: new)
    if overlap > 0.1 { return 1 + overlap }
    let distance = old.center.distance(to: new.center)
    let reach = max(old.width, new.width)
    return distance < reach ? 1 - distance / reach : 0
  }
}
