import PhotoTimer

/// A value that arrives once, for any number of waiters: the camera step's preview, which
/// the filter step waits for.
package final class OneShot<Value: Sendable>: Sendable {
  private struct State {
    var result: Result<Value, any Error>?
    var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
    var nextID = 0
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
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  /// The value, once it arrives.
  ///
  /// - Throws: The delivered error, or `CancellationError` when the waiting task is cancelled.
  package func value() async throws -> Value {
    let id = state.withLock { state -> Int in
      defer { state.nextID += 1 }
      return state.nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready = state.withLock { state -> Result<Value, any Error>? in
          if let result = state.result { return result }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiters[id] = continuation
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
