import PhotoTimerConcurrency

/// Runs one self-timer: the countdown and the three preparations concurrently, the shutter at
/// zero, and cancellation of everything at once.
///
/// The engine is a value; each call to ``run(onEvent:)`` is an independent run. Steps run as
/// child tasks of one task group, off the caller's actor; their results flow back to the one
/// loop that decides what happens next (``PhotoTimerEvent``s in order). Cancelling the task
/// that called ``run(onEvent:)`` stops the countdown and every step, and the run returns
/// ``PhotoTimerResult/cancelled`` once all of them have unwound.
///
/// ```swift
/// let engine = PhotoTimerEngine(
///   configuration: PhotoTimerConfiguration(countdownSeconds: 5),
///   services: .simulated(), clock: ContinuousClock())
/// for await event in engine.events() {
///   print(event)
/// }
/// ```
public struct PhotoTimerEngine<C: Clock>: Sendable where C.Duration == Duration {
  /// The count and the bounded wait.
  public var configuration: PhotoTimerConfiguration
  /// The camera, location and filter.
  public var services: PhotoTimerServices
  /// The clock every deadline is measured on.
  public var clock: C

  /// Creates an engine.
  ///
  /// - Parameters:
  ///   - configuration: The count and the bounded wait.
  ///   - services: The camera, location and filter.
  ///   - clock: The clock deadlines are measured on; tests pass a `TestClock`.
  public init(configuration: PhotoTimerConfiguration, services: PhotoTimerServices, clock: C) {
    self.configuration = configuration
    self.services = services
    self.clock = clock
  }

  /// What a child task of the run reports back.
  private enum Signal: Sendable {
    case shootNow
    case timer(RunStateMachine.Timer)
    case step(PreparationStep, Result<StepValue, RunStateMachine.StepError>, elapsed: Duration)
    /// The camera's watch heard that the camera went away.
    case cameraLost(RunStateMachine.StepError)
    /// The camera's hand-over ended: free (`nil`), or why not.
    case handedOver(RunStateMachine.StepError?)
    /// A step reported what it waits for (``StepStatus``).
    case status(StatusInbox.Update)
    /// A sleep that ended by cancellation.
    case interrupted
  }

  /// Runs the timer once, publishing each event to `onEvent` as it happens.
  ///
  /// `onEvent` is awaited before the run goes on, so a consumer sees events in order and
  /// never falls behind. It is called from the engine's task, not from any particular actor.
  ///
  /// - Parameter onEvent: Receives every event of the run, the last one being `captured`,
  ///   `failed` or `cancelled`.
  /// - Returns: How the run ended.
  @concurrent
  public func run(
    onEvent: @escaping @Sendable (PhotoTimerEvent) async -> Void
  ) async -> PhotoTimerResult {
    await run(shootNow: nil, onEvent: onEvent)
  }

  /// Runs the countdown like ``run(onEvent:)``; each element of `shootNow` ends the count at
  /// once ("take it now"): the photo is taken as soon as the camera is ready.
  ///
  /// - Parameters:
  ///   - shootNow: Presses of a "take it now" button; `nil` for none.
  ///   - onEvent: Called with each event, in order.
  /// - Returns: How the run ended.
  @concurrent
  public func run(
    shootNow: AsyncStream<Void>?, onEvent: @escaping @Sendable (PhotoTimerEvent) async -> Void
  ) async -> PhotoTimerResult {
    await run(startingAt: clock.now, shootNow: shootNow, onEvent: onEvent)
  }

