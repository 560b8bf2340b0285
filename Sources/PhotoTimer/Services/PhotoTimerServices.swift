/// Everything the engine needs from the outside world: a camera, a location and a filter.
///
/// Build one from closures for real hardware, or use ``simulated(clock:camera:location:filter:capture:)``
/// for the built-in simulation of the seed scenario.
///
/// ```swift
/// let services = PhotoTimerServices(
///   camera: CameraService(prepare: { try await webcam.settle() },
///                         capture: { try await webcam.shoot($0) }),
///   location: Preparation(isRequired: false) { try await gps.tag() },
///   filter: Preparation(isRequired: false) { try await analyser.suggest() })
/// ```
public struct PhotoTimerServices: Sendable {
  /// The camera; always required.
  public var camera: CameraService
  /// The location step; optional unless marked required.
  public var location: Preparation<LocationTag>
  /// The filter step; optional unless marked required.
  public var filter: Preparation<FilterSuggestion>

  /// Creates the services.
  ///
  /// - Parameters:
  ///   - camera: The camera.
  ///   - location: The location step.
  ///   - filter: The filter step.
  public init(
    camera: CameraService, location: Preparation<LocationTag>,
    filter: Preparation<FilterSuggestion>
  ) {
    self.camera = camera
    self.location = location
    self.filter = filter
  }

  /// The steps turned off, with why.
  var skippedSteps: [PreparationStep: String] {
    var steps: [PreparationStep: String] = [:]
    steps[.location] = location.disabledReason
    steps[.filter] = filter.disabledReason
    return steps
  }

  /// The steps the photo cannot be taken without.
  var requiredSteps: Set<PreparationStep> {
    var steps: Set<PreparationStep> = [.camera]
    if location.isRequired, location.isEnabled { steps.insert(.location) }
    if filter.isRequired, filter.isEnabled { steps.insert(.filter) }
    return steps
  }

  /// What becomes of `step` when the shutter fires while it still runs: its value if it is
  /// ready after all, else dropped with its own live status, or a general reason.
  func atShutter(_ step: PreparationStep) -> Result<StepValue, RunStateMachine.StepError> {
    let ready: StepValue? =
      switch step {
      case .camera: nil
      case .location: location.ready().map(StepValue.location)
      case .filter: filter.ready().map(StepValue.filter)
      }
    if let ready { return .success(ready) }
    return .failure(RunStateMachine.StepError(message: dropReason(for: step)))
  }

  /// What `step` is waiting for right now, as its service says, or `nil` when it says
  /// nothing: for the camera, its hand-over's (``CameraHandOver/status``).
  ///
  /// - Parameter step: The step.
  /// - Returns: A short phrase such as `"waiting for a satellite fix"`, or `nil`.
  public func status(of step: PreparationStep) -> String? {
    switch step {
    case .camera: camera.handOver?.status()
    case .location: location.status()
    case .filter: filter.status()
    }
  }

  /// Why `step` is dropped at the shutter: its own live status, else a general reason.
  func dropReason(for step: PreparationStep) -> String {
    (step == .camera ? nil : status(of: step)) ?? step.droppedReason
  }

  /// Each step's work, typed as the value it produces.
  func work(for step: PreparationStep) -> @Sendable () async throws -> StepValue {
    switch step {
    case .camera:
      let prepare = camera.prepare
      return { .camera(try await prepare()) }
    case .location:
      let perform = location.perform
      return { .location(try await perform()) }
    case .filter:
      let perform = filter.perform
      return { .filter(try await perform()) }
    }
  }
}
