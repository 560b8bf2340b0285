import PhotoTimerConcurrency

/// System calls told to fail, for tests: the seam of ``SystemCall``.
///
/// A plan is bound to a task with `FaultPlan.$current.withValue(plan) { … }`; the threads
/// this package starts inherit the plan of the task that started them. Each planned failure
/// is used once, in order, by the next call of that name. The plan also keeps a ledger of the
/// descriptors opened under it and not closed yet (``openDescriptors``), so a test can check
/// that it leaked nothing even while other tests open and close descriptors in parallel.
///
/// ```swift
/// let plan = FaultPlan()
/// plan.fail("pipe", with: .tooManyOpenFiles)
/// try await FaultPlan.$current.withValue(plan) {
///   #expect(throws: SystemCallError(call: "pipe", errno: .tooManyOpenFiles)) {
///     try ChildProcess(command: ["true"])
///   }
/// }
/// ```
package final class FaultPlan: Sendable {
  /// The plan in force for the current task or thread, if any.
  @TaskLocal package static var current: FaultPlan?

  private let planned = Locked<[String: [Errno]]>([:])
  private let used = Locked<[String]>([])
  private let ledger = Locked<Set<Int32>>([])
  private let childLedger = Locked<[Int32: ChildProcess.Exit?]>([:])

  /// Creates an empty plan.
  package init() {}

  /// Makes the next `times` calls of `call` fail with `errno`.
  ///
  /// - Parameters:
  ///   - call: The call's name, as the funnel is given it (`"pipe"`, `"poll"`, `"read"`…).
  ///   - errno: The error number.
  ///   - times: How many calls fail (default one).
  package func fail(_ call: String, with errno: Errno, times: Int = 1) {
    planned.withLock { $0[call, default: []] += Array(repeating: errno, count: times) }
  }

  /// The calls that failed as planned, in order.
  package var injected: [String] { used.withLock { $0 } }

  /// Failures planned and not used yet.
  package var remaining: Int { planned.withLock { $0.values.map(\.count).reduce(0, +) } }

  /// The descriptors opened under this plan (by any thread it was passed to) and still open.
  package var openDescriptors: Set<Int32> { ledger.withLock { $0 } }

  /// The children spawned under this plan, each with how it ended once it was reaped
  /// (`nil` while it has not been: a zombie or still running).
  package var children: [Int32: ChildProcess.Exit?] { childLedger.withLock { $0 } }

  func spawned(_ pid: Int32) { childLedger.withLock { $0[pid] = .some(nil) } }

  func reaped(_ pid: Int32, _ exit: ChildProcess.Exit?) {
    childLedger.withLock { $0[pid] = .some(exit ?? .status(-1)) }
  }

  func opened(_ descriptor: Int32) { ledger.withLock { _ = $0.insert(descriptor) } }

  func closed(_ descriptor: Int32) { ledger.withLock { _ = $0.remove(descriptor) } }

  /// The next planned failure of `call`, used up.
  func take(_ call: String) -> Errno? {
    let errno = planned.withLock { plan -> Errno? in
      guard var queue = plan[call], !queue.isEmpty else { return nil }
      let first = queue.removeFirst()
      plan[call] = queue.isEmpty ? nil : queue
      return first
    }
    if errno != nil { used.withLock { $0.append(call) } }
    return errno
  }
}
