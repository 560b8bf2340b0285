import PhotoTimerSetup
import Testing

/// The booth screen's idle turn (`--idle`): the live picture, then each of the last collages,
/// newest first, over and over once nobody has pressed for a while.
@Suite("A booth's idle turn")
struct BoothAttractTests {
  let attract = BoothAttract(
    idleAfter: .seconds(30), live: .seconds(10), each: .seconds(6), shown: 3)

  @Test("Before the idle time, what the session shows stays")
  func busy() {
    #expect(attract.scene(since: .zero, collages: 5) == .current)
    #expect(attract.scene(since: .seconds(29.9), collages: 5) == .current)
  }

  @Test("Then the live picture, then the newest collages in turn, and around again")
  func turn() {
    let expected: [(Double, BoothAttract.Scene)] = [
      (30, .live), (39.9, .live), (40, .collage(0)), (45.9, .collage(0)), (46, .collage(1)),
      (52, .collage(2)), (57.9, .collage(2)), (58, .live), (68, .collage(0)),
    ]
    for (seconds, scene) in expected {
      #expect(attract.scene(since: .seconds(seconds), collages: 5) == scene, "at \(seconds) s")
    }
  }

  @Test("Fewer collages than shown: only those; none: the live picture")
  func few() {
    #expect(attract.scene(since: .seconds(46), collages: 1) == .live)
    #expect(attract.scene(since: .seconds(41), collages: 1) == .collage(0))
    #expect(attract.scene(since: .seconds(3600), collages: 0) == .live)
  }

  @Test("It says when the scene next changes: just before, the same scene; then another")
  func nextChange() throws {
    #expect(attract.nextChange(after: .seconds(3), collages: 2) == .seconds(30))
    #expect(attract.nextChange(after: .seconds(30), collages: 2) == .seconds(40))
    #expect(attract.nextChange(after: .seconds(41), collages: 2) == .seconds(46))
    #expect(attract.nextChange(after: .seconds(46), collages: 2) == .seconds(52))
    #expect(attract.nextChange(after: .seconds(3600), collages: 0) == nil)
    for collages in 1...5 {
      for tenths in stride(from: 0, through: 2000, by: 7) {
        let since = Duration.milliseconds(tenths * 100)
        let next = try #require(attract.nextChange(after: since, collages: collages))
        let scene = attract.scene(since: since, collages: collages)
        #expect(next > since)
        #expect(attract.scene(since: next - .milliseconds(1), collages: collages) == scene)
        #expect(attract.scene(since: next, collages: collages) != scene, "\(since), \(collages)")
      }
    }
  }

  @Test("After a whole night, still in turn")
  func night() {
    // 12 h after: the turns are 28 s long.
    let since = Duration.seconds(30 + 28 * 1543 + 11)
    #expect(attract.scene(since: since, collages: 3) == .collage(0))
  }
}
