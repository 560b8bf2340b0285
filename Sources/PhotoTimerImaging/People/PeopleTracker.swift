import PhotoTimer

/// The people in the picture: each face followed from look to look as a track, so that a
/// detection is not taken for a person, nor a missed detection for someone leaving.
///
/// A detector's answer for the same still face changes from one search to the next: a search
/// of the whole frame and one of a region around the face give boxes a few pixels apart, and
/// a face near the detector's limit is found in one look and missed in the next. Read off
/// single detections, the count, the boxes and the eyes flicker on a picture where nothing
/// moves. So (as SORT and its kin do):
///
/// - a track **appears** only after ``confirmAfter`` looks have seen it (a one-look false
///   detection that comes and goes never counts), except a face there from the watch's
///   first look and seen in every look since: with no earlier look to set it against, it
///   counts at once (a count that a busy machine lets look only once or twice before zero
///   still knows who is there);
/// - it is **kept** through missed looks for ``forgetAfter`` (about a second), and dropped
///   after that;
/// - its box is **steady**: a new detection moves it only when it lies farther from the
///   box than the detector's own jitter (``jitter``, a share of the face's width, measured on
///   still pictures); then the box follows. On a still picture the box stops moving after the
///   first look, so everything measured from it (the eyes, the stillness) is the same in
///   every look;
/// - a followed face is placed by the search of the region around its own box, in every
///   look; the search of the whole frame only brings newcomers (faces no track accounts for),
///   and two tracks that come to follow the same face (someone left from beside a neighbour,
///   whose face their region then finds) become one, the older.
///
/// The count, the boxes on the screens, the ready rule and the frame choice read
/// ``people`` (the tracks that count).
public struct PeopleTracker: Sendable {
  /// One person followed.
  public struct Person: Sendable, Equatable {
    /// A number that stays theirs while they are followed.
    public var id: Int
    /// Where their face is, steadied over looks, in the frame's pixels.
    public var box: PixelBox
    /// Their eyes, learned over the count.
    public var baseline = EyeBaseline()
    /// Whether their eyes are closed, as last judged (with hysteresis: see
    /// ``EyeBaseline/judge(_:wasClosed:)``).
    public var eyesClosed = false
    /// Whether they look away from the camera, as last judged (``Facing``).
    public var looksAway = false
    /// Where they looked when last measured.
    public var facing: Facing?
    /// When they were first seen, on the count's clock.
    public var firstSeen: Duration
    /// When they were last seen.
    public var lastSeen: Duration
    /// When their box last moved by more than the detector's jitter: since then they have
    /// held still.
    public var lastMoved: Duration
    /// How many looks have seen them.
    public var sightings = 1
    /// The tracker's look that first saw them (0: the first).
    public var firstLook = 0

    /// A track first seen at `time` in `box`.
    public init(id: Int, box: PixelBox, at time: Duration) {
      self.id = id
      self.box = box
      firstSeen = time
      lastSeen = time
      lastMoved = time
    }
  }

  /// Every track, confirmed or not.
  public private(set) var tracks: [Person] = []
  /// How many looks must see a face before it counts as a person.
  public var confirmAfter = 3
  /// How long a person may go unseen before they count as gone.
  public var forgetAfter = Duration.seconds(1)
  /// How far the centre of a still face's detection wanders between searches, as a share of
  /// its width: a new box within it (and within ``sizeJitter``) leaves the track's box where
  /// it is. dlib's HOG boxes for the same still face move 4–8 % of its width between a search
  /// of the whole frame and one of a region around it (measured on the astronaut and on nine
  /// group photos, `phototimer-bench --people-eval --trace`).
  public var jitter = 0.1
  /// How much a still face's detected width changes between searches, as a share of it: the
  /// detector's image pyramid steps by 5/6, so two searches at different scales give the same
  /// 29-pixel face as 29 or 35 pixels (+20 %), and a region made from either box lands on
  /// either step. Within it, the box stays.
  public var sizeJitter = 0.25
  private var nextID = 1

  /// An empty tracker.
  public init() {}

  /// How many looks the tracker has taken.
  public private(set) var looks = 0

  /// How many of its looks through ``look(at:search:everywhere:time:isCancelled:)`` searched
  /// the whole frame: the searches take the whole frame's two pyramids in turn (see
  /// ``FaceSearch/look(in:near:everywhere:turn:isCancelled:)``).
  public internal(set) var searchesEverywhere = 0

  /// The people: the tracks seen in at least ``confirmAfter`` looks, or in every look since
  /// the first, and not yet forgotten.
  public var people: [Person] {
    tracks.filter { $0.sightings >= confirmAfter || ($0.firstLook == 0 && $0.sightings == looks) }
  }

  /// The boxes of every track: where to look in the next frame (a face not yet confirmed is
  /// followed too, so that it can be).
  public var known: [PixelBox] { tracks.map(\.box) }

  /// What the tracker says now: how many, how many blinking, how many looking away.
  public var summary: PeopleSummary {
    let people = people
    return PeopleSummary(
      count: people.count, eyesClosed: people.filter(\.eyesClosed).count,
      lookingAway: people.filter(\.looksAway).count)
  }

