import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import Testing

@testable import PhotoTimerImaging

@Suite("The CPU executor: a few low-priority threads, short jobs first, no thread per call")
struct CPUExecutorTests {
  @Test("A short job queued behind long ones runs before them", .timeLimit(.minutes(1)))
  func quickFirst() async {
    let executor = CPUExecutor(threads: 1, nice: 5)
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

  @Test("Its threads run below the cooperative pool's priority", .timeLimit(.minutes(1)))
  func lowerPriority() async throws {
    #if os(Linux)
      let executor = CPUExecutor(threads: 1, nice: 7)
      let nice = await withCheckedContinuation { (answer: CheckedContinuation<Int32, Never>) in
        executor.submit(quick: true) {
          answer.resume(returning: getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
      }
      #expect(nice == 7)
      #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0)
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
