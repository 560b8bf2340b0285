import PhotoTimerImaging

/// The switch for a count that starts itself once the group is in, as every front end keeps
/// it: whether it is on, what the count waits for, and what to do at each turn. A pure value:
/// it decides, the front end does what it says (``Step``) through its own loop and gate, so
/// the terminal, the window and the phone's page behave alike.
///
/// ```swift
/// var auto = AutoStart(available: stage.ready != nil, on: options.startWhenReady)
/// perform(auto.set(true))               // .watch(afterCount: false)
/// perform(auto.heard(.state(.ready)))   // .start: start the count through the gate
/// perform(auto.countEnded())            // .watch(afterCount: true): the next group
/// status = auto.waiting                 // "hold still", "waiting for everyone: 4 of 6"
/// ```
package struct AutoStart: Equatable, Sendable {
  /// What the front end does next.
  package enum Step: Equatable, Sendable {
    /// Nothing.
    case none
    /// Watch the camera for the people (``ScreenStage/watchForPeople(afterCount:report:)``),
    /// unless a count runs: its end asks again.
    case watch(afterCount: Bool)
    /// Stop watching (``ScreenStage/stopWatchingForPeople()``).
    case stopWatching
    /// Everyone is in and still: start the count, if the front end's gate allows it now.
    case start
  }

  /// The switch: on, off, or `nil` where there is none (no camera on screen to watch, the
  /// people off).
  package private(set) var isOn: Bool?
  /// What the count waits for now, in words, while the switch is on and nothing counts.
  package private(set) var waiting: String?

  /// A switch, there when the screen can watch for the people, on or off at first.
  package init(available: Bool, on: Bool) {
    isOn = available ? on : nil
  }

  /// The switch turned `on` or off (a key, a tap, a box ticked).
  package mutating func set(_ on: Bool) -> Step {
    guard isOn != nil, isOn != on else { return .none }
    isOn = on
    if on { return .watch(afterCount: false) }
    waiting = nil
    return .stopWatching
  }

  /// The camera is open and framing begins.
  package func cameraOpened() -> Step {
    isOn == true ? .watch(afterCount: false) : .none
  }

  /// A count starts (by hand or by itself): nothing is waited for until it ends.
  package mutating func countStarts() -> Step {
    waiting = nil
    return isOn == true ? .stopWatching : .none
  }

  /// A count ended (a photo, a failure, a cancel): the next group is waited for, once the
  /// picture has emptied.
  package func countEnded() -> Step {
    isOn == true ? .watch(afterCount: true) : .none
  }

  /// What the wait said.
  package mutating func heard(_ report: ScreenStage.ReadyReport) -> Step {
    guard isOn == true else { return .none }
    switch report {
    case .state(.ready):
      waiting = nil
      return .start
    case .state(.waiting(let words)):
      waiting = words
      return .none
    case .unavailable(let problem):
      waiting = "no count by itself: \(problem)"
      return .none
    }
  }
}
