/// A piece of work the engine runs during the countdown, such as getting a location fix.
///
/// The work runs as a child task off the main actor, concurrently with the countdown and the
/// other preparations. It must honour cancellation: the engine cancels it when the user
/// cancels, when a required step fails, or, for an optional step, when the shutter fires.
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

  /// Creates a preparation.
  ///
  /// - Parameters:
  ///   - isRequired: Whether the photo needs this step's value.
  ///   - perform: The work; it must return promptly when its task is cancelled.
  public init(isRequired: Bool, perform: @escaping @Sendable () async throws -> Value) {
    self.isRequired = isRequired
    self.perform = perform
  }
}
