/// When a count that starts itself (`--start-when-ready`) may start: the people are in the
/// picture, look at the camera, and have held still.
///
/// It reads the people followed (``PeopleTracker``'s tracks), not a frame's detections: a
/// face the detector misses in one look stays in the group, and a box from a different
/// search is not motion. With a number wanted, that many people must be in; without one, at
/// least one, and the group unchanged for ``steadyFor`` counted from the newest person's
/// first sighting (the group is in). Then everyone must have held still for ``stillFor``:
/// no one's steadied box has moved since (the tracker moves a box only past the detector's
/// own jitter, and a slow drift adds up to that), and everyone must face the camera. So a
/// still group of six starts its count 1.5 s after the last of them was first seen. It says
/// what it waits for, in words for the screen.
///
/// After a count (a photo, or a cancel) the same group is still there and still: a rule made
/// with `afterCount` first waits for the picture to empty, so it starts once per group, never
/// photo after photo of people waiting to see the result.
public struct ReadyRule: Sendable {
  /// What the rule says about the picture now.
  public enum State: Sendable, Equatable, CustomStringConvertible {
    /// Not yet: what it waits for.
    case waiting(String)
    /// Everyone is in and still: start.
    case ready

    /// The words for the screen.
    public var description: String {
      switch self {
      case .waiting(let what): what
      case .ready: "everyone is ready"
      }
    }
  }

  /// How many people to wait for, or `nil` for at least one and a steady number.
  public var wanted: Int?
  /// How long the group must stay the same when no number is wanted.
  public var steadyFor = Duration.milliseconds(1500)
  /// How long everyone must hold still.
  public var stillFor = Duration.seconds(1)

  /// Whether it waits for the picture to empty before anything else (after a count).
  public private(set) var waitsForEmpty: Bool
  private var members: Set<Int> = []
  private var groupSince: Duration?

  /// A rule waiting for `wanted` people (`nil`: at least one, their number steady).
  ///
  /// - Parameters:
  ///   - wanted: How many people to wait for; `nil` for at least one, their number steady.
  ///   - afterCount: A count has just ended: wait for the picture to empty first.
  public init(wanted: Int? = nil, afterCount: Bool = false) {
    self.wanted = wanted
    self.waitsForEmpty = afterCount
  }

  /// Takes the tracker's people at `time` and says whether to start.
  ///
  /// The picture counts as empty (after a count) only when the tracker follows no face at
  /// all, not even one it has seen in fewer looks than it takes to count: a watch that starts
  /// afresh after a count sees the group that is still there as not yet counted for its first
  /// looks, and that is not an empty picture.
  public mutating func observe(_ tracker: PeopleTracker, at time: Duration) -> State {
    if waitsForEmpty {
      guard tracker.tracks.isEmpty else {
        return .waiting("next group: step out of the picture first")
      }
      waitsForEmpty = false
    }
    let people = tracker.people
    let ids = Set(people.map(\.id))
    if ids != members || groupSince == nil {
      // NB: someone new: the group is as it is since they were first seen; someone gone: since
      // now.
      let left = !members.isSubset(of: ids)
      members = ids
      groupSince = left || people.isEmpty ? time : people.map(\.firstSeen).max() ?? time
    }
    let count = people.count
    if let wanted {
      guard count >= wanted else { return .waiting("waiting for everyone: \(count) of \(wanted)") }
    } else {
      guard count > 0 else { return .waiting("waiting for people to come into the picture") }
      guard time - (groupSince ?? time) >= steadyFor else {
        return .waiting("waiting for everyone: \(count) in the picture")
      }
    }
    let away = people.filter(\.looksAway).count
    guard away == 0 else {
      return .waiting(
        count == 1 ? "look at the camera" : "\(away) looking away: everyone look at the camera")
    }
    let stillSince = people.map(\.lastMoved).max() ?? time
    guard time - stillSince >= stillFor else { return .waiting("hold still") }
    return .ready
  }
}
