/// A value that arrives once, for any number of waiters: the camera step's preview, which
/// the filter step waits for.
package final class OneShot<Value: Sendable>: Sendable {
  private struct State: Sendable {
    var result: Result<Value, any Error>?
    var waiters = Waiters<Value, Void>()
  }

  private let state = Locked(State())

  /// Creates an empty one.
  package init() {}

  /// Delivers the value (or the error) to every waiter, now and later; only the first call
  /// counts.
  package func fulfil(_ result: Result<Value, any Error>) {
    let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
      guard state.result == nil else { return [] }
      state.result = result
      return state.waiters.takeAll()
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  /// The value, once it arrives.
  ///
  /// - Throws: The delivered error, or `CancellationError` when the waiting task is cancelled.
  package func value() async throws -> Value {
    try await state.park(\.waiters, tag: ()) { $0.result }
  }
}
