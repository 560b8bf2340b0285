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

  /// A candidate.
  public init(offset: Duration, faces: Int, eyesClosed: Int, sharpness: Double) {
    self.offset = offset
    self.faces = faces
    self.eyesClosed = eyesClosed
    self.sharpness = sharpness
  }
}

/// The frame where everyone is ready: among the ring's frames from a quarter second before
/// zero to the window's end, the first after zero with every face found during the count
/// present, every eye open and no motion blur; else the best there is, and why.
public struct FrameChoice: Sendable, Equatable {
  /// The chosen frame's index among the candidates.
  public var index: Int
  /// Its offset from zero.
  public var offset: Duration
  /// Whether it passed (everyone present, eyes open, sharp); if not, the best-scoring frame.
  public var passed: Bool
  /// Why it was kept, in words: `every eye open`, `the best there was: 1 blinking`.
  public var reason: String

  /// A share of the sharpest candidate's sharpness below which a frame counts as blurred.
  public static let sharpEnough = 0.6

  /// Chooses among `candidates` (in time order) for `people` faces found during the count;
  /// `nil` when there are none.
  public static func choose(_ candidates: [FrameCandidate], people: Int) -> FrameChoice? {
    guard !candidates.isEmpty else { return nil }
    let sharpest = candidates.map(\.sharpness).max() ?? 0
    func passes(_ candidate: FrameCandidate) -> Bool {
      candidate.faces >= people && candidate.eyesClosed == 0
        && candidate.sharpness >= sharpest * sharpEnough
    }
    if let index = candidates.indices.first(where: {
      candidates[$0].offset >= .zero && passes(candidates[$0])
    }) {
      return FrameChoice(
        index: index, offset: candidates[index].offset, passed: true,
        reason: people == 0 ? "the frame nearest zero" : "every eye open")
    }
    if let index = candidates.indices.first(where: { passes(candidates[$0]) }) {
      return FrameChoice(
        index: index, offset: candidates[index].offset, passed: true,
        reason: "every eye open, just before zero")
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
    if kept.sharpness < sharpest * sharpEnough { faults.append("blurred") }
    return FrameChoice(
      index: index, offset: kept.offset, passed: false,
      reason: "the best there was: " + faults.joined(separator: ", "))
  }
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
