/// A piece of work the engine runs during the countdown, such as getting a location fix.
///
/// The work runs as a child task off the main actor, concurrently with the countdown and the
/// other preparations. It must honour cancellation: the engine cancels it when the user
/// cancels, when a required step fails, or, for an optional step, when the shutter fires.
/// While it waits it says what for with ``StepStatus/report(_:)``: that text is shown beside
/// the step's spinner, and is why an optional step is left out when the shutter comes first.
///
/// ```swift
/// let location = Preparation<LocationTag>(isRequired: false) {
///   try await gpsd.firstFix().tag
/// }
/// ```
public struct Preparation<Value: Sendable>: Sendable {
  /// Whether the photo cannot be taken without this step's value.
  ///
  /// A required step that fails ends the run in failure, and the shutter waits for it
  /// (bounded) at zero. An optional step that fails or is late is left out of the photo.
  public var isRequired: Bool
  /// The work. It returns the step's value or throws an error whose description says what
  /// failed and what to do.
  public var perform: @Sendable () async throws -> Value
  /// The step's value when it is already known without waiting, or `nil`.
  ///
  /// When the shutter fires while the step is still running, the engine asks this first: a
  /// value that is ready (say, a suggestion computed the instant the camera settled, whose
  /// task has not been scheduled yet) is used rather than dropped.
  public var ready: @Sendable () -> Value?
  /// Why the step is turned off, or `nil` when it runs.
  ///
  /// A turned-off step never starts: its work is not called, and it is reported at once as
  /// ``StepOutcome/skipped(reason:)``.
  public var disabledReason: String?

  /// Creates a preparation.
  ///
  /// - Parameters:
  ///   - isRequired: Whether the photo needs this step's value.
  ///   - ready: The value when it is already known without waiting, asked at the shutter.
  ///   - perform: The work; it must return promptly when its task is cancelled.
  public init(
    isRequired: Bool,
    ready: @escaping @Sendable () -> Value? = { nil },
    perform: @escaping @Sendable () async throws -> Value
  ) {
    self.isRequired = isRequired
    self.ready = ready
    self.perform = perform
    self.disabledReason = nil
  }

  /// A step that is turned off: nothing of it runs, and the photo goes without its value.
  ///
  /// ```swift
  /// services.location = .disabled(reason: "location off (--no-location)")
  /// ```
  ///
  /// - Parameter reason: Why it is off, shown to the user.
  public static func disabled(reason: String) -> Self {
    var preparation = Self(isRequired: false) { throw CancellationError() }
    preparation.disabledReason = reason
    return preparation
  }

  /// Whether the step runs at all.
  public var isEnabled: Bool { disabledReason == nil }
}
