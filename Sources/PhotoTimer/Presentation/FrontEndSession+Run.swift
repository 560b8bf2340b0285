/// The front-end machine during and after a run: the model's changes, a session's end, the
/// watch for the people, and the close.
extension FrontEndSession {
  /// The model changed: a session that was running and no longer is has ended, as
  /// ``runEnded(_:model:)`` says (a photo, a failure, a cancel, read from the model's
  /// status). Both programs tell the machine every change; neither detects the end itself.
  ///
  /// - Parameters:
  ///   - model: The model as it is now.
  ///   - cameraGone: Whether the screen's camera has stopped (a failed run then cannot frame
  ///     the next shot).
  public mutating func modelChanged(
    _ model: PhotoTimerViewModel.Snapshot, cameraGone: Bool
  ) -> [Effect] {
    defer { sessionRunning = model.isSessionRunning }
    guard sessionRunning, !model.isSessionRunning else { return [] }
    return runEnded(RunEnd(after: model.state.status, cameraGone: cameraGone), model: model)
  }

  /// A session ended on its own, or was cancelled: without framing the front end ends with
  /// it; with it, framing goes on (unless the camera is gone) and the count that starts
  /// itself waits for the next group.
  public mutating func runEnded(_ end: RunEnd, model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    var ended: [Effect] = []
    if let progress = booth, let plan = configuration.booth {
      // NB: a booth's shot goes to its review (or is kept at once); the session goes on.
      if end == .captured, phase == .open {
        guard plan.review > 0 else { return keep(model: model) }
        booth?.reviewing = true
        return [.review(shot: progress.shot, seconds: plan.review)]
      }
      booth = nil
      ended = [.boothEnded(kept: progress.kept, complete: false)]
    }
    if phase == .stopping || !configuration.frames {
      phase = .over(asked: endAsked)
      return ended + [.end]
    }
    if case .failed(true) = end, configuration.endsOnCameraFailure {
      phase = .over(asked: false)
      return ended + [.end]
    }
    return ended + watch(afterCount: true, model: model)
  }

  /// Whether what the watch for the people says is heard now: the switch is on, the camera
  /// open and nothing counts. A wait the switch has just ended, or one overtaken by a count,
  /// says nothing (on the screen either).
  public func hears(model: PhotoTimerViewModel.Snapshot) -> Bool {
    autoStart == true && !model.isSessionRunning && phase == .open
  }

  /// What the watch for the people says; everyone ready starts the count through the gate.
  public mutating func heard(
    _ word: ReadyWord, model: PhotoTimerViewModel.Snapshot
  ) -> [Effect] {
    guard hears(model: model) else { return [] }
    switch word {
    case .ready:
      waiting = nil
      switch ask(.start, model: model) {
      case .accepted(let effects): return effects
      // NB: never in silence: the screen says why the group's count did not start (in the
      // wait's words, not as a refused key's note).
      case .refused(let reason):
        waiting = "no count by itself: \(reason)"
        refusal = nil
      }
    case .waiting(let words):
      waiting = words
    case .unavailable(let problem):
      waiting = "no count by itself: \(problem)"
    }
    return []
  }

  /// The window or the program is closing: nothing more starts.
  public mutating func close() {
    phase = .over(asked: true)
    waiting = nil
  }
}
