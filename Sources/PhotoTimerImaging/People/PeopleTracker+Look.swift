extension PeopleTracker {
  /// A person seen in one look: who, where (their steadied box) and their face measured there.
  public struct Sighting: Sendable, Equatable {
    /// Who (``Person/id``).
    public var person: Int
    /// Their steadied box, where the face was measured.
    public var box: PixelBox
    /// Their face measured on a crop from that box: landmarks, eyes, facing.
    public var face: Face
  }

  /// One look at `frame`, taken at `time`: the faces searched for (everywhere, or around the
  /// tracks), matched to the tracks, and each track seen measured on a crop made from its own
  /// steadied box, whichever search found it; its eyes and facing judged against what that
  /// person showed before.
  ///
  /// Identical frames give identical sightings once the boxes have settled (after the first
  /// look on a still picture): the crop, hence the landmarks and every measure, is the same.
  ///
  /// - Parameters:
  ///   - frame: The frame, at the resolution the tracks' boxes are in.
  ///   - search: The search over the face finder.
  ///   - everywhere: Whether to search the whole frame (newcomers) as well as around the
  ///     tracks.
  ///   - time: When the frame was taken, on the count's clock.
  ///   - isCancelled: Checked between faces.
  /// - Returns: The tracks seen in this look, each measured.
  /// - Throws: `CancellationError` when `isCancelled` says so; what the finder throws.
  public mutating func look(
    at frame: Frame, search: FaceSearch, everywhere: Bool, time: Duration,
    isCancelled: () -> Bool = { false }
  ) throws -> [Sighting] {
    let found = try search.look(
      in: frame, near: known, everywhere: everywhere, turn: searchesEverywhere,
      isCancelled: isCancelled)
    if everywhere { searchesEverywhere += 1 }
    let seen = update(found, at: time)
    var sightings: [Sighting] = []
    for id in seen {
      if isCancelled() { throw CancellationError() }
      guard let person = tracks.first(where: { $0.id == id }) else { continue }
      let face = try search.face(in: person.box, of: frame)
      record(face.eyes, facing: face.facing, for: id)
      sightings.append(Sighting(person: id, box: person.box, face: face))
    }
    return sightings
  }
}
