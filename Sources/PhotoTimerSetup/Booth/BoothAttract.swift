/// What a booth's screen shows while nobody uses it: after ``idleAfter`` without a press or a
/// session, the live picture and the last collages in turn (the live picture for ``live``,
/// then each collage, newest first, for ``each``), until someone presses again.
///
/// A pure schedule: the window asks it what to show, with the time since the last activity,
/// when ``nextChange(after:collages:)`` says the scene changes (no timer that polls).
///
/// ```swift
/// let attract = BoothAttract()
/// attract.scene(since: .seconds(5), collages: 3)    // .live: someone was here just now
/// attract.scene(since: .seconds(41), collages: 3)   // .collage(0): the newest
/// ```
package struct BoothAttract: Hashable, Sendable {
  /// What the screen shows.
  package enum Scene: Hashable, Sendable {
    /// The live picture (or whatever the session shows: the last collage stays up until idle).
    case current
    /// The live picture, in the idle turn.
    case live
    /// A collage, by its place from the newest (0).
    case collage(Int)
  }

  /// How long without a press or a session before the turn starts.
  package var idleAfter: Duration
  /// How long the live picture stays in each turn.
  package var live: Duration
  /// How long each collage stays.
  package var each: Duration
  /// How many of the last collages are shown.
  package var shown: Int

  /// A schedule.
  ///
  /// - Parameters:
  ///   - idleAfter: Idle from (default 30 s).
  ///   - live: The live picture's time in each turn (default 10 s).
  ///   - each: Each collage's time (default 6 s).
  ///   - shown: How many of the last collages (default 4).
  package init(
    idleAfter: Duration = .seconds(30), live: Duration = .seconds(10),
    each: Duration = .seconds(6), shown: Int = 4
  ) {
    self.idleAfter = idleAfter
    self.live = live
    self.each = each
    self.shown = max(shown, 1)
  }

  /// What to show `since` the last activity, with `collages` made so far.
  package func scene(since: Duration, collages: Int) -> Scene {
    guard since >= idleAfter else { return .current }
    let count = min(collages, shown)
    guard count > 0 else { return .live }
    let turn = live + each * count
    var into = since - idleAfter
    into -= turn * Int(into / turn)
    guard into >= live else { return .live }
    return .collage(min(Int((into - live) / each), count - 1))
  }

  /// When the scene next changes after `since`, counted like `since` from the last activity;
  /// `nil` when it never changes by itself (no collage yet: the live picture stays).
  package func nextChange(after since: Duration, collages: Int) -> Duration? {
    guard since >= idleAfter else { return idleAfter }
    let count = min(collages, shown)
    guard count > 0 else { return nil }
    let turn = live + each * count
    var into = since - idleAfter
    into -= turn * Int(into / turn)
    let start = since - into
    guard into >= live else { return start + live }
    return start + live + each * (Int((into - live) / each) + 1)
  }
}
