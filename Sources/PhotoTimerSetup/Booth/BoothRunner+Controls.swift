import PhotoTimerImaging

/// Every shot alike: the camera's automatic controls held from a session's first shot and
/// given back at its end, one step after another.
extension BoothRunner {
  /// How a booth reaches its camera's controls.
  package enum ControlReach {
    /// Through these.
    case controls(any CameraControls)
    /// Not at all: why, in words.
    case unreachable(String)
    /// No need: the program exposes the picture (the scene camera), or it never changes (a
    /// still image).
    case notNeeded

    /// How the booth reaches the controls of the camera `stage` holds.
    @MainActor
    package init(_ stage: ScreenStage) {
      let kind = stage.identity?.kind ?? ""
      if let controls = stage.camera?.controls {
        self = .controls(controls)
      } else if ["scene", "file", "simulation", ""].contains(kind) {
        self = .notNeeded
      } else {
        self = .unreachable(
          "the exposure of the \(kind) camera cannot be held from here: each shot exposes"
            + " by itself")
      }
    }
  }

  /// Holds the camera's controls for the session, once.
  func hold(_ reach: ControlReach) {
    guard heldSession != session else { return }
    heldSession = session
    let session = session
    let controls: any CameraControls
    switch reach {
    case .notNeeded: return
    case .unreachable(let reason): return unavailable(reason)
    case .controls(let reached): controls = reached
    }
    afterControls { runner in
      guard await !controls.available().isEmpty else {
        return runner.unavailable(
          "the camera has no exposure, gain, white balance or focus controls: each shot"
            + " exposes by itself")
      }
      do {
        let held = try await controls.hold()
        runner.heldControls = controls
        runner.report([.held(session: session, controls: held)])
      } catch {
        runner.report([
          .controlsFailed(session: session, reason: "the camera's controls were not held: \(error)")
        ])
      }
    }
  }

  /// Gives the controls held back.
  func release() {
    guard let session = heldSession else { return }
    heldSession = nil
    afterControls { runner in
      guard let controls = runner.heldControls else { return }
      runner.heldControls = nil
      do {
        try await controls.release()
        runner.report([.released(session: session)])
      } catch {
        runner.report([
          .controlsFailed(
            session: session, reason: "the camera's controls were not given back: \(error)")
        ])
      }
    }
  }

  func unavailable(_ reason: String) {
    guard !saidUnavailable else { return }
    saidUnavailable = true
    report([.controlsUnavailable(session: session, reason: reason)])
  }

  /// Runs `work` after the controls' work before it.
  func afterControls(_ work: @escaping @MainActor (BoothRunner) async -> Void) {
    let previous = controlWork
    controlWork = Task { [self] in
      await previous?.value
      await work(self)
    }
  }
}
