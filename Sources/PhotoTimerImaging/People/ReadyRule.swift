/// When a count that starts itself (`--start-when-ready`) may start: the people are in the
/// picture and have held still.
///
/// With a number wanted, that many faces must be in the frame; without one, at least one, and
/// their number unchanged for ``steadyFor`` (the group is in). Then every face must have
/// moved less than ``stillness`` of its width for ``stillFor``. Feed it each frame's faces; it
/// says what it waits for, in words for the screen.
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
  public var stillness = 0.04

  private var count = 0
  private var countSince: Duration?
  private var boxes: [PixelBox] = []
  private var stillSince: Duration?

  /// A rule waiting for `wanted` people (`nil`: at least one, their number steady).
  public init(wanted: Int? = nil) {
    self.wanted = wanted
  }

  /// Takes the faces of a frame seen at `time` and says whether to start.
  public mutating func observe(_ faces: [PixelBox], at time: Duration) -> State {
    if faces.count != count || countSince == nil {
      count = faces.count
      countSince = time
      stillSince = time
    } else if moved(from: boxes, to: faces) {
      stillSince = time
    }
    boxes = faces
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
