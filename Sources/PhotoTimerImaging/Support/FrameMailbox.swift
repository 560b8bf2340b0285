import PhotoTimer
import PhotoTimerConcurrency

/// Where a camera's stream hands over its frames: the newest one, the last few, and the
/// tasks waiting for a newer one. The one mechanism behind every stream (ffmpeg's ring, a
/// DSLR's live view, ``LiveCamera``, GStreamer's samples, compressed or not): a waiter asks
/// for the first frame after the one it saw and gets the newest there is, at once when the
/// stream has moved on; nothing queues.
package typealias FrameMailbox = Mailbox<Frame>

/// A stream's newest items, the last few, and the tasks waiting for a newer one (see
/// ``FrameMailbox``).
package final class Mailbox<Item: Sendable>: Sendable {
  /// An item and its number in the stream (the first is 1).
  package typealias Delivery = (sequence: Int, frame: Item)

  private struct State: Sendable {
    var recent: [Item] = []
    var capacity: Int
    var count = 0
    var failure: (any Error)?
    var closed = false
    /// Each waiter's tag: the number of the last frame it saw.
    var waiters = Waiters<Delivery?, Int>()
  }

  private let state: Locked<State>

  /// Creates an empty mailbox that keeps the last `capacity` frames.
  package init(capacity: Int) {
    state = Locked(State(capacity: max(capacity, 1)))
  }

  /// Keeps the last `capacity` frames from now on; returns the ones let go.
  @discardableResult
  package func keep(_ capacity: Int) -> [Item] {
    state.withLock { state in
      state.capacity = max(capacity, 1)
      return Self.trim(&state)
    }
  }

  private static func trim(_ state: inout State) -> [Item] {
    guard state.recent.count > state.capacity else { return [] }
    let dropped = Array(state.recent.prefix(state.recent.count - state.capacity))
    state.recent.removeFirst(dropped.count)
    return dropped
  }

  /// How many frames were delivered.
  package var count: Int { state.withLock { $0.count } }

  /// The newest frame, if any.
  package var latest: Item? { state.withLock { $0.recent.last } }

  /// The frames kept, oldest first, how many were delivered, and why the stream failed.
  package var snapshot: (recent: [Item], count: Int, failure: (any Error)?) {
    state.withLock { ($0.recent, $0.count, $0.failure) }
  }

  /// Whether the stream failed.
  package var failure: (any Error)? { state.withLock { $0.failure } }

  /// Hands over the next frame of the stream; wakes every waiter. Returns the frames the
  /// ring let go to make room (the oldest), so that a caller can keep account of them.
  @discardableResult
  package func deliver(_ frame: Item) -> [Item] {
    let (due, dropped) = state.withLock {
      state -> ([(Delivery, CheckedContinuation<Delivery?, any Error>)], [Item]) in
      state.recent.append(frame)
      let dropped = Self.trim(&state)
      state.count += 1
      let count = state.count
      let ready = state.waiters.take { $0 < count }
      return (ready.map { ((count, frame), $0.continuation) }, dropped)
    }
    for (delivery, waiter) in due { waiter.resume(returning: delivery) }
    return dropped
  }

  /// The stream failed: every waiter, now and later, gets `error` (the first one given).
  package func fail(_ error: any Error) {
    let waiters = state.withLock { state -> [CheckedContinuation<Delivery?, any Error>] in
      if state.failure == nil { state.failure = error }
      return state.waiters.takeAll()
    }
    for waiter in waiters { waiter.resume(throwing: error) }
  }

  /// The stream ended: every waiter, now and later, gets `nil`.
  package func close() {
    let waiters = state.withLock { state -> [CheckedContinuation<Delivery?, any Error>] in
      state.closed = true
      return state.waiters.takeAll()
    }
    for waiter in waiters { waiter.resume(returning: nil) }
  }

  /// The newest frame after frame number `after`: at once when there is one, else the next
  /// to arrive; `nil` once closed.
  ///
  /// - Throws: Why the stream failed, or `CancellationError` when the task is cancelled.
  package func next(after: Int) async throws -> Delivery? {
    try await state.park(\.waiters, tag: after) { state in
      if let failure = state.failure { return .failure(failure) }
      if state.closed { return .success(nil) }
      if state.count > after, let latest = state.recent.last {
        return .success((state.count, latest))
      }
      return nil
    }
  }
}
