import Foundation

/// Where work that must not run on the cooperative pool goes: CPU work to one executor of a
/// few low-priority threads, calls that block on the system to a thread of their own.
///
/// The cooperative pool keeps time (the countdown's ticks, the shutter), so it never runs
/// either kind. The CPU executor's threads are made at start; a program lowers their priority
/// below the pool's (``CPUExecutor/setUpThreads(_:)``, which the POSIX layer's
/// `ThreadPriority.lowerCPUWork()` calls with nice 5), so a tick that falls due while a 12 MP
/// photo is encoded gets a core at once; short jobs (scaling a preview) go before long ones.
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
  /// Runs CPU work on the executor and returns its result.
  ///
  /// - Parameter work: The work; it receives a cancellation check.
  /// - Throws: What `work` throws, or `CancellationError` when cancelled before it started.
  public static func run<Value: Sendable>(
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Value
  ) async throws -> Value {
    try await hand(work) { job in CPUExecutor.shared.submit(quick: false, job) }
  }

  /// Runs CPU work on the executor, and returns at once when the calling task is cancelled,
  /// leaving the work to end by itself and dropping its result.
  ///
  /// For work whose one long call cannot stop halfway (a face detector's pass over a whole
  /// frame): a cancelled run ends now rather than when the call does, so nothing it started
  /// delays its end (a cancel, or the shutter dropping an optional step). The work still
  /// gets its cancellation check and should return at the next one; it holds an executor
  /// thread until then.
  ///
  /// - Parameter work: The work; it receives a cancellation check.
  /// - Throws: What `work` throws, or `CancellationError` once cancelled.
  public static func runAbandoningOnCancel<Value: Sendable>(
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Value
  ) async throws -> Value {
    let cancelled = Locked(false)
    let waiting = Locked<CheckedContinuation<Value, any Error>?>(nil)
    let isCancelled: @Sendable () -> Bool = { cancelled.withLock { $0 } }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // NB: cancelled before the continuation was stored: resumed here, never by the job.
        let early = cancelled.withLock { cancelled -> Bool in
          if !cancelled { waiting.withLock { $0 = continuation } }
          return cancelled
        }
        if early { return continuation.resume(throwing: CancellationError()) }
        CPUExecutor.shared.submit(quick: false) {
          let result =
            isCancelled() ? .failure(CancellationError()) : Result { try work(isCancelled) }
          waiting.withLock { waiting -> CheckedContinuation<Value, any Error>? in
            defer { waiting = nil }
            return waiting
          }?.resume(with: result)
        }
      }
    } onCancel: {
      cancelled.withLock { $0 = true }
      waiting.withLock { waiting -> CheckedContinuation<Value, any Error>? in
        defer { waiting = nil }
        return waiting
      }?.resume(throwing: CancellationError())
    }
  }

  /// Runs a short job (a millisecond or two: scaling a preview) on the executor, before any
  /// long one waiting.
  ///
  /// - Parameter work: The job.
  /// - Returns: Its result.
  public static func quick<Value: Sendable>(
    _ work: @escaping @Sendable () -> Value
  ) async
    -> Value
  {
    await withCheckedContinuation { continuation in
      CPUExecutor.shared.submit(quick: true) { continuation.resume(returning: work()) }
    }
  }

  /// Runs a call that blocks on the system (a pipeline's state change that joins its
  /// threads, an `fsync`) on a thread of its own: it would hold up the executor's CPU work.
  ///
  /// - Parameter work: The call; it receives a cancellation check.
  /// - Returns: Its result.
  /// - Throws: What `work` throws, or `CancellationError` when cancelled before it started.
  public static func blocking<Value: Sendable>(
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Value
  ) async throws -> Value {
    try await hand(work) { job in
      let thread = Thread(block: job)
      thread.name = "phototimer.blocking"
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// Hands `work` to `start` (which runs the job it is given elsewhere, once) with the
  /// calling task's cancellation as a check; work cancelled before it starts never runs.
  private static func hand<Value: Sendable>(
    _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Value,
    to start: (@escaping @Sendable () -> Void) -> Void
  ) async throws -> Value {
    let cancelled = Locked(false)
    let isCancelled: @Sendable () -> Bool = { cancelled.withLock { $0 } }
    return try await withTaskCancellationHandler {
      try Task.checkCancellation()
      return try await withCheckedThrowingContinuation { continuation in
        start {
          // NB: cancelled while it waited for a thread: it never starts.
          if isCancelled() { return continuation.resume(throwing: CancellationError()) }
          continuation.resume(with: Result { try work(isCancelled) })
        }
      }
    } onCancel: {
      cancelled.withLock { $0 = true }
    }
  }
}

/// The executor of CPU work: a fixed set of threads taking short jobs before long ones.
///
/// This layer makes no system call: how its threads are set up (a lower priority, through
/// the POSIX layer's syscall funnel) is handed in with ``setUpThreads(_:)``, and each thread
/// runs the set-up itself, before its next job, since on Linux a thread's priority is its own.
package final class CPUExecutor: Sendable {
  /// The process's executor: as many threads as cores (at least two).
  package static let shared = CPUExecutor(
    threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

  private final class Queue: @unchecked Sendable {
    // NB: every field is touched under `condition` only.
    let condition = NSCondition()
    var quick: [@Sendable () -> Void] = []
    var long: [@Sendable () -> Void] = []
    /// The latest set-up, and how many have been given (a thread that has run fewer runs it).
    var setUp: (@Sendable () -> Void)?
    var setUps = 0
  }

  private let queue = Queue()
  /// How many threads run jobs.
  package let threads: Int

  /// Starts `threads` threads, each running `setUp` (if given) before its first job.
  package init(threads: Int, setUp: (@Sendable () -> Void)? = nil) {
    self.threads = threads
    if let setUp { setUpThreads(setUp) }
    for index in 0..<threads {
      let queue = queue
      let thread = Thread { Self.work(queue) }
      thread.name = "phototimer.cpu.\(index)"
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// Has every thread run `setUp` on itself before its next job (a thread that is busy runs
  /// it after the job it has).
  ///
  /// - Parameter setUp: The set-up, such as lowering the calling thread's priority.
  package func setUpThreads(_ setUp: @escaping @Sendable () -> Void) {
    queue.condition.lock()
    queue.setUp = setUp
    queue.setUps += 1
    queue.condition.unlock()
  }

  /// Queues `job`; a quick one runs before every long one waiting.
  package func submit(quick: Bool, _ job: @escaping @Sendable () -> Void) {
    queue.condition.lock()
    if quick { queue.quick.append(job) } else { queue.long.append(job) }
    queue.condition.signal()
    queue.condition.unlock()
  }

  private static func work(_ queue: Queue) {
    var setUpsRun = 0
    while true {
      queue.condition.lock()
      while queue.quick.isEmpty, queue.long.isEmpty { queue.condition.wait() }
      let job = queue.quick.isEmpty ? queue.long.removeFirst() : queue.quick.removeFirst()
      let setUp = setUpsRun == queue.setUps ? nil : queue.setUp
      setUpsRun = queue.setUps
      queue.condition.unlock()
      setUp?()
      job()
    }
  }
}
