import PhotoTimer
import PhotoTimerRemote
import PhotoTimerSetup
import PhotoTimerTerminal

/// What the user asks for, by key, by phone or by standing in the picture: each intent goes
/// through the presentation's one gate (``PhotoTimerPresentation/actions``).
extension CommandSession {
  /// A key: the first of its actions the presentation allows now (space takes it now while
  /// counting, else starts), done as every other front end does it.
  func pressed(_ key: Key) {
    let shown = presentation(model.snapshot)
    if let action = shown.first(of: key.actions(framing: keepsFraming)) {
      perform(action)
    }
  }

  /// A phone's intent: allowed by the same presentation as the keys, refused with its reason
  /// otherwise (a second tap on Start while the count runs never starts a second run).
  func asked(_ intent: RemoteIntent) -> RemoteReply {
    RemoteLink.answer(intent, shown: presentation(model.snapshot, for: .phone)) {
      perform($0, choice: $1)
    }
  }

  /// Does an action the presentation allows now, with what came with it (a phone's count
  /// length, the switch's state; a key flips the switch).
  func perform(_ action: PhotoTimerPresentation.Action, choice: IntentChoice = IntentChoice()) {
    switch action {
    case .start:
      if let seconds = choice.seconds { model.countdownSeconds = seconds }
      startSession()
    case .takeNow:
      // NB: allowed before the count only while the camera opens: it begins at once then.
      if model.isSessionRunning {
        model.takeNow()
      } else if progress.phase.isCameraOpening {
        progress.phase = .cameraOpening(takeNowAtStart: true)
      }
    case .cancel: model.cancel()
    case .restart: model.restart()
    case .quit: stop()
    case .autoStart:
      autoStart(progress.autoStart.set(choice.on ?? !(progress.autoStart.isOn ?? false)))
    }
  }

  /// Ends everything: the count, and (with `--frame`) the framing.
  func stop() {
    if model.isSessionRunning {
      // The cancel's update ends the loop, once the display has shown it.
      progress.phase = .stopping
      model.cancel()
    } else {
      progress.phase = .done(asked: true)
    }
  }
}
