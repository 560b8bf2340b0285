/// How open a face's eyes look in one frame, from its 68 landmarks and the pixels between
/// them.
///
/// Two measures, because each alone is fooled: the eye aspect ratio (Soukupová and Čech,
/// 2016: the eyelids' gap over the eye's width) drops when the lids close, and also when a
/// person laughs and squints; the iris share (how much of the middle of the eye is as dark
/// as an iris, against the cheek below it) is high while the iris shows and falls to the thin
/// line of the lashes when the lid covers it.
public struct EyeMeasure: Sendable, Equatable {
  /// The two eyes' aspect ratio, averaged: about 0.25–0.35 open, below 0.15 shut.
  public var aspectRatio: Double
  /// The share of the middle of the eyes that is dark as an iris is, 0…1: about 0.5 or more
  /// open, the lashes' thin line (under 0.25) shut.
  public var irisShare: Double

  /// A measure.
  public init(aspectRatio: Double, irisShare: Double) {
    self.aspectRatio = aspectRatio
    self.irisShare = irisShare
  }

  /// The measure of the face whose 68 `landmarks` (in `image`'s pixels) are given.
  public init?(landmarks: [FacePoint], in image: GreyImage) {
    guard landmarks.count == 68 else { return nil }
    let left = Array(landmarks[36...41])
    let right = Array(landmarks[42...47])
    aspectRatio = (Self.aspectRatio(left) + Self.aspectRatio(right)) / 2
    irisShare =
      (Self.irisShare(eye: left, image: image) + Self.irisShare(eye: right, image: image)) / 2
  }

  /// One eye's aspect ratio from its six points (corner, two upper, corner, two lower).
  static func aspectRatio(_ eye: [FacePoint]) -> Double {
    let width = eye[0].distance(to: eye[3])
    guard width > 0 else { return 0 }
    return (eye[1].distance(to: eye[5]) + eye[2].distance(to: eye[4])) / (2 * width)
  }

  /// The share of a square in the middle of the eye (a third of its width across: about an
  /// iris) darker than 55 % of the cheek one eye-width below it. An open eye's iris fills
  /// most of it; a shut eye leaves the lashes' line.
  static func irisShare(eye: [FacePoint], image: GreyImage) -> Double {
    let xs = eye.map(\.x)
    let ys = eye.map(\.y)
    let width = (xs.max() ?? 0) - (xs.min() ?? 0)
    guard width >= 2 else { return 0 }
    let centerX = xs.reduce(0, +) / 6
    let centerY = ys.reduce(0, +) / 6
    let side = width / 3
    let inner = samples(
      image, x: centerX - side / 2, y: centerY - side / 2, width: side, height: side)
    let cheek = samples(
      image, x: centerX - width * 0.3, y: centerY + width * 0.7, width: width * 0.6,
      height: width * 0.3)
    guard !inner.isEmpty, !cheek.isEmpty else { return 0 }
    let skin = Double(cheek.sorted()[cheek.count / 2])
    let dark = inner.filter { Double($0) < skin * 0.55 }.count
    return Double(dark) / Double(inner.count)
  }

  private static func samples(
    _ image: GreyImage, x: Double, y: Double, width: Double, height: Double
  ) -> [Int] {
    let left = max(0, Int(x.rounded(.down)))
    let top = max(0, Int(y.rounded(.down)))
    let right = min(image.width, Int((x + width).rounded(.up)))
    let bottom = min(image.height, Int((y + height).rounded(.up)))
    guard right > left, bottom > top else { return [] }
    var values: [Int] = []
    values.reserveCapacity((right - left) * (bottom - top))
    for row in top..<bottom {
      for column in left..<right { values.append(Int(image.pixels[row * image.width + column])) }
    }
    return values
  }
}

/// One person's own open-eye values, learned during the count: what "open" is for this face
/// in this light, so a squint while laughing is not a blink.
///
/// The open value is a high percentile of the recent samples (a robust statistic: blinks are
/// short and only ever pull the values down, so a few looks that fall in blinks do not move
/// it; a still picture gives the same sample every time, and then it is that sample). Eyes count as closed when the aspect ratio falls well below that
/// value, or the iris no longer shows against the cheek; they count as open again only once
/// they are well back (hysteresis), so a value near the bar does not flicker.
public struct EyeBaseline: Sendable, Equatable {
  /// How many samples it keeps.
  public static let capacity = 90
  /// The fraction of the open aspect ratio below which the eyes close.
  public static let closedRatio = 0.7
  /// The fraction of the open aspect ratio above which closed eyes count as open again.
  public static let reopenedRatio = 0.8
  /// The fraction of the open iris share below which the iris is covered.
  public static let coveredRatio = 0.45
  /// Eyes shut whatever the baseline: an aspect ratio this low with no iris showing (the
  /// lids' line alone). A laughing or squinting face goes as low as 0.14 (measured on group
  /// photos) but its iris shows; only both together are shut eyes, so someone whose eyes are
  /// shut in every look is still called blinking.
  public static let fallbackClosed = 0.17
  /// The iris share under which, with an aspect ratio under ``fallbackClosed``, eyes are shut
  /// whatever the baseline.
  public static let fallbackIris = 0.2

