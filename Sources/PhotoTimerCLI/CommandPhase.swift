/// Where the command is; each phase says what can come next.
///
/// ```
/// cameraOpening ──opened──▶ running ──quit, signal──▶ stopping ──cancelled──▶ done
///       │                      └──the run ended (no --frame), the camera lost──▶ done
///       └──failed, quit──▶ done
/// ```
enum CommandPhase: Equatable {
  /// The screen's camera is opening; `takeNowAtStart`: space was pressed meanwhile, so the
  /// photo is taken as soon as the count begins.
  case cameraOpening(takeNowAtStart: Bool)
  /// The camera is open (or none is held): counting, or framing between counts.
  case running
  /// A signal or a quit asked to end; the run's cancel is on its way.
  case stopping
  /// The loop ends; `asked`: a signal or a quit ended it.
  case done(asked: Bool)

  var isCameraOpening: Bool {
    if case .cameraOpening = self { return true }
    return false
  }

  var isDone: Bool {
    if case .done = self { return true }
    return false
  }

  /// Whether a signal or a quit asked the command to end.
  var endAsked: Bool { self == .stopping || self == .done(asked: true) }
}
