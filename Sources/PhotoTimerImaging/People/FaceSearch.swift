/// A face found in a frame: its box and landmarks in the frame's pixels, and how open its
/// eyes look.
public struct Face: Sendable, Equatable {
  /// The face's box.
  public var box: PixelBox
  /// Its 68 landmarks, or none when they could not be placed.
  public var landmarks: [FacePoint]
  /// Its eyes in this frame, when the landmarks were placed.
  public var eyes: EyeMeasure?
  /// Where it looks, when the landmarks were placed.
  public var facing: Facing?

  /// A face.
  public init(
    box: PixelBox, landmarks: [FacePoint] = [], eyes: EyeMeasure? = nil, facing: Facing? = nil
  ) {
    self.box = box
    self.landmarks = landmarks
    self.eyes = eyes
    self.facing = facing
  }
}

/// Where and at what scale to look for faces in a frame, over a ``FaceFinder``.
///
/// A HOG detector finds faces no smaller than its window (80 pixels for dlib's), so a face a
/// twentieth of a 1280-pixel frame (64 pixels: a group of six round a table) is lost on a
/// scaled-down preview. A search of the whole frame therefore runs at the scale that makes
/// the smallest wanted face the window's size (1.25× at 1280 pixels), which is costly; once
/// faces are known, each is looked for again only in a region around it, at the scale that
/// makes it a comfortable size for the detector, which is cheap. The caller decides how
/// often to search everywhere (new people arrive).
public struct FaceSearch: Sendable {
  /// The detector and landmark model.
  public let finder: any FaceFinder
  /// The smallest face found by a search everywhere, as a fraction of the frame's width.
  public var smallestFraction = 1.0 / 20
  /// The largest scale a search everywhere uses (a small frame is not blown up without end).
  public var largestScale = 3.0
  /// How large a followed face is made for the detector, in detector windows. A little over
  /// one: the detector's image pyramid (each level 5/6 of the one above) then meets the face
  /// on its first levels whether it came a little nearer or went a little away since it was
  /// last seen, and the region around it costs no more pixels than that needs (twice the
  /// window cost 2.4 times as many).
  public var followedFaceSize = 1.3

  /// A search over `finder`.
  public init(finder: any FaceFinder) {
    self.finder = finder
  }

  /// The scale a search of the whole of a frame `width` pixels wide runs at.
  public func scaleEverywhere(width: Int) -> Double {
    let smallest = max(1, Double(width) * smallestFraction)
    return min(largestScale, Double(finder.smallestFace) / smallest)
  }

  /// The faces in `frame`: everywhere when `everywhere`, else only around the `known` boxes;
  /// each with its landmarks and eye measure.
  ///
  /// - Parameters:
  ///   - frame: The camera's frame.
  ///   - known: Faces found before, in the frame's pixels.
  ///   - everywhere: Whether to search the whole frame.
  ///   - isCancelled: Checked between faces; the search throws `CancellationError` then.
  public func faces(
    in frame: Frame, near known: [PixelBox], everywhere: Bool,
    isCancelled: () -> Bool = { false }
  ) throws -> [Face] {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    var faces: [Face] = []
    for box in try boxes(in: frame, near: known, everywhere: everywhere, isCancelled: isCancelled) {
      if isCancelled() { throw CancellationError() }
      faces.append(try face(in: box, of: frame, bounds: bounds))
    }
    return faces
  }

  /// The detector's part of ``faces(in:near:everywhere:isCancelled:)``: the boxes of the
  /// faces in `frame`, each once, without their landmarks.
  public func boxes(
    in frame: Frame, near known: [PixelBox], everywhere: Bool,
    isCancelled: () -> Bool = { false }
  ) throws -> [PixelBox] {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    var boxes: [PixelBox] = []
    if everywhere {
      let scale = scaleEverywhere(width: frame.width)
      let image = GreyImage(frame, scale: scale)
      boxes = try finder.faces(in: image).map { $0.mapped(scale: 1 / scale) }
    }
    for box in known {
      if isCancelled() { throw CancellationError() }
      // NB: a face the search everywhere has just found again is not looked for in its
      // region as well: that would cost a second search for the same box.
      if boxes.contains(where: { $0.overlap(with: box) > Self.sameFace }) { continue }
      boxes += try region(around: box, in: frame, bounds: bounds)
    }
    return Self.distinct(boxes)
  }

  /// What one look finds: for each face followed, the face its region shows now (or `nil`),
  /// and the faces a search of the whole frame found that no followed face accounts for.
  public struct Look: Sendable, Equatable {
    /// For each followed box, in the order given, the detection its region gave (the one
    /// nearest the box), or `nil` when the region showed none.
    public var followed: [PixelBox?]
    /// Faces found by the search everywhere that overlap no followed face: newcomers.
    public var newcomers: [PixelBox]

    /// A look's findings.
    public init(followed: [PixelBox?], newcomers: [PixelBox]) {
      self.followed = followed
      self.newcomers = newcomers
    }
  }

