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
///
/// The detector meets a face only at the levels of its image pyramid, each 5/6 of the one
/// above, and a face near its threshold (bowed, turned, in shadow) is found at one size and
/// missed at one a few pixels larger. So the whole frame has two pyramids, the second
/// halfway between the first's levels (``scalesEverywhere(width:)``): on the people
/// evaluation's landing photo, a man turned aside was missed at the first's scale and found
/// at 0.85, 0.9 and 0.95 of it.
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

  /// The scale a search of the whole of a frame `width` pixels wide runs at: its first
  /// pyramid's.
  public func scaleEverywhere(width: Int) -> Double {
    let smallest = max(1, Double(width) * smallestFraction)
    return min(largestScale, Double(finder.smallestFace) / smallest)
  }

  /// The scales of the whole frame's two image pyramids: ``scaleEverywhere(width:)``, and
  /// √(5/6) of it, which puts the second pyramid's levels halfway between the first's (the
  /// detector's own steps are 5/6). The second is the cheaper (5/6 of the pixels); the
  /// smallest wanted face is met by the first.
  public func scalesEverywhere(width: Int) -> [Double] {
    let first = scaleEverywhere(width: width)
    return [first, first * (5.0 / 6).squareRoot()]
  }

  /// How far over its threshold the detector's score must be for a face found by the whole
  /// frame's second pyramid (``FaceFinder/faces(in:margin:)``).
  ///
  /// A second pyramid is a second chance at the threshold for every near miss, false ones
  /// too: at the first's threshold it took a mission patch on the astronaut's suit for a
  /// face (score 0.0–0.05), and a boy out of focus behind a sleeve that no region search
  /// could follow (0.05–0.1). The faces the first pyramid's levels fall past are met squarely
  /// by the second's: the landing's man in the tan suit scores 0.3 there (measured on the
  /// people evaluation's nine photos, where the first pyramid's true faces score 0.0 to over
  /// 1).
  public var secondPyramidMargin = 0.2

  /// The faces the detector finds in the whole of `frame` through the pyramid `pyramid` of
  /// ``scalesEverywhere(width:)``, in the frame's pixels.
  private func everywhere(in frame: Frame, pyramid: Int) throws -> [PixelBox] {
    let scale = scalesEverywhere(width: frame.width)[pyramid]
    let image = GreyImage(frame, scale: scale)
    return try finder.faces(in: image, margin: pyramid == 0 ? 0 : secondPyramidMargin)
      .map { $0.mapped(scale: 1 / scale) }
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
  /// faces in `frame`, each once, without their landmarks. A search everywhere runs both of
  /// the whole frame's pyramids (``scalesEverywhere(width:)``) and keeps the faces a search
  /// of a region around each finds as well, as
  /// ``look(in:near:everywhere:turn:isCancelled:)`` does.
  public func boxes(
    in frame: Frame, near known: [PixelBox], everywhere: Bool,
    isCancelled: () -> Bool = { false }
  ) throws -> [PixelBox] {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    var boxes: [PixelBox] = []
    if everywhere {
      boxes = try newcomers(in: frame, beside: [], turn: 0, both: true, isCancelled: isCancelled)
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

  /// One look at `frame`, its whole frame searched (when `everywhere`) through the first of
  /// its pyramids first: ``look(in:near:everywhere:turn:isCancelled:)`` with `turn` 0.
  public func look(
    in frame: Frame, near known: [PixelBox], everywhere: Bool,
    isCancelled: () -> Bool = { false }
  ) throws -> Look {
    try look(in: frame, near: known, everywhere: everywhere, turn: 0, isCancelled: isCancelled)
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
  /// The whole frame is searched through one of its two pyramids (``scalesEverywhere(width:)``),
  /// the two in turn from one search to the next, so that a face only one of them meets is
  /// found within two searches at the cost of one; and through the other as well when the
  /// first finds a newcomer: the picture has changed (a group came in, the watch has just
  /// begun), and all of it is found in the same look, so the count does not rise a second
  /// time a search later. A face found there is a newcomer only when the search of a region
  /// around it finds it too, as the next looks will look for it: one that cannot be followed
  /// would count in one look and not in the next.
  ///
  /// - Parameters:
  ///   - frame: The camera's frame.
  ///   - known: The faces followed, in the frame's pixels.
  ///   - everywhere: Whether to search the whole frame for newcomers.
  ///   - turn: Which pyramid the search of the whole frame runs first: the first when even,
  ///     the second when odd (a count of the searches of the whole frame so far).
  ///   - isCancelled: Checked between regions; the search throws `CancellationError` then.
  /// - Throws: `CancellationError` when `isCancelled` says so between regions; what the finder
  ///   throws.
  public func look(
    in frame: Frame, near known: [PixelBox], everywhere: Bool, turn: Int,
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
      newcomers = try self.newcomers(
        in: frame, beside: known + followed.compactMap { $0 }, turn: turn, both: false,
        isCancelled: isCancelled)
    }
    return Look(followed: followed, newcomers: newcomers)
  }

  /// The faces a search of the whole of `frame` finds beside the `taken` ones: through the
  /// pyramid whose turn it is, and through the other too when `both` or when the first found
  /// any; each kept only where the search of a region around it finds it as well.
  private func newcomers(
    in frame: Frame, beside taken: [PixelBox], turn: Int, both: Bool,
    isCancelled: () -> Bool
  ) throws -> [PixelBox] {
    let bounds = PixelBox(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
    let order = turn.isMultiple(of: 2) ? [0, 1] : [1, 0]
    var found: [[PixelBox]] = [[], []]
    for pyramid in order {
      // NB: the other pyramid only when the first found someone new.
      if pyramid == order[1] && !both && found[order[0]].isEmpty { break }
      if isCancelled() { throw CancellationError() }
      found[pyramid] = Self.distinct(
        try self.everywhere(in: frame, pyramid: pyramid).filter { box in
          !taken.contains { $0.overlap(with: box) > Self.sameFace || Self.contains($0, box) }
        })
    }
    // NB: a face both pyramids found keeps the first pyramid's box, whichever ran first: the
    // eyes are measured on a crop made from it, so the same face gets the same box whenever
    // it comes in (a squinting man's box from the second pyramid, 10 % larger, put his
    // landmarks on shut eyes).
    let first = found[0]
    let newcomers =
      first
      + found[1].filter { box in
        !first.contains { $0.overlap(with: box) > Self.sameFace || Self.contains($0, box) }
      }
    // NB: a newcomer only when the search of its own region finds it too: that search is
    // how it will be followed. A face at the detector's threshold that one scale in four
    // meets (a boy out of focus behind the President's sleeve) was found by the whole frame,
    // counted, and lost in the next look.
    return try newcomers.filter { box in
      if isCancelled() { throw CancellationError() }
      return try region(around: box, in: frame, bounds: bounds).contains {
        $0.overlap(with: box) > Self.sameFace
      }
    }
  }

  /// Whether `box`'s centre lies inside `other` (a face found at another scale).
  private static func contains(_ other: PixelBox, _ box: PixelBox) -> Bool {
    let center = box.center
    return center.x >= other.x && center.x <= other.x + other.width && center.y >= other.y
      && center.y <= other.y + other.height
  }

  /// The faces the detector finds in a region twice the size of `box`, at the scale that
  /// makes a face of `box`'s size a comfortable size for it; when that finds none, again at
  /// each scale a pyramid of the whole frame meets such a face, until one finds it.
  ///
  /// A face near the detector's threshold (bowed, its eyes lowered) is found at one scale and
  /// not at another: one that only the search of the whole frame found was missed by every
  /// search of its region, and left the count between two searches of the whole frame (a
  /// still crowd said `10 people`, then `9`). The tries at the scales that found it cost only
  /// for a face missed (each no more than the first: the face is then no larger than the
  /// detector's window and a sixth), and find the same still face in the same place every
  /// time.
  private func region(
    around box: PixelBox, in frame: Frame, bounds: PixelBox
  ) throws -> [PixelBox] {
    let comfortable = max(
      0.2, min(3, followedFaceSize * Double(finder.smallestFace) / max(1, box.width)))
    var tried = [comfortable]
    let found = try region(around: box, in: frame, bounds: bounds, scale: comfortable)
    guard found.isEmpty else { return found }
    let window = Double(finder.smallestFace)
    for start in scalesEverywhere(width: frame.width) {
      // NB: the level of that pyramid (each 5/6 of the one above) where the face is smallest
      // and still no smaller than the detector's window.
      var scale = start
      while box.width * scale * 5 / 6 >= window { scale *= 5.0 / 6 }
      guard !tried.contains(where: { abs(scale / $0 - 1) <= 0.05 }) else { continue }
      tried.append(scale)
      let again = try region(around: box, in: frame, bounds: bounds, scale: scale)
      if !again.isEmpty { return again }
    }
    return []
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
