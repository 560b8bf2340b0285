/// Everything the engine needs from the outside world: a camera, a location, a filter and the
/// people in the picture.
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
  /// The people step; optional unless marked required. Off unless given: it needs a face
  /// finder and a camera stream to look at.
  public var people: Preparation<PeopleSummary>

  /// Creates the services.
  ///
  /// - Parameters:
  ///   - camera: The camera.
  ///   - location: The location step.
  ///   - filter: The filter step.
  ///   - people: The people step (default: off).
  public init(
    camera: CameraService, location: Preparation<LocationTag>,
    filter: Preparation<FilterSuggestion>,
    people: Preparation<PeopleSummary> = .disabled(reason: "no face finder")
  ) {
    self.camera = camera
    self.location = location
    self.filter = filter
    self.people = people
  }

  /// The steps turned off, with why.
  var skippedSteps: [PreparationStep: String] {
    var steps: [PreparationStep: String] = [:]
    steps[.location] = location.disabledReason
    steps[.filter] = filter.disabledReason
    steps[.people] = people.disabledReason
    return steps
  }

  /// The steps the photo cannot be taken without.
  var requiredSteps: Set<PreparationStep> {
    var steps: Set<PreparationStep> = [.camera]
    if location.isRequired, location.isEnabled { steps.insert(.location) }
    if filter.isRequired, filter.isEnabled { steps.insert(.filter) }
    if people.isRequired, people.isEnabled { steps.insert(.people) }
    return steps
  }

  /// What becomes of `step` when the shutter fires while it still runs: its value if it is
  /// ready after all, else dropped with the status it last reported, or a general reason.
  func atShutter(
    _ step: PreparationStep, status: String?
  ) -> Result<StepValue, RunStateMachine.StepError> {
    let ready: StepValue? =
      switch step {
      case .camera: nil
      case .location: location.ready().map(StepValue.location)
      case .filter: filter.ready().map(StepValue.filter)
      case .people: people.ready().map(StepValue.people)
      }
    if let ready { return .success(ready) }
    let reason = (step == .camera ? nil : status) ?? step.droppedReason
    return .failure(RunStateMachine.StepError(message: reason))
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
    case .people:
      let perform = people.perform
      return { .people(try await perform()) }
    }
  }
}
