/// Whether a face looks at the camera, from its 68 landmarks: how far the head is turned
/// (yaw) and bowed or raised (pitch).
///
/// Yaw is where the nose tip (point 30) sits between the jaw's two ends (0 and 16): half-way
/// on a face that looks at the camera, towards one end as the head turns. Pitch is where the
/// nose tip sits between the line of the eyes' outer corners (36, 45) and the chin (8): a head
/// bowed over a phone or a menu brings the tip down towards the chin. A frontal face detector
/// finds no true profile at all: a face turned that far is not counted, so it cannot be
/// reported as looking away either.
///
/// The landmarks tell the head's pose, not where the eyes look. In group photos people turn
/// their heads and still look at the camera, and look down with a head held almost level: the
/// eight people of the evaluation's landing photo who look down or aside measure turn
/// 0.01–0.62 and drop 0.37–0.43, inside what faces looking at the camera show. So only a head
/// bowed far down or turned to near profile (and still found) is judged away.
public struct Facing: Sendable, Equatable {
  /// How far the head is turned, 0 (straight at the camera) to 1 (the nose at the jaw's end).
  public var turn: Double
  /// Where the nose tip lies from the eyes (0) to the chin (1): about 0.35–0.5 facing the
  /// camera, higher bowed, lower raised.
  public var drop: Double

  /// A facing.
  public init(turn: Double, drop: Double) {
    self.turn = turn
    self.drop = drop
  }

  /// The facing of the face whose 68 `landmarks` are given; `nil` for another count of
  /// points or a face too small to tell.
  public init?(landmarks: [FacePoint]) {
    guard landmarks.count == 68 else { return nil }
    let nose = landmarks[30]
    let left = landmarks[0]
    let right = landmarks[16]
    let across = right.x - left.x
    let eyes = FacePoint(
      x: (landmarks[36].x + landmarks[45].x) / 2, y: (landmarks[36].y + landmarks[45].y) / 2)
    let down = landmarks[8].y - eyes.y
    guard across > 4, down > 4 else { return nil }
    turn = min(1, abs((nose.x - left.x) / across - 0.5) * 2)
    drop = (nose.y - eyes.y) / down
  }

  /// A turn past which the head is turned away: the nose at the jaw's very end, a face near
  /// profile. Three-quarter faces that look at the camera, as in most group photos, reach
  /// 0.89 (43 faces of nine group photos, all looking at the camera: none above it), because
  /// the landmark model puts the far jaw on the face's visible edge.
  public static let turnedAway = 0.95
  /// The turn under which a face that looked away faces the camera again.
  public static let turnedBack = 0.85
  /// The drop past which the head is bowed (eyes down on a phone or the table): the same 43
  /// faces looking at the camera measured 0.18–0.37.
  public static let bowed = 0.6
  /// The drop under which a bowed head faces the camera again.
  public static let raisedBack = 0.5

  /// Whether the face looks away, with hysteresis: a face judged away stays away until it
  /// comes well back, so a head at the edge of the limit does not flicker.
  public func judge(wasAway: Bool) -> Bool {
    if wasAway { return turn > Self.turnedBack || drop > Self.raisedBack }
    return turn > Self.turnedAway || drop > Self.bowed
  }
}
