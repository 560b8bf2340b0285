/// How one simulated step behaves.
public enum SimulatedStep: Hashable, Sendable {
  /// Succeed after the given time.
  case succeed(after: Duration)
  /// Fail after the given time with the given message.
  case fail(after: Duration, message: String)
  /// Never finish; only cancellation ends it.
  case never
}

/// The error a simulated step throws when told to fail.
public struct SimulatedFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// The message given to ``SimulatedStep/fail(after:message:)``.
  public var message: String
  /// The message.
  public var description: String { message }
}

extension PhotoTimerServices {
  /// The seed scenario's camera: 1.4 s.
  public static let seedCameraTime = Duration.milliseconds(1400)
  /// The seed scenario's location fix: 2.8 s.
  public static let seedLocationTime = Duration.milliseconds(2800)
  /// The seed scenario's filter analysis: 4.2 s.
  public static let seedFilterTime = Duration.milliseconds(4200)

  /// The built-in simulation of the seed scenario, sleeping on the given clock.
  ///
  /// By default the camera is ready after 1.4 s with f/2.8, 1/60s, ISO 400; the location is
  /// "Golden Gate Park" after 2.8 s; the filter is "Vivid" after 4.2 s; capture is instant and
  /// writes no file. Any step can be told to fail or never finish, for demos and tests.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let services = PhotoTimerServices.simulated(clock: clock, location: .never)
  /// ```
  ///
  /// - Parameters:
  ///   - clock: The clock the steps sleep on.
  ///   - camera: How the camera step behaves.
  ///   - location: How the location step behaves.
  ///   - filter: How the filter step behaves.
  ///   - capture: How the capture behaves.
  /// - Returns: Services that reproduce the seed's timings on `clock`.
  public static func simulated<C: Clock>(
    clock: C = ContinuousClock(),
    camera: SimulatedStep = .succeed(after: seedCameraTime),
    location: SimulatedStep = .succeed(after: seedLocationTime),
    filter: SimulatedStep = .succeed(after: seedFilterTime),
    capture: SimulatedStep = .succeed(after: .zero)
  ) -> PhotoTimerServices where C.Duration == Duration {
    PhotoTimerServices(
      camera: CameraService(
        prepare: {
          try await camera.perform(on: clock)
          return CameraSettings(aperture: "f/2.8", shutterSpeed: "1/60s", iso: 400)
        },
        capture: { _ in
          try await capture.perform(on: clock)
          return nil
        }
      ),
      location: Preparation(isRequired: false) {
        try await location.perform(on: clock)
        return LocationTag(
          name: "Golden Gate Park", coordinate: Coordinate(latitude: 37.7694, longitude: -122.4862))
      },
      filter: Preparation(isRequired: false) {
        try await filter.perform(on: clock)
        return FilterSuggestion(filter: .vivid, confidence: 1, reason: "simulated")
      },
      people: .disabled(reason: "no picture to look at in the simulation")
    )
  }
}

extension SimulatedStep {
  /// Sleeps on `clock` as the behaviour says, then returns or throws.
  func perform<C: Clock>(on clock: C) async throws where C.Duration == Duration {
    switch self {
    case .succeed(let after):
      if after > .zero { try await clock.sleep(for: after) }
      try Task.checkCancellation()
    case .fail(let after, let message):
      if after > .zero { try await clock.sleep(for: after) }
      try Task.checkCancellation()
      throw SimulatedFailure(message: message)
    case .never:
      // NB: one long sleep, not a loop: cancellation is the only way out.
      try await clock.sleep(for: .seconds(100 * 365 * 86_400))
      throw CancellationError()
    }
  }
}
