import PhotoTimerConcurrency

/// One frame of the ring around zero, as the people step judged it.
public struct FrameCandidate: Sendable, Equatable {
  /// When it was taken, from the count's zero (negative before).
  public var offset: Duration
  /// How many faces were found in it.
  public var faces: Int
  /// How many of them had their eyes closed, for their own baseline.
  public var eyesClosed: Int
  /// How sharp the faces are (the variance of the Laplacian over them); higher is sharper.
  public var sharpness: Double
  /// How many of the faces look away from the camera (``Facing``).
  public var lookingAway: Int

  /// A candidate.
  public init(
    offset: Duration, faces: Int, eyesClosed: Int, sharpness: Double, lookingAway: Int = 0
  ) {
    self.offset = offset
    self.faces = faces
    self.eyesClosed = eyesClosed
    self.sharpness = sharpness
    self.lookingAway = lookingAway
  }
}

/// The frame where everyone is ready: among the ring's frames from a quarter second before
/// zero to the window's end, the first at or after zero with every face found during the
/// count present, every eye open, everyone facing the camera and no motion blur; else the
/// last such before zero; else the same without the facing (eyes open come first); else the
/// best there is, and why.
public struct FrameChoice: Sendable, Equatable {
  /// The chosen frame's index among the candidates.
  public var index: Int
  /// Its offset from zero.
  public var offset: Duration
  /// Whether it passed (everyone present, eyes open, sharp); if not, the best-scoring frame.
  public var passed: Bool
  /// Why it was kept, in words: `every eye open`, `the best there was: 1 blinking`.
  public var reason: String

  /// A share of the reference sharpness (the count's faces, or the sharpest candidate's when
  /// higher) below which a frame counts as blurred.
  ///
  /// Measured on the astronaut (``Frame/faceSharpness(_:)``, `SharpnessTests`): a smear of
  /// 9 pixels keeps 0.20 to 0.23 of the sharp face's value; the same sharp face with her eyes
  /// painted shut, in the boxes dlib gives it from one search to the next (80 to 104 pixels
  /// wide), keeps 0.68 to 0.77. Before, with 0.6 and each face's whole box scaled up to 64
  /// pixels (an upscale blurs), a shut frame in a small box measured 0.31 of the count's
  /// larger boxes, and `make stress` saw "blinking, blurred" said of a sharp frame.
  public static let sharpEnough = 0.4

  /// Whether `candidate` passes for `people` faces against a `bar` of sharpness; with
  /// `facing`, everyone must look at the camera too.
  static func passes(
    _ candidate: FrameCandidate, people: Int, bar: Double, facing: Bool = true
  ) -> Bool {
    candidate.faces >= people && candidate.eyesClosed == 0 && candidate.sharpness >= bar
      && (!facing || candidate.lookingAway == 0)
  }

  /// Chooses among `candidates` (in any order) for `people` faces found during the count;
  /// `nil` when there are none.
  ///
  /// - Parameters:
  ///   - candidates: The frames judged.
  ///   - people: How many people were followed at zero.
  ///   - reference: The sharpness of their faces during the count (0: the candidates' own).
  ///   - nearZero: How far before zero a frame still counts as the frame at zero (half a
  ///     frame interval: the stream's frame nearest the instant).
  public static func choose(
    _ candidates: [FrameCandidate], people: Int, reference: Double = 0,
    nearZero: Duration = .zero
  ) -> FrameChoice? {
    guard !candidates.isEmpty else { return nil }
    let bar = max(reference, candidates.map(\.sharpness).max() ?? 0) * sharpEnough
    for facing in [true, false] {
      let passing = candidates.indices.filter {
        passes(candidates[$0], people: people, bar: bar, facing: facing)
      }
      let away = { (index: Int) in
        facing ? "" : ", \(candidates[index].lookingAway) looking away"
      }
      if let index = passing.filter({ candidates[$0].offset >= .zero - nearZero })
        .min(by: { candidates[$0].offset < candidates[$1].offset })
      {
        return FrameChoice(
          index: index, offset: candidates[index].offset, passed: true,
          reason: people == 0 ? "the frame nearest zero" : "every eye open" + away(index))
      }
      if let index = passing.max(by: { candidates[$0].offset < candidates[$1].offset }) {
        return FrameChoice(
          index: index, offset: candidates[index].offset, passed: true,
          reason: "every eye open, just before zero" + away(index))
      }
    }
    // The best there is: fewest missing, then fewest closed, then sharpest, then nearest zero.
    let best = candidates.indices.min { a, b in
      let x = candidates[a]
      let y = candidates[b]
      let keyX = (max(0, people - x.faces), x.eyesClosed)
      let keyY = (max(0, people - y.faces), y.eyesClosed)
      if keyX != keyY { return keyX < keyY }
      if x.sharpness != y.sharpness { return x.sharpness > y.sharpness }
      return abs(x.offset.secondsValue) < abs(y.offset.secondsValue)
    }
    let index = best ?? 0
    let kept = candidates[index]
    var faults: [String] = []
    if kept.faces < people { faults.append("\(people - kept.faces) not found") }
    if kept.eyesClosed > 0 { faults.append("\(kept.eyesClosed) blinking") }
    if kept.lookingAway > 0 { faults.append("\(kept.lookingAway) looking away") }
    if kept.sharpness < bar { faults.append("blurred") }
    return FrameChoice(
      index: index, offset: kept.offset, passed: false,
      reason: "the best there was: " + faults.joined(separator: ", "))
  }
}

