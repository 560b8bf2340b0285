import PhotoTimer

/// Collects a run's events and lets a test wait, without sleeping, until some have arrived.
///
/// ```swift
/// let recorder = EventRecorder()
/// let run = Task { await engine.run(onEvent: recorder.record) }
/// let first = await recorder.waitForEvents(1)   // [started]
/// ```
public final class EventRecorder: Sendable {
  private struct Waiter {
    var count: Int
    var continuation: CheckedContinuation<[PhotoTimerEvent], Never>
  }

  private struct State {
    var events: [PhotoTimerEvent] = []
    var waiters: [Waiter] = []
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
      let ready = state.waiters.filter { $0.count <= state.events.count }
      state.waiters.removeAll { $0.count <= state.events.count }
      return (ready, state.events)
    }
    for waiter in ready { waiter.continuation.resume(returning: events) }
  }

  /// Every event recorded so far, in order.
  public var events: [PhotoTimerEvent] { state.withLock { $0.events } }

  /// The kinds of every event recorded so far, in order.
  public var kinds: [PhotoTimerEvent.Kind] { events.map(\.kind) }

  /// Waits until at least `count` events have been recorded.
  ///
  /// - Parameter count: The number of events to wait for.
  /// - Returns: Every event recorded by then.
  @discardableResult
  public func waitForEvents(_ count: Int) async -> [PhotoTimerEvent] {
    await withCheckedContinuation { continuation in
      let ready: [PhotoTimerEvent]? = state.withLock { state in
        if state.events.count >= count { return state.events }
        state.waiters.append(Waiter(count: count, continuation: continuation))
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
