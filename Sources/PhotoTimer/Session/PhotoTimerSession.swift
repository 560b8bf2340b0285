import PhotoTimerConcurrency

/// One use of the self-timer from start to finish: a run, the runs a restart starts, and
/// the shots of a time-lapse, on an injected clock.
///
/// ``run(onEvent:)`` takes the photo and returns how it ended; cancelling its task stops
/// everything at once. ``restart()`` cancels the current run and starts it again (before
/// the first photo); ``takeNow()`` ends the current count. A time-lapse's later shots fire
/// exactly on `first + k × interval` (see ``TimeLapse``).
///
/// ```swift
/// let session = PhotoTimerSession(
///   configuration: PhotoTimerConfiguration(countdownSeconds: 3),
///   services: services, clock: ContinuousClock(),
///   timeLapse: TimeLapse(interval: .seconds(10), count: 60))
/// let result = await session.run { event in print(event) }
/// ```
public final class PhotoTimerSession<C: Clock>: Sendable where C.Duration == Duration {
  private struct State {
    /// Ends the current run for a restart.
    var restartSignal: AsyncStream<Void>.Continuation?
    var button: AsyncStream<Void>.Continuation?
    var restartRequested = false
    /// Take-it-now was pressed before the run's count began: it ends the count at once.
    var pressedEarly = false
    /// The first photo was taken: a restart no longer applies (the time-lapse goes on).
    var photoTaken = false
  }

  /// The first run's count, wait limit and order of preparations.
  public let configuration: PhotoTimerConfiguration
  /// The camera, location and filter.
  public let services: PhotoTimerServices
  /// The clock every deadline is measured on.
  public let clock: C
  /// Further shots after the first, if any.
  public let timeLapse: TimeLapse?
  private let state = Locked(State())

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - configuration: The first run's configuration.
  ///   - services: The camera, location and filter.
  ///   - clock: The clock; tests pass a `TestClock`.
  ///   - timeLapse: Further shots on a schedule; `nil` for one photo.
  public init(
    configuration: PhotoTimerConfiguration, services: PhotoTimerServices, clock: C,
    timeLapse: TimeLapse? = nil
  ) {
    self.configuration = configuration
    self.services = services
    self.clock = clock
    self.timeLapse = timeLapse
  }

  /// Cancels the current run and starts it again. Does nothing once a photo was taken, so a
  /// time-lapse's later shots are never cut short by it.
  public func restart() {
    state.withLock { state -> AsyncStream<Void>.Continuation? in
      guard !state.photoTaken else { return nil }
      state.restartRequested = true
      return state.restartSignal
    }?.yield()
  }

  /// Ends the current count: the photo is taken as soon as the camera is ready. Pressed
  /// before the session's run has begun (a moment after ``run(onEvent:)`` is called), it
  /// ends that run's count as soon as it begins; between a time-lapse's shots it does
  /// nothing.
  public func takeNow() {
    state.withLock { state in
      if let button = state.button {
        button.yield()
      } else if !state.photoTaken {
        state.pressedEarly = true
      }
    }
  }

  /// Runs the session.
  ///
  /// - Parameter onEvent: Receives every event, in order; awaited before the session goes on.
  /// - Returns: How the last run ended: captured, failed or cancelled.
  public func run(
    onEvent: @escaping @Sendable (PhotoTimerSessionEvent) async -> Void
  ) async -> PhotoTimerResult {
    let origin = clock.now
    var restarts = 0
    var start = clock.now
    var result: PhotoTimerResult
    while true {
      start = clock.now
      result = await once(configuration, from: start, origin: origin, onEvent: onEvent)
      let again = state.withLock { state -> Bool in
        defer { state.restartRequested = false }
        return state.restartRequested
      }
      guard again, result == .cancelled, !Task.isCancelled else { break }
      restarts += 1
      await onEvent(.restarted(count: restarts))
    }
    guard case .captured(let photo) = result else { return result }
    state.withLock { $0.photoTaken = true }
    guard let timeLapse else { return result }
    return await laterShots(
      timeLapse, first: start.advanced(by: photo.shutterOffset), after: photo, origin: origin,
      onEvent: onEvent)
  }

  /// The time-lapse's shots after the first.
  private func laterShots(
    _ timeLapse: TimeLapse, first: C.Instant, after photo: CapturedPhoto, origin: C.Instant,
    onEvent: @escaping @Sendable (PhotoTimerSessionEvent) async -> Void
  ) async -> PhotoTimerResult {
    var result = PhotoTimerResult.captured(photo)
    var preparation = photo.report(for: .camera)?.elapsed ?? .seconds(1)
    var shot = 0
    let firstOffset = origin.duration(to: first)
    while let next = timeLapse.nextShot(
      after: shot, first: firstOffset, now: origin.duration(to: clock.now))
    {
      if next > shot + 1 { await onEvent(.timeLapseSkipped((shot + 2)...next)) }
      let lead = timeLapse.lead(preparation: preparation)
      let start = first.advanced(by: timeLapse.interval * next - lead)
      do {
        // NB: no tolerance: due at the deadline, never in a window timers may be coalesced into.
        try await clock.sleep(until: start, tolerance: .zero)
      } catch {
        let offset = start.duration(to: clock.now)
        await onEvent(
          .run(
            PhotoTimerEvent(offset: offset, kind: .cancelled), runStart: origin.duration(to: start))
        )
        return .cancelled
      }
      await onEvent(.timeLapseShot(number: next + 1, of: timeLapse.count))
      var later = configuration
      later.countdownSeconds = 1
      later.tickInterval = lead
      later.preparation = .concurrent
      result = await once(later, from: start, origin: origin, onEvent: onEvent)
      guard case .captured(let taken) = result else { return result }
      preparation = taken.report(for: .camera)?.elapsed ?? preparation
      shot = next
    }
    return result
  }

  /// One run of the engine, cancellable by ``restart()`` and by the caller's task.
  ///
  /// The run is a child task: cancelling the caller cancels it at once, so nothing of it
  /// (a sleep on the clock, a step) outlives the cancel by even an instant.
  private func once(
    _ configuration: PhotoTimerConfiguration, from start: C.Instant, origin: C.Instant,
    onEvent: @escaping @Sendable (PhotoTimerSessionEvent) async -> Void
  ) async -> PhotoTimerResult {
    let engine = PhotoTimerEngine(configuration: configuration, services: services, clock: clock)
    let (presses, button) = AsyncStream.makeStream(of: Void.self)
    let (restarts, restartSignal) = AsyncStream.makeStream(of: Void.self)
    let runStart = origin.duration(to: start)
    let restartPending = state.withLock { state -> Bool in
      state.restartSignal = restartSignal
      state.button = button
      if state.pressedEarly { button.yield() }
      state.pressedEarly = false
      return state.restartRequested
    }
    let result = await withTaskGroup(of: PhotoTimerResult?.self) { group in
      group.addTask {
        await engine.run(startingAt: start, shootNow: presses) { event in
          await onEvent(.run(event, runStart: runStart))
        }
      }
      // NB: ends with a restart (the run is cancelled), or when the run has ended.
      group.addTask {
        for await _ in restarts { return nil }
        return nil
      }
      if restartPending { group.cancelAll() }
      var result = PhotoTimerResult.cancelled
      while let next = await group.next() {
        if let next {
          result = next
          restartSignal.finish()
        } else {
          group.cancelAll()
        }
      }
      return result
    }
    button.finish()
    restartSignal.finish()
    state.withLock { state in
      state.restartSignal = nil
      state.button = nil
    }
    return result
  }
}