  /// Takes one look, seen at `time`: each track moved to what its own region showed (see
  /// ``FaceSearch/look(in:near:everywhere:isCancelled:)``; `followed` in the order of
  /// ``tracks``), each newcomer a new track; tracks unseen for longer than ``forgetAfter`` are
  /// dropped.
  ///
  /// - Returns: The ids of the tracks this look saw.
  @discardableResult
  public mutating func update(_ look: FaceSearch.Look, at time: Duration) -> [Int] {
    var seen: [Int] = []
    for (index, box) in zip(tracks.indices, look.followed) {
      guard let box else { continue }
      follow(&tracks[index], to: box, at: time)
      seen.append(tracks[index].id)
    }
    // NB: two tracks on one face (both regions found it): the older keeps it.
    var merged = Set<Int>()
    for (a, first) in tracks.enumerated()
    where seen.contains(first.id) && !merged.contains(first.id) {
      for second in tracks[(a + 1)...]
      where seen.contains(second.id) && first.box.overlap(with: second.box) > FaceSearch.sameFace {
        merged.insert(second.id)
      }
    }
    tracks.removeAll { merged.contains($0.id) }
    seen.removeAll { merged.contains($0) }
    for box in look.newcomers {
      var person = Person(id: nextID, box: box, at: time)
      person.firstLook = looks
      tracks.append(person)
      seen.append(nextID)
      nextID += 1
    }
    tracks.removeAll { $0.lastSeen + forgetAfter < time }
    looks += 1
    return seen
  }

  /// Takes one look's detections from any search, seen at `time`: each matched to the track
  /// it overlaps most (or whose centre is nearest, within a face's width), else a new track;
  /// tracks unseen for longer than ``forgetAfter`` are dropped.
  ///
  /// - Returns: The ids of the tracks this look saw, in the order of `boxes`.
  @discardableResult
  public mutating func update(_ boxes: [PixelBox], at time: Duration) -> [Int] {
    var unmatched = Array(tracks.indices)
    var followed = [PixelBox?](repeating: nil, count: tracks.count)
    // NB: the best pairs first, so that a detection between two tracks does not take the
    // track another detection fits better.
    let pairs = boxes.indices.flatMap { b in tracks.indices.map { (b, $0) } }
      .map { (box: $0.0, track: $0.1, score: score(tracks[$0.1].box, boxes[$0.0])) }
      .filter { $0.score > 0 }
      .sorted { $0.score > $1.score }
    var matched: [Int: Int] = [:]
    for pair in pairs where matched[pair.box] == nil && unmatched.contains(pair.track) {
      matched[pair.box] = pair.track
      followed[pair.track] = boxes[pair.box]
      unmatched.removeAll { $0 == pair.track }
    }
    let ids = tracks.map(\.id)
    var next = nextID
    let seen = boxes.indices.map { index -> Int in
      if let track = matched[index] { return ids[track] }
      defer { next += 1 }
      return next
    }
    let newcomers = boxes.indices.filter { matched[$0] == nil }.map { boxes[$0] }
    update(FaceSearch.Look(followed: followed, newcomers: newcomers), at: time)
    return seen
  }

  /// Records the eyes and the facing measured on the person `id` in this look, judged against
  /// what that person showed before.
  public mutating func record(_ eyes: EyeMeasure?, facing: Facing?, for id: Int) {
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
    if let eyes {
      tracks[index].eyesClosed = tracks[index].baseline.judge(
        eyes, wasClosed: tracks[index].eyesClosed)
      tracks[index].baseline.add(eyes)
    }
    if let facing {
      tracks[index].looksAway = facing.judge(wasAway: tracks[index].looksAway)
      tracks[index].facing = facing
    }
  }

  /// Adds `eyes`, seen on the person `id`, to what is known of their open eyes (a look that
  /// did not go through an update: the frames judged around zero).
  public mutating func learn(_ eyes: EyeMeasure, for id: Int) {
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
    tracks[index].baseline.add(eyes)
  }

  /// The same people with their boxes in a frame `scale` times as wide (the photo's frames
  /// beside a stream watched at a smaller size).
  public func scaled(by scale: Double) -> PeopleTracker {
    guard scale != 1 else { return self }
    var copy = self
    for index in copy.tracks.indices {
      copy.tracks[index].box = copy.tracks[index].box.mapped(scale: scale)
    }
    return copy
  }

  /// Moves a track to a new detection: the box stays where it is while the detection lies
  /// within the detector's jitter of it (a still face keeps one box), else it goes to the
  /// detection.
  private func follow(_ person: inout Person, to box: PixelBox, at time: Duration) {
    person.lastSeen = time
    person.sightings += 1
    let width = max(1, person.box.width)
    let shift = person.box.center.distance(to: box.center)
    let resize = abs(box.width - person.box.width)
    guard shift > jitter * width || resize > sizeJitter * width else { return }
    person.box = box
    person.lastMoved = time
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
