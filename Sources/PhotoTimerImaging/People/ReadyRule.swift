/// When a count that starts itself (`--start-when-ready`) may start: the people are in the
/// picture and have held still.
///
/// With a number wanted, that many faces must be in the frame; without one, at least one, and
/// their number unchanged for ``steadyFor`` (the group is in). Then every face must have
/// stayed within ``stillness`` of its width of where it was when the stillness began, for
/// ``stillFor`` (against that place, not the last frame: a slow drift adds up; the tolerance
/// absorbs the detector's own jitter, 4–7 % of a face's width between two searches of the
/// same still picture). Feed it each frame's faces; it
/// says what it waits for, in words for the screen.
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
  /// How long the number of faces must stay the same when no number is wanted.
  public var steadyFor = Duration.milliseconds(1500)
  /// How long everyone must hold still.
  public var stillFor = Duration.seconds(1)
  /// How far a face may move between frames, as a share of its width, and still be still.
  public var stillness = 0.1

  /// Whether it waits for the picture to empty before anything else (after a count).
  public private(set) var waitsForEmpty: Bool
  private var count = 0
  private var countSince: Duration?
  /// Where the faces were when the stillness began.
  private var boxes: [PixelBox] = []
  private var stillSince: Duration?

  /// A rule waiting for `wanted` people (`nil`: at least one, their number steady).
  ///
  /// - Parameters:
  ///   - wanted: How many people to wait for; `nil` for at least one, their number steady.
  ///   - afterCount: A count has just ended: wait for the picture to empty first.
  public init(wanted: Int? = nil, afterCount: Bool = false) {
    self.wanted = wanted
    self.waitsForEmpty = afterCount
  }

  /// Takes the faces of a frame seen at `time` and says whether to start.
  public mutating func observe(_ faces: [PixelBox], at time: Duration) -> State {
    if waitsForEmpty {
      guard faces.isEmpty else {
        return .waiting("next group: step out of the picture first")
      }
      waitsForEmpty = false
    }
    if faces.count != count || countSince == nil {
      count = faces.count
      countSince = time
      stillSince = time
      boxes = faces
    } else if moved(from: boxes, to: faces) {
      stillSince = time
      boxes = faces
    }
    let since = countSince ?? time
    if let wanted {
      guard count >= wanted else { return .waiting("waiting for everyone: \(count) of \(wanted)") }
    } else {
      guard count > 0 else { return .waiting("waiting for people to come into the picture") }
      guard time - since >= steadyFor else {
        return .waiting("waiting for everyone: \(count) in the picture")
      }
    }
    guard time - (stillSince ?? time) >= stillFor else { return .waiting("hold still") }
    return .ready
  }

  /// Whether any face moved more than ``stillness`` of its width (each to the nearest of the
  /// new boxes).
  private func moved(from old: [PixelBox], to new: [PixelBox]) -> Bool {
    for box in old {
      let nearest = new.map { $0.center.distance(to: box.center) }.min() ?? .infinity
      if nearest > stillness * max(1, box.width) { return true }
    }
    return false
  }
}
