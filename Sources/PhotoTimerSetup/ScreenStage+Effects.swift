import PhotoTimer

extension ScreenStage {
  /// Carries out what the front-end machine decided, the same way for every front end: the
  /// count, take it now, cancel and restart on `model`, and the watch for the people on this
  /// stage's camera. The front end only adds its own bookkeeping and draws.
  ///
  /// - Parameters:
  ///   - effects: The machine's effects, in order.
  ///   - model: The model they act on; `nil` while none is built (a camera being rebuilt),
  ///     when the machine accepts nothing that acts on one.
  ///   - counted: Called once a count has started (`false`) or started again (`true`): a
  ///     chart's or a trace's start of the count, a note of the front end's own.
  ///   - heard: What the watch for the people says, for the machine to hear.
  ///   - ending: Called for ``FrontEndSession/Effect/end``.
  ///   - booth: Called for a booth's effects (a session begins, a shot to review, kept or
  ///     taken again, the collage, the session's end): the front end shows and keeps them.
  ///   - reopen: Called for ``FrontEndSession/Effect/reopenCamera(after:)``: the front end
  ///     builds its camera again after that long.
  ///   - printer: Where Print and Resume go (the front end's print runner), if it prints.
  package func carryOut(
    _ effects: [FrontEndSession.Effect], on model: PhotoTimerViewModel?,
    counted: (_ again: Bool) -> Void = { _ in }, heard: @escaping @MainActor (ReadyReport) -> Void,
    ending: () -> Void = {}, booth: (FrontEndSession.Effect) -> Void = { _ in },
    reopen: (Duration) -> Void = { _ in }, printer: PrintRunner? = nil
  ) {
    for effect in effects {
      // NB: the machine accepts none that acts on a model while a camera is built
      // (FrontEndSessionTests): one that comes without a model is a programming error.
      assert(
        model != nil || !effect.actsOnModel,
        "the front-end machine accepted \(effect) with no model built")
      switch effect {
      case .startCount(let seconds):
        if let seconds { model?.countdownSeconds = seconds }
        model?.startTimer()
        counted(false)
      case .takeNow: model?.takeNow()
      case .cancelRun: model?.cancel()
      case .restartRun:
        model?.restart()
        counted(true)
      case .watchForPeople(let afterCount): watchForPeople(afterCount: afterCount, report: heard)
      case .stopWatching: stopWatchingForPeople()
      case .end: ending()
      case .boothStarted, .review, .keepShot, .discardShot, .composeCollage, .boothEnded:
        booth(effect)
      case .reopenCamera(let delay): reopen(delay)
      case .print: printer?.ask(.print)
      case .resume: printer?.ask(.resume)
      }
    }
  }
}

extension FrontEndSession.Effect {
  /// Whether the effect acts on the model (a count, take it now, cancel, restart).
  fileprivate var actsOnModel: Bool {
    switch self {
    case .startCount, .takeNow, .cancelRun, .restartRun: true
    case .watchForPeople, .stopWatching, .end, .boothStarted, .review, .keepShot, .discardShot,
      .composeCollage, .boothEnded, .reopenCamera, .print, .resume:
      false
    }
  }
}
