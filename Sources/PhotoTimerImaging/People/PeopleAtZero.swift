import PhotoTimer
import PhotoTimerConcurrency

/// What the people step knows at zero, to judge the frames around it: who it follows and
/// where, each with their own open eyes, and how sharp their faces were during the count.
public struct PeopleAtZero: Sendable {
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

  /// Judges `frame`, taken `offset` from zero: each person looked for around where they
  /// were (no search everywhere: a newcomer is not waited for), their eyes measured against
  /// their own baseline, their faces' sharpness.
  ///
  /// - Throws: `CancellationError` when `isCancelled` says so between faces; what the finder
  ///   throws.
  public func judge(
    _ frame: Frame, offset: Duration, search: FaceSearch, isCancelled: () -> Bool = { false }
  ) throws -> FrameCandidate {
    let scale = width > 0 ? Double(frame.width) / Double(width) : 1
    var tracker = tracker.scaled(by: scale)
    let followed = Set(tracker.people.map(\.id))
    let faces = try search.faces(
      in: frame, near: tracker.known, everywhere: false, isCancelled: isCancelled)
    // NB: the frame's own time, far enough after everyone's last sighting that the tracker
    // forgets no one who is missing from this frame alone.
    let time = (tracker.people.map(\.lastSeen).max() ?? .zero) + .nanoseconds(1)
    tracker.update(faces, at: time)
    let present = tracker.people.filter { followed.contains($0.id) && $0.lastSeen == time }
    let matched = faces.filter { face in present.contains { $0.box == face.box } }
    return FrameCandidate(
      offset: offset, faces: present.count, eyesClosed: present.filter(\.eyesClosed).count,
      sharpness: frame.faceSharpness(matched.map(\.box)))
  }
}
