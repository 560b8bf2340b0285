/// A booth's steps in the front-end machine: each shot reviewed, then kept or taken again,
/// and the collage once the session has its shots.
extension FrontEndSession {
  /// The booth's shot under review is taken again: it is discarded and the next count starts.
  mutating func retake() -> [Effect] {
    guard var progress = booth, let plan = configuration.booth else { return [] }
    progress.retakesLeft -= 1
    progress.reviewing = false
    booth = progress
    return [.discardShot(progress.shot), .startCount(seconds: plan.between)]
  }

  /// Whether a booth shot's run has ended and the machine has not heard it yet.
  func settling(_ model: PhotoTimerViewModel.Snapshot) -> Bool {
    booth != nil && sessionRunning && !model.isSessionRunning
  }

  /// The review of the booth's shot `shot` has lasted its time: the shot is kept, as if Keep
  /// were pressed; nothing when it was already kept, taken again or the session ended (a
  /// timer that fires late is never refused on the screen).
  public mutating func reviewEnded(shot: Int, model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard let progress = booth, progress.reviewing, progress.shot == shot else { return [] }
    refusal = nil
    return keep(model: model)
  }

  /// The booth's shot under review is kept: the next shot's count, or the collage and the
  /// session's end.
  mutating func keep(model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard var progress = booth, let plan = configuration.booth else { return [] }
    progress.kept += 1
    progress.reviewing = false
    let kept: [Effect] = [.keepShot(progress.shot)]
    guard progress.kept >= progress.shots else {
      progress.shot += 1
      progress.retakesLeft = plan.retakes
      booth = progress
      return kept + [.startCount(seconds: plan.between)]
    }
    booth = nil
    return kept + [
      .composeCollage(shots: progress.kept), .boothEnded(kept: progress.kept, complete: true),
    ] + afterSession(model)
  }

  /// After a session without a run to hear it end (a booth's collage, a review cancelled):
  /// the front end ends without framing, else the count that starts itself waits for the
  /// next group.
  mutating func afterSession(_ model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard configuration.frames else {
      phase = .over(asked: endAsked)
      return [.end]
    }
    return watch(afterCount: true, model: model)
  }
}
