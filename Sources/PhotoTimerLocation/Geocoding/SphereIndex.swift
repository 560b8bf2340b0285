/// A 3-d tree over points on the unit sphere: nearest-neighbour and radius queries in
/// logarithmic time, exact (it returns what a scan of every point would).
///
/// The tree is stored implicitly in one array: the median of each range is its node, so
/// building is O(n log n) and a query touches O(log n) nodes on average.
struct SphereIndex: Sendable {
  private let points: [UnitVector]
  /// Indices into `points`, arranged as the implicit tree.
  private let order: [Int32]

  /// Builds the tree over `points`; queries return indices into this array.
  init(points: [UnitVector]) {
    self.points = points
    var order = (0..<points.count).map { Int32($0) }
    Self.build(&order, points: points, range: 0..<points.count, depth: 0)
    self.order = order
  }

  /// Arranges `range` so its median (on the axis for `depth`) is its node.
  private static func build(
    _ order: inout [Int32], points: [UnitVector], range: Range<Int>, depth: Int
  ) {
    guard range.count > 1 else { return }
    let axis = depth % 3
    order[range].sort { a, b in
      let pa = points[Int(a)][axis]
      let pb = points[Int(b)][axis]
      return pa != pb ? pa < pb : a < b
    }
    let mid = range.lowerBound + range.count / 2
    build(&order, points: points, range: range.lowerBound..<mid, depth: depth + 1)
    build(&order, points: points, range: (mid + 1)..<range.upperBound, depth: depth + 1)
  }

  /// The index of the point nearest to `target`; ties go to the lower index. `nil` if empty.
  func nearest(to target: UnitVector) -> Int? {
    guard !order.isEmpty else { return nil }
    var best: (index: Int, distance: Double) = (-1, .infinity)
    search(target, range: 0..<order.count, depth: 0, best: &best)
    return best.index
  }

  private func search(
    _ target: UnitVector, range: Range<Int>, depth: Int, best: inout (index: Int, distance: Double)
  ) {
    guard !range.isEmpty else { return }
    let mid = range.lowerBound + range.count / 2
    let index = Int(order[mid])
    let point = points[index]
    let distance = point.chordSquared(to: target)
    if distance < best.distance || (distance == best.distance && index < best.index) {
      best = (index, distance)
    }
    let axis = depth % 3
    let delta = target[axis] - point[axis]
    let near = delta < 0 ? range.lowerBound..<mid : (mid + 1)..<range.upperBound
    let far = delta < 0 ? (mid + 1)..<range.upperBound : range.lowerBound..<mid
    search(target, range: near, depth: depth + 1, best: &best)
    // NB: `<=` so that an equally near point on the far side can still win the tie-break.
    if delta * delta <= best.distance {
      search(target, range: far, depth: depth + 1, best: &best)
    }
  }

  /// The indices of every point within `chordSquared` (squared straight-line distance).
  func within(chordSquared limit: Double, of target: UnitVector) -> [Int] {
    var found: [Int] = []
    collect(target, limit: limit, range: 0..<order.count, depth: 0, into: &found)
    return found
  }

  private func collect(
    _ target: UnitVector, limit: Double, range: Range<Int>, depth: Int, into found: inout [Int]
  ) {
    guard !range.isEmpty else { return }
    let mid = range.lowerBound + range.count / 2
    let index = Int(order[mid])
    let point = points[index]
    if point.chordSquared(to: target) <= limit { found.append(index) }
    let axis = depth % 3
    let delta = target[axis] - point[axis]
    if delta < 0 || delta * delta <= limit {
      collect(target, limit: limit, range: range.lowerBound..<mid, depth: depth + 1, into: &found)
    }
    if delta >= 0 || delta * delta <= limit {
      collect(
        target, limit: limit, range: (mid + 1)..<range.upperBound, depth: depth + 1, into: &found)
    }
  }
}
