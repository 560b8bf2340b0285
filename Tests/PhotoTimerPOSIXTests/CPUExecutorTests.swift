import Foundation
import PhotoTimerConcurrency
import PhotoTimerPOSIX
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("The CPU executor: a few low-priority threads, short jobs first, no thread per call")
struct CPUExecutorTests {
  @Test("A short job queued behind long ones runs before them", .timeLimit(.minutes(1)))
  func quickFirst() async {
    let executor = CPUExecutor(threads: 1)
    let gate = DispatchSemaphore(value: 0)
    let order = Locked<[String]>([])
    await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
      // The one thread is busy until the gate opens: everything after it waits in the queue.
      executor.submit(quick: false) {
        started.resume()
        gate.wait()
        order.withLock { $0.append("busy") }
      }
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      executor.submit(quick: false) { order.withLock { $0.append("long 1") } }
      executor.submit(quick: false) { order.withLock { $0.append("long 2") } }
      executor.submit(quick: true) { order.withLock { $0.append("quick") } }
      executor.submit(quick: false) { done.resume() }
      gate.signal()
    }
    #expect(order.withLock { $0 } == ["busy", "quick", "long 1", "long 2"])
  }

  /// The calling thread's niceness (getpriority's -1 is a value, not an error, here).
  private static func niceness() -> Int32 {
    #if canImport(Glibc)
      getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    #else
      0
    #endif
  }

  /// The niceness a job on `executor` sees.
  private static func niceness(on executor: CPUExecutor) async -> Int32 {
    await withCheckedContinuation { answer in
      executor.submit(quick: true) { answer.resume(returning: niceness()) }
    }
  }

  @Test(
    "Its threads lower themselves below the cooperative pool, through the funnel",
    .timeLimit(.minutes(1)))
  func lowerPriority() async throws {
    #if os(Linux)
      // NB: relative to the niceness the test runs at (`nice make test` starts above 0).
      let base = Self.niceness()
      let lowered = max(base, ThreadPriority.cpuWork)
      let executor = CPUExecutor(threads: 1)
      #expect(await Self.niceness(on: executor) == base)
      ThreadPriority.lowerCPUWork(executor)
      #expect(await Self.niceness(on: executor) == lowered)
      // NB: a later set-up reaches a thread that already ran one, once.
      executor.setUpThreads { try? ThreadPriority.setCallingThread(nice: lowered + 2) }
      #expect(await Self.niceness(on: executor) == lowered + 2)
      #expect(await Self.niceness(on: executor) == lowered + 2)
      #expect(Self.niceness() == base)
    #endif
  }

  @Test("A planned setpriority failure is the funnel's error and leaves the priority as it was")
  func plannedFailure() throws {
    #if os(Linux)
      let plan = FaultPlan()
      plan.fail("setpriority", with: .permissionDenied)
      let before = Self.niceness()
      FaultPlan.$current.withValue(plan) {
        #expect(throws: SystemCallError(call: "setpriority", errno: .permissionDenied)) {
          try ThreadPriority.setCallingThread(nice: 19)
        }
      }
      #expect(Self.niceness() == before)
    #endif
  }

  @Test("Work cancelled before it starts never runs", .timeLimit(.minutes(1)))
  func cancelledNeverStarts() async throws {
    let ran = Locked(false)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await OffPool.run { _ in ran.withLock { $0 = true } }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!ran.withLock { $0 })
  }

  @Test(
    "Abandoning on cancel: the task returns at once while the work still runs, its result dropped",
    .timeLimit(.minutes(1)))
  func abandonsOnCancel() async throws {
    let started = OneShot<Void>()
    let finished = OneShot<Void>()
    let gate = DispatchSemaphore(value: 0)
    let task = Task {
      try await OffPool.runAbandoningOnCancel { _ -> Int in
        started.fulfil(.success(()))
        gate.wait()
        finished.fulfil(.success(()))
        return 42
      }
    }
    try await started.value()
    task.cancel()
    // NB: the work is still held at the gate: the task ended without waiting for it.
    await #expect(throws: CancellationError.self) { try await task.value }
    gate.signal()
    try await finished.value()
  }
}