  /// One look at `frame`: each `known` face searched for in a region around it (always, so a
  /// followed face is placed by the same kind of search in every look), and, when
  /// `everywhere`, the whole frame searched for newcomers.
  ///
  /// A search of the whole frame and one of a region place the same still face differently
  /// (the detector's pyramid meets it at other scales: 29 or 35 pixels for a 29-pixel face,
  /// its centre 5 pixels away); a followed face placed now by one, now by the other, seems to
  /// move. So the whole frame only brings newcomers.
  ///
  /// - Throws: `CancellationError` when `isCancelled` says so between regions; what the finder
  ///   throws.
  public func look(
    in frame: Frame, near known: [PixelBox], everywhere: Bool,
    isCancelled: () -> Bool = { false }
  ) throws -> Look {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    var followed: [PixelBox?] = []
    for box in known {
      if isCancelled() { throw CancellationError() }
      let found = try region(around: box, in: frame, bounds: bounds)
      followed.append(
        found.min { $0.center.distance(to: box.center) < $1.center.distance(to: box.center) })
    }
    var newcomers: [PixelBox] = []
    if everywhere {
      if isCancelled() { throw CancellationError() }
      let scale = scaleEverywhere(width: frame.width)
      let image = GreyImage(frame, scale: scale)
      let taken = known + followed.compactMap { $0 }
      newcomers = Self.distinct(
        try finder.faces(in: image).map { $0.mapped(scale: 1 / scale) }.filter { box in
          !taken.contains { $0.overlap(with: box) > Self.sameFace || Self.contains($0, box) }
        })
    }
    return Look(followed: followed, newcomers: newcomers)
  }

  /// Whether `box`'s centre lies inside `other` (a face found at another scale).
  private static func contains(_ other: PixelBox, _ box: PixelBox) -> Bool {
    let center = box.center
    return center.x >= other.x && center.x <= other.x + other.width && center.y >= other.y
      && center.y <= other.y + other.height
  }

  /// The faces the detector finds in a region twice the size of `box`, at the scale that
  /// makes a face of `box`'s size a comfortable size for it; when that finds none, once more
  /// at the scale the search of the whole frame meets such a face.
  ///
  /// A face near the detector's threshold (bowed, its eyes lowered) is found at one scale and
  /// not at another: one that only the search of the whole frame found was missed by every
  /// search of its region, and left the count between two searches of the whole frame (a
  /// still crowd said `10 people`, then `9`). The second try, at the scale that found it,
  /// costs only for a face missed (no more than the first: the face is then no larger than
  /// the detector's window and a sixth), and finds the same still face in the same place
  /// every time.
  private func region(
    around box: PixelBox, in frame: Frame, bounds: PixelBox
  ) throws -> [PixelBox] {
    let comfortable = max(
      0.2, min(3, followedFaceSize * Double(finder.smallestFace) / max(1, box.width)))
    let found = try region(around: box, in: frame, bounds: bounds, scale: comfortable)
    // NB: the level of the whole frame's image pyramid (each 5/6 of the one above) where the
    // face is smallest and still no smaller than the detector's window.
    let window = Double(finder.smallestFace)
    var everywhere = scaleEverywhere(width: frame.width)
    while box.width * everywhere * 5 / 6 >= window { everywhere *= 5.0 / 6 }
    guard found.isEmpty, abs(everywhere / comfortable - 1) > 0.05 else { return found }
    return try region(around: box, in: frame, bounds: bounds, scale: everywhere)
  }

  private func region(
    around box: PixelBox, in frame: Frame, bounds: PixelBox, scale: Double
  ) throws -> [PixelBox] {
    // NB: a region twice the face's size follows a face that moved half its width.
    guard let region = box.grown(by: 2).clipped(to: bounds) else { return [] }
    let image = GreyImage(frame, region: region, scale: scale)
    let origin = FacePoint(x: -region.x * scale, y: -region.y * scale)
    return try finder.faces(in: image).map { $0.mapped(scale: 1 / scale, origin: origin) }
  }

  /// The face in `box` of `frame` with its landmarks, its eyes and where it looks, placed on
  /// a crop around the box at a steady size (the model's own training faces were about 150
  /// pixels across).
  ///
  /// The landmarks follow the box they are given: give a person's steadied box (a
  /// ``PeopleTracker/Person/box``), not each search's own detection, and the same still face
  /// gets the same landmarks, and the same eye measure, in every look.
  ///
  /// - Throws: What the landmark model throws.
  public func face(in box: PixelBox, of frame: Frame) throws -> Face {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    return try face(in: box, of: frame, bounds: bounds)
  }

  private func face(in box: PixelBox, of frame: Frame, bounds: PixelBox) throws -> Face {
    guard let region = box.grown(by: 1.5).clipped(to: bounds) else { return Face(box: box) }
    let scale = max(0.3, min(3, 150 / max(1, box.width)))
    let image = GreyImage(frame, region: region, scale: scale)
    let origin = FacePoint(x: -region.x * scale, y: -region.y * scale)
    let local = box.mapped(scale: scale, origin: FacePoint(x: region.x, y: region.y))
    let points = try finder.landmarks(in: image, of: local)
    guard points.count == 68 else { return Face(box: box) }
    let eyes = EyeMeasure(landmarks: points, in: image)
    let mapped = points.map {
      FacePoint(x: ($0.x - origin.x) / scale, y: ($0.y - origin.y) / scale)
    }
    return Face(box: box, landmarks: mapped, eyes: eyes, facing: Facing(landmarks: points))
  }

  /// How much two boxes overlap (intersection over union) when they are the same face.
  public static let sameFace = 0.3

  /// The boxes with the same face found twice (overlapping regions, a search everywhere
  /// beside the regions) kept once: the larger.
  static func distinct(_ boxes: [PixelBox]) -> [PixelBox] {
    var kept: [PixelBox] = []
    for box in boxes.sorted(by: { $0.area > $1.area })
    where !kept.contains(where: { $0.overlap(with: box) > sameFace }) {
      kept.append(box)
    }
    return kept
  }
}