  /// Runs the countdown with its deadlines measured from `start` rather than from the
  /// moment the call begins, so a schedule of runs (a time-lapse) keeps its shutters on
  /// their instants however late each run gets going. A `start` in the past is allowed:
  /// deadlines already passed are handled at once.
  ///
  /// - Parameters:
  ///   - start: The instant offsets and deadlines count from.
  ///   - shootNow: Presses of a "take it now" button; `nil` for none.
  ///   - onEvent: Called with each event, in order.
  /// - Returns: How the run ended.
  @concurrent
  public func run(
    startingAt start: C.Instant, shootNow: AsyncStream<Void>?,
    onEvent: @escaping @Sendable (PhotoTimerEvent) async -> Void
  ) async -> PhotoTimerResult {
    let clock = clock
    let services = services
    var machine = RunStateMachine(
      configuration: configuration, required: services.requiredSteps,
      skipped: services.skippedSteps, handOverLead: services.camera.handOver?.lead())
    let inbox = StatusInbox()
    defer { inbox.close() }

    let result = await withTaskGroup(of: Signal.self, returning: PhotoTimerResult.self) { group in
      /// The steps' reports, one at a time: the next is awaited once this one is handled.
      func listen() {
        group.addTask {
          for await update in inbox.updates { return .status(update) }
          return .interrupted
        }
      }
      listen()
      if let shootNow {
        group.addTask {
          for await _ in shootNow { return .shootNow }
          return .interrupted
        }
      }
      var pending = machine.start()
      while true {
        while !pending.isEmpty {
          if Task.isCancelled, !machine.isFinished {
            return Self.stop(&group)
          }
          switch pending.removeFirst() {
          case .publish(let event):
            await onEvent(event)
          case .startStep(let step):
            let work = services.work(for: step)
            let listener = inbox.listener(for: step)
            group.addTask {
              let result: Result<StepValue, RunStateMachine.StepError>
              do {
                result = .success(
                  try await StepStatus.$listener.withValue(listener) { try await work() })
              } catch {
                result = .failure(RunStateMachine.StepError(message: Self.message(for: error)))
              }
              return .step(step, result, elapsed: start.duration(to: clock.now))
            }
          case .schedule(let timer, let offset):
            let deadline = start.advanced(by: offset)
            group.addTask {
              do {
                // NB: no tolerance: due at the deadline, never in a window timers may be coalesced into.
                try await clock.sleep(until: deadline, tolerance: .zero)
                return .timer(timer)
              } catch {
                return .interrupted
              }
            }
          case .startHandOver:
            guard let handOver = services.camera.handOver else {
              preconditionFailure("Internal inconsistency: a hand-over for a camera without one")
            }
            let listener = inbox.listener(for: .camera)
            group.addTask {
              do {
                try await StepStatus.$listener.withValue(listener) { try await handOver.perform() }
                return .handedOver(nil)
              } catch is CancellationError {
                return .interrupted
              } catch {
                return .handedOver(RunStateMachine.StepError(message: Self.message(for: error)))
              }
            }
          case .askReady(let steps):
            var answers: [PreparationStep: Result<StepValue, RunStateMachine.StepError>] = [:]
            for step in steps {
              answers[step] = services.atShutter(step, status: inbox.latest(step))
            }
            pending += machine.handle(.readyAtShutter(answers), at: start.duration(to: clock.now))
          case .capture(let request):
            // Optional steps still running are dropped: the user never waits for them.
            group.cancelAll()
            let result: Result<RunStateMachine.CapturedFile, RunStateMachine.StepError>
            do {
              let shot = try await services.camera.shoot(request)
              result = .success(
                .init(
                  url: shot.file, settings: shot.settings, settingsNote: shot.settingsNote,
                  people: shot.people))
            } catch {
              result = .failure(.init(message: Self.message(for: error)))
            }
            // NB: a capture that finished is reported even if a cancel arrived meanwhile: the
            // photo exists. Only a capture that stopped because of the cancel is cancelled.
            if case .failure = result, Task.isCancelled {
              return Self.stop(&group)
            }
            pending += machine.handle(.captureEnded(result), at: start.duration(to: clock.now))
          case .finish(let result):
            group.cancelAll()
            return result
          }
        }
        guard let signal = await group.next() else {
          preconditionFailure("Internal inconsistency: the run is waiting with nothing pending")
        }
        if Task.isCancelled { return Self.stop(&group) }
        let now = start.duration(to: clock.now)
        switch signal {
        case .shootNow: pending = machine.handle(.shootNow, at: now)
        case .timer(let timer): pending = machine.handle(.timerFired(timer), at: now)
        case .step(let step, let result, let elapsed):
          pending = machine.handle(.stepEnded(step, result, elapsed: elapsed), at: now)
          // NB: a ready camera is watched from now on, so one that goes away mid-count ends
          // the run at once rather than at zero. The shutter's cancelAll ends the watch.
          if step == .camera, case .success = result, !machine.isFinished,
            let watch = services.camera.watch
          {
            group.addTask {
              do {
                try await watch()
                return .interrupted
              } catch is CancellationError {
                return .interrupted
              } catch {
                return .cameraLost(RunStateMachine.StepError(message: Self.message(for: error)))
              }
            }
          }
        case .cameraLost(let error): pending = machine.handle(.cameraLost(error), at: now)
        case .handedOver(let error): pending = machine.handle(.handedOver(error), at: now)
        case .status(let update):
          pending = machine.handle(.statusChanged(update.step, update.text), at: now)
          listen()
        case .interrupted: pending = []
        }
      }
    }
    // NB: `withTaskGroup` returns only once every child has unwound (one wait for all of
    // them, not a resumption per child), so a consumer that sees `cancelled` knows nothing of
    // this run is still running; the camera is released before it is published.
    await services.camera.release()
    if result == .cancelled {
      await onEvent(PhotoTimerEvent(offset: start.duration(to: clock.now), kind: .cancelled))
    }
    return result
  }

