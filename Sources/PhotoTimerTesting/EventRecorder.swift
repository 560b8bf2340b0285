import PhotoTimer
import PhotoTimerConcurrency

/// Collects a run's events and lets a test wait, without sleeping, until some have arrived.
///
/// ```swift
/// let recorder = EventRecorder()
/// let run = Task { await engine.run(onEvent: recorder.record) }
/// let first = await recorder.waitForEvents(1)   // [started]
/// ```
public final class EventRecorder: Sendable {
  private struct Waiter {
    var id: UInt64
    var isSatisfied: @Sendable ([PhotoTimerEvent]) -> Bool
    var continuation: CheckedContinuation<[PhotoTimerEvent], Never>
  }

  private struct State {
    var events: [PhotoTimerEvent] = []
    var waiters: [Waiter] = []
    var nextID: UInt64 = 0
  }

  // NB: all mutable state lives behind this lock; continuations are resumed outside it.
  private let state = Locked(State())

  /// Creates an empty recorder.
  public init() {}

  /// Records one event and wakes the waiters it satisfies.
  ///
  /// - Parameter event: The event.
  @Sendable
  public func record(_ event: PhotoTimerEvent) {
    let (ready, events) = state.withLock { state in
      state.events.append(event)
      let events = state.events
      let ready = state.waiters.filter { $0.isSatisfied(events) }
      state.waiters.removeAll { $0.isSatisfied(events) }
      return (ready, state.events)
    }
    for waiter in ready { waiter.continuation.resume(returning: events) }
  }

  /// Every event recorded so far, in order.
  public var events: [PhotoTimerEvent] { state.withLock { $0.events } }

  /// The kinds of every event recorded so far, in order.
  public var kinds: [PhotoTimerEvent.Kind] { events.map(\.kind) }

  /// Waits until at least `count` events have been recorded, or until the task is cancelled
  /// (a test's time limit): a run that stops short then fails the test, not the whole run.
  ///
  /// - Parameter count: The number of events to wait for.
  /// - Returns: Every event recorded by then (fewer than `count` only when cancelled).
  @discardableResult
  public func waitForEvents(_ count: Int) async -> [PhotoTimerEvent] {
    await waitUntil { $0.count >= count }
  }

  /// Waits until an event of `kind` has been recorded, or until the task is cancelled.
  ///
  /// - Parameter kind: The event to wait for.
  /// - Returns: Every event recorded by then.
  @discardableResult
  public func waitFor(_ kind: PhotoTimerEvent.Kind) async -> [PhotoTimerEvent] {
    await waitUntil { $0.contains { $0.kind == kind } }
  }

  /// Waits until the events recorded satisfy `condition`, or until the task is cancelled.
  ///
  /// - Parameter condition: Asked with every event so far, after each new one.
  /// - Returns: Every event recorded by then.
  @discardableResult
  public func waitUntil(
    _ condition: @escaping @Sendable ([PhotoTimerEvent]) -> Bool
  ) async -> [PhotoTimerEvent] {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready: [PhotoTimerEvent]? = state.withLock { state in
          // NB: checked under the lock that `onCancel` takes: a cancel either finds this
          // waiter or is seen here.
          if condition(state.events) || Task.isCancelled { return state.events }
          state.waiters.append(Waiter(id: id, isSatisfied: condition, continuation: continuation))
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let (waiter, events) = state.withLock { state -> (Waiter?, [PhotoTimerEvent]) in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
          return (nil, [])
        }
        return (state.waiters.remove(at: index), state.events)
      }
      waiter?.continuation.resume(returning: events)
    }
  }
}
