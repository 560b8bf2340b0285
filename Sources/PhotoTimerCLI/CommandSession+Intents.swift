import PhotoTimer
import PhotoTimerRemote
import PhotoTimerSetup

/// What the user asks for, by key, by phone or by standing in the picture: each intent goes
/// through the presentation's one gate (``PhotoTimerPresentation/actions``).
extension CommandSession {
  /// A key: the first of its actions the presentation allows now (space takes it now while
  /// counting, else starts), done as every other front end does it.
  func pressed(_ key: Key) {
    perform(key.action(in: presentation(model.snapshot), framing: keepsFraming))
  }

  /// A phone's intent: allowed by the same presentation as the keys, refused with its reason
  /// otherwise (a second tap on Start while the count runs never starts a second run).
  func asked(_ intent: RemoteIntent) -> RemoteReply {
    RemoteLink.answer(intent, shown: presentation(model.snapshot, for: .phone)) {
      perform($0, choice: $1)
    }
  }

  /// Asks the front-end machine for an action, with what came with it (a phone's count
  /// length, the switch's state; a key flips the switch), and carries out its effects.
  func perform(_ action: PhotoTimerPresentation.Action, choice: IntentChoice = IntentChoice()) {
    progress.session.printing = runners.printing
    let reply = progress.session.ask(
      action, choice: choice, model: model.snapshot)
    apply(reply.effects)
  }
}
