import Foundation
import PhotoTimer

/// Runs CPU-heavy work on a thread of its own, never on the cooperative pool, so the tasks
/// that keep time (the countdown's ticks) always find a free pool thread.
///
/// The work gets a function that says whether the calling task was cancelled; it should
/// check it between chunks and throw `CancellationError`.
///
/// ```swift
/// let sum = try await OffPool.run { isCancelled in
///   try heavyLoop(checking: isCancelled)
/// }
/// ```
package enum OffPool {
  /// Runs `work` on a new thread and returns its result.
  ///
  /// - Parameter work: The work; it receives a cancellation check.
  /// - Throws: What `work` throws, or `CancellationError` when cancelled before it started.
  public static func run<Value: Sendable>(
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Value
  ) async throws -> Value {
    let cancelled = Locked(false)
    let isCancelled: @Sendable () -> Bool = { cancelled.withLock { $0 } }
    return try await withTaskCancellationHandler {
      try Task.checkCancellation()
      return try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
          continuation.resume(with: Result { try work(isCancelled) })
        }
        thread.name = "phototimer.offpool"
        thread.stackSize = 1 << 20
        thread.start()
      }
    } onCancel: {
      cancelled.withLock { $0 = true }
    }
  }

  /// One queue for short jobs (scaling a preview): dispatch's own worker threads, never the
  /// cooperative pool's.
  private static let quickQueue = DispatchQueue(
    label: "phototimer.frames", qos: .userInitiated, attributes: .concurrent)

  /// Runs a short job (a millisecond or two: scaling a preview) off the cooperative pool,
  /// without starting a thread for it.
  ///
  /// - Parameter work: The job.
  /// - Returns: Its result.
  public static func quick<Value: Sendable>(
    _ work: @escaping @Sendable () -> Value
  ) async
    -> Value
  {
    await withCheckedContinuation { continuation in
      quickQueue.async { continuation.resume(returning: work()) }
    }
  }
}
