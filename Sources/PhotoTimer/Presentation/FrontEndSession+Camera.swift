/// The screen's camera as the front-end machine hears of it: built, opening, open, failed, and
/// opened again by itself (``FrontEndSession/Configuration/reopensCamera``).
extension FrontEndSession {
  /// A new camera and model are being built (the window's camera menu): nothing starts
  /// until it has opened.
  public mutating func cameraBuilding() -> [Effect] {
    guard !isOver else { return [] }
    phase = .building
    // NB: opening again by itself, the problem stays on screen until the camera opens.
    if !reopening { problem = nil }
    waiting = nil
    sessionRunning = false
    return []
  }

  /// The camera was built and is opening.
  public mutating func cameraBuilt() -> [Effect] {
    guard !isOver else { return [] }
    phase = .opening(takeNowAtStart: false)
    return []
  }

  /// A new camera was built and is opening, with the switch for a count that starts by itself
  /// where it can watch for the people (`switchAvailable`); the switch keeps its position
  /// from the camera before, else it starts at `on` (`--start-when-ready`).
  public mutating func cameraBuilt(switchAvailable: Bool, on: Bool) -> [Effect] {
    guard !isOver else { return [] }
    let position = autoStart ?? remembered ?? on
    remembered = position
    autoStart = switchAvailable ? position : nil
    refusal = nil
    return cameraBuilt()
  }

  /// The screen's camera is open: framing begins, or (without framing) the count.
  public mutating func cameraOpened(model: PhotoTimerViewModel.Snapshot) -> [Effect] {
    guard case .opening(let takeNow) = phase else { return [] }
    phase = .open
    if reopening {
      reopening = false
      problem = nil
    }
    guard configuration.frames else {
      return startEffects(seconds: nil) + (takeNow ? [.takeNow] : [])
    }
    return watch(afterCount: false, model: model)
  }

  /// The camera could not be built or opened, or stopped (why): the front end ends, or
  /// shows why nothing can start.
  public mutating func cameraFailed(_ problem: String) -> [Effect] {
    guard !isOver else { return [] }
    if configuration.endsOnCameraFailure {
      phase = .over(asked: endAsked)
      return [.end]
    }
    if case .opening = phase { phase = .open }
    if phase == .building { phase = .open }
    guard let delay = configuration.reopensCamera else {
      self.problem = problem
      return []
    }
    reopening = true
    self.problem = "\(problem) · trying again every \(Int(delay / .seconds(1))) s"
    return [.reopenCamera(after: delay)]
  }
}