/// The choice made as the frames come: candidates are added one at a time (the frames from
/// zero on in time order, then those before zero if none passed), and the first at or after
/// zero that passes settles it, so a photo whose frame at zero is good costs no wait.
public struct FramePicker: Sendable {
  /// How many people were followed at zero.
  public let people: Int
  /// The sharpness of their faces during the count.
  public let reference: Double
  /// How far before zero a frame still counts as the frame at zero.
  public let nearZero: Duration
  /// The candidates added, in the order they came.
  public private(set) var candidates: [FrameCandidate] = []

  /// A picker for `people` faces.
  public init(people: Int, reference: Double, nearZero: Duration) {
    self.people = people
    self.reference = reference
    self.nearZero = nearZero
  }

  /// Adds a candidate; `true` when it settles the choice: at or after zero, and it passes.
  public mutating func add(_ candidate: FrameCandidate) -> Bool {
    candidates.append(candidate)
    let bar = max(reference, candidates.map(\.sharpness).max() ?? 0) * FrameChoice.sharpEnough
    return candidate.offset >= .zero - nearZero
      && FrameChoice.passes(candidate, people: people, bar: bar)
  }

  /// The choice among the candidates so far; `nil` when there are none.
  public var choice: FrameChoice? {
    FrameChoice.choose(candidates, people: people, reference: reference, nearZero: nearZero)
  }
}

extension Frame {
  /// How sharp the faces in `boxes` are: the mean over them of ``GreyImage/sharpness(in:)``
  /// over the middle of each face (70 % of its box: eyes, nose and mouth, not the hair and
  /// background at its edges, which a box a few pixels larger or smaller takes in or leaves
  /// out), scaled to 64 pixels across first, so that frames of any size compare.
  public func faceSharpness(_ boxes: [PixelBox]) -> Double {
    let values = boxes.compactMap { box -> Double? in
      let middle = box.grown(by: Self.faceMiddle)
      guard middle.width >= 4 else { return nil }
      return GreyImage(self, region: middle, scale: min(4, Self.faceWidth / middle.width))
        .sharpness()
    }
    return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }

  /// The share of a face's box its sharpness is measured over.
  static let faceMiddle = 0.7
  /// The width the middle of a face is scaled to before its sharpness is measured.
  static let faceWidth = 32.0
}

extension GreyImage {
  /// How sharp `box` of the image is: the variance of the 4-neighbour Laplacian over it
  /// (motion blur and defocus lower it). The whole image when `box` is `nil`.
  public func sharpness(in box: PixelBox? = nil) -> Double {
    let area = box ?? PixelBox(x: 0, y: 0, width: Double(width), height: Double(height))
    let left = max(1, Int(area.x))
    let top = max(1, Int(area.y))
    let right = min(width - 1, Int(area.x + area.width))
    let bottom = min(height - 1, Int(area.y + area.height))
    guard right > left, bottom > top else { return 0 }
    var sum = 0.0
    var squares = 0.0
    var count = 0.0
    pixels.withUnsafeBufferPointer { p in
      for y in top..<bottom {
        for x in left..<right {
          let at = y * width + x
          let laplacian =
            Double(p[at - 1]) + Double(p[at + 1]) + Double(p[at - width]) + Double(p[at + width])
            - 4 * Double(p[at])
          sum += laplacian
          squares += laplacian * laplacian
          count += 1
        }
      }
    }
    let mean = sum / count
    return squares / count - mean * mean
  }
}