  private var ratios: [Double] = []
  private var shares: [Double] = []

  /// An empty baseline.
  public init() {}

  /// How many samples it has.
  public var count: Int { ratios.count }

  /// How many looks it takes to know the open eyes; before that only shut lids with no iris
  /// showing (``fallbackClosed``, ``fallbackIris``) count as closed.
  public static let learnedAfter = 5

  /// Whether it has seen enough to know this person's open eyes.
  public var isLearned: Bool { count >= Self.learnedAfter }

  /// How many looks it takes before the open value is trusted to choose a photo's frame by.
  /// Five looks can fall mostly in blinks (a busy machine looks seldom; some people blink
  /// often): the open value is then a shut one, and a shut frame would pass as open. At five
  /// looks a second, fifteen span three seconds; a count with fewer has the frames around
  /// zero teach the open eyes first (``PeopleAtZero/eyesLearned``).
  public static let trustedAfter = 15

  /// Whether it has seen enough for its open value to choose a photo's frame by.
  public var isTrusted: Bool { count >= Self.trustedAfter }

  /// Adds one frame's measure.
  public mutating func add(_ measure: EyeMeasure) {
    ratios.append(measure.aspectRatio)
    shares.append(measure.irisShare)
    if ratios.count > Self.capacity {
      ratios.removeFirst()
      shares.removeFirst()
    }
  }

  /// The open aspect ratio learned so far (the 80th percentile), or `nil` before 5 samples.
  public var openAspectRatio: Double? { Self.percentile(ratios, 0.8) }
  /// The open iris share learned so far (the 80th percentile), or `nil` before 5 samples.
  public var openIrisShare: Double? { Self.percentile(shares, 0.8) }

  /// How much of a person's open aspect ratio a frame's eyes must keep to be kept as the
  /// photo: more than not closed (``closedRatio``), so that a half-shut blink, which the
  /// landmarks put near the closed bar, is never the photo "with every eye open".
  public static let keeperRatio = 0.85

  /// Whether `measure` shows the eyes clearly open, as a photo's frame needs: at least
  /// ``keeperRatio`` of the open aspect ratio, and the iris showing where it shows when open.
  /// Without a learned baseline, not closed.
  public func isClearlyOpen(_ measure: EyeMeasure) -> Bool {
    guard let open = openAspectRatio, let iris = openIrisShare else { return !isClosed(measure) }
    guard measure.aspectRatio >= open * Self.keeperRatio else { return false }
    return iris <= 0.3 || measure.irisShare >= iris * 0.6
  }

  /// Whether `measure` shows the eyes closed for this person.
  public func isClosed(_ measure: EyeMeasure) -> Bool {
    if measure.aspectRatio < Self.fallbackClosed && measure.irisShare < Self.fallbackIris {
      return true
    }
    guard let open = openAspectRatio, let iris = openIrisShare else { return false }
    if measure.aspectRatio < open * Self.closedRatio { return true }
    // NB: only an iris that showed clearly when open can vanish (dim light: it may not).
    return iris > 0.3 && measure.irisShare < iris * Self.coveredRatio
  }

  /// Whether the eyes are closed now, given whether they were closed at the last look: eyes
  /// close by ``isClosed(_:)`` and open again only past ``reopenedRatio`` of the open value
  /// with the iris back, so a measure near the bar keeps the last judgement.
  public func judge(_ measure: EyeMeasure, wasClosed: Bool) -> Bool {
    guard wasClosed else { return isClosed(measure) }
    if isClosed(measure) { return true }
    guard let open = openAspectRatio, let iris = openIrisShare else { return false }
    if measure.aspectRatio < open * Self.reopenedRatio { return true }
    return iris > 0.3 && measure.irisShare < iris * 0.6
  }

  private static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
    guard values.count >= learnedAfter else { return nil }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
  }
}