  /// Publishes the run as an asynchronous sequence of events.
  ///
  /// The run starts at once, in a task the sequence owns, and is cancelled when the
  /// consumer stops iterating (its task is cancelled or the sequence is dropped). Events are
  /// buffered, so none is lost while the consumer is busy. The last element is `captured`,
  /// `failed` or `cancelled`.
  ///
  /// ```swift
  /// for await event in engine.events() where event.kind == .shutter {
  ///   beep()
  /// }
  /// ```
  ///
  /// - Returns: The run's events, in order.
  public func events() -> AsyncStream<PhotoTimerEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: PhotoTimerEvent.self)
    let task = Task {
      _ = await run { continuation.yield($0) }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// Cancels every child; the group's own end-of-scope wait then unwinds them all.
  private static func stop(_ group: inout TaskGroup<Signal>) -> PhotoTimerResult {
    group.cancelAll()
    return .cancelled
  }

  private static func message(for error: any Error) -> String {
    if error is CancellationError { return "cancelled" }
    return String(describing: error)
  }
}

/// Where a run's steps report their status (``StepStatus``): the newest text of each, and
/// the changes in order for the engine's loop.
final class StatusInbox: Sendable {
  struct Update: Sendable {
    var step: PreparationStep
    var text: String?
  }

  let updates: AsyncStream<Update>
  private let continuation: AsyncStream<Update>.Continuation
  private let newest = Locked<[PreparationStep: String]>([:])

  init() {
    (updates, continuation) = AsyncStream.makeStream(of: Update.self)
  }

  /// The listener for `step`'s work: a change is kept and queued, a repeat is not.
  func listener(for step: PreparationStep) -> StepStatus.Listener {
    StepStatus.Listener { [self] text in
      let changed = newest.withLock { newest in
        guard newest[step] != text else { return false }
        newest[step] = text
        return true
      }
      if changed { continuation.yield(Update(step: step, text: text)) }
    }
  }

  /// What `step` last said it waits for, if anything.
  func latest(_ step: PreparationStep) -> String? {
    newest.withLock { $0[step] }
  }

  /// Ends the run's listening: later reports go nowhere.
  func close() {
    continuation.finish()
  }
}
