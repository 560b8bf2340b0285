/// Which of a camera's modes to stream in.
///
/// ```swift
/// let mode = try ModeRequest.best.choose(from: modes)
/// print(mode)  // 1920×1080 MJPEG 30 fps
/// ```
public enum ModeRequest: Hashable, Sendable, CustomStringConvertible {
  /// The largest size the camera gives at ``smoothRate`` or faster, in any format, at its
  /// highest rate; a raw format wins a tie with MJPEG (no decoding, no compression). When no
  /// mode is that fast, the fastest mode, largest first.
  case best
  /// The largest size, whatever its rate (`--resolution max`).
  case largest
  /// This size, at its highest rate (`--resolution 1280x720`).
  case size(FrameSize)

  /// The slowest rate ``best`` counts as smooth: 24 fps.
  public static let smoothRate = FrameRate(frames: 24)

  /// `"best"`, `"max"`, `"1280×720"`.
  public var description: String {
    switch self {
    case .best: "best"
    case .largest: "max"
    case .size(let size): size.description
    }
  }

  /// Chooses a mode among `modes`.
  ///
  /// - Parameter modes: What the camera offers (formats this program cannot read left out).
  /// - Returns: The mode to stream in.
  /// - Throws: ``ModeChoiceError`` when the camera offers no mode, or not the size asked for.
  public func choose(from modes: [CameraMode]) throws(ModeChoiceError) -> StreamMode {
    let candidates = modes.flatMap { mode in
      mode.rates.map { StreamMode(format: mode.format, size: mode.size, rate: $0) }
    }
    guard !candidates.isEmpty else { throw .noModes }
    // NB: ties go to a raw format, then to the format listed first (the driver's order).
    func order(_ mode: StreamMode) -> Int {
      mode.format.isCompressed ? 1 : 0
    }
    func better(
      _ lhs: StreamMode, _ rhs: StreamMode, sizeFirst: Bool
    ) -> Bool {
      if sizeFirst, lhs.size.area != rhs.size.area { return lhs.size.area > rhs.size.area }
      if lhs.rate != rhs.rate { return lhs.rate > rhs.rate }
      if lhs.size.area != rhs.size.area { return lhs.size.area > rhs.size.area }
      return order(lhs) < order(rhs)
    }
    func pick(_ pool: [StreamMode], sizeFirst: Bool) -> StreamMode? {
      var chosen: StreamMode?
      for mode in pool where chosen.map({ better(mode, $0, sizeFirst: sizeFirst) }) ?? true {
        chosen = mode
      }
      return chosen
    }
    switch self {
    case .best:
      let smooth = candidates.filter { $0.rate >= Self.smoothRate }
      if let mode = pick(smooth, sizeFirst: true) { return mode }
      return pick(candidates, sizeFirst: false) ?? candidates[0]
    case .largest:
      return pick(candidates, sizeFirst: true) ?? candidates[0]
    case .size(let size):
      guard let mode = pick(candidates.filter { $0.size == size }, sizeFirst: true) else {
        var sizes: [FrameSize] = []
        for mode in modes.sorted(by: { $0.size.area < $1.size.area })
        where !sizes.contains(mode.size) {
          sizes.append(mode.size)
        }
        throw .sizeNotOffered(size, offered: sizes)
      }
      return mode
    }
  }
}

/// Why no mode could be chosen.
public enum ModeChoiceError: Error, Hashable, CustomStringConvertible {
  /// The camera lists no mode this program can read.
  case noModes
  /// The size asked for is not one the camera gives; `offered` lists those it does.
  case sizeNotOffered(FrameSize, offered: [FrameSize])

  /// What went wrong, with the sizes there are.
  public var description: String {
    switch self {
    case .noModes:
      "the camera lists no video mode this program can read"
    case .sizeNotOffered(let size, let offered):
      "the camera does not give \(size); it gives "
        + offered.map(\.description).joined(separator: ", ")
    }
  }
}

extension ModeRequest {
  /// A camera's modes as a menu: the best mode first, then the largest (when it is another
  /// mode), then every size, largest first, each with the mode it streams in.
  ///
  /// ```swift
  /// ModeRequest.menu(for: device.modes).map(\.title)
  /// // ["Best: 1280×720 MJPEG 30 fps", "1920×1080 MJPEG 30 fps", "1280×720 MJPEG 30 fps", …]
  /// ```
  ///
  /// - Parameter modes: What the camera offers.
  /// - Returns: Each entry's title and the request that picks it; empty when the camera
  ///   offers no mode.
  public static func menu(for modes: [CameraMode]) -> [(title: String, request: ModeRequest)] {
    guard let best = try? ModeRequest.best.choose(from: modes) else { return [] }
    var entries: [(title: String, request: ModeRequest)] = [("Best: \(best)", .best)]
    if let largest = try? ModeRequest.largest.choose(from: modes), largest != best {
      entries.append(("Largest: \(largest)", .largest))
    }
    var sizes: [FrameSize] = []
    for mode in modes.sorted(by: { $0.size.area > $1.size.area }) where !sizes.contains(mode.size) {
      sizes.append(mode.size)
    }
    for size in sizes {
      guard let mode = try? ModeRequest.size(size).choose(from: modes) else { continue }
      entries.append(("\(mode)", .size(size)))
    }
    return entries
  }
}
