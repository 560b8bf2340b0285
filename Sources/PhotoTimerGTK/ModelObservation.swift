import Observation
import PhotoTimer

extension PhotoTimerViewModel {
  /// Calls `changed` on the main actor after each change of the model's state, note or
  /// session (Observation's tracking, renewed after each change), until it returns `false`.
  func observeChanges(_ changed: @escaping @MainActor () -> Bool) {
    withObservationTracking {
      _ = state
      _ = note
      _ = isSessionRunning
    } onChange: { [weak self] in
      Task { @MainActor [weak self] in
        guard let self, changed() else { return }
        self.observeChanges(changed)
      }
    }
  }
}
