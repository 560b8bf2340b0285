import CPhotoTimerPOSIX
import Foundation
import PhotoTimerConcurrency
import Testing

@testable import PhotoTimerPOSIX

@Suite("Code called on a small stack runs on a large one")
struct LargeStackTests {
  /// The size of the calling thread's stack.
  private static func stackSize() -> Int { phototimer_stack_size() }

  /// Uses about `depth` KiB of stack, and returns `depth` (so it is not optimised away).
  @inline(never)
  private static func recurse(_ depth: Int) -> Int {
    var page = [UInt8](repeating: 0, count: 0)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
      buffer.initialize(repeating: UInt8(truncatingIfNeeded: depth))
      page.append(buffer[depth % 1024])
    }
    return depth == 0 ? Int(page[0]) : recurse(depth - 1) + 1
  }

  /// What the body saw, written on the threads and read after the join.
  private final class Seen: @unchecked Sendable {  // NB: written before the joins it is read after
    var outer = 0
    var inner = 0
    var depth = 0
    var runs = 0
  }

  @Test("A thread with 64 KiB of stack runs 1 MiB of recursion through LargeStack, once")
  func smallStackCallsLargeOne() async throws {
    let seen = Seen()
    let thread = ReaderThread(name: "small-stack") {
      let status = phototimer_call_on_stack(
        64 << 10,
        { context in
          let seen = Unmanaged<Seen>.fromOpaque(context!).takeUnretainedValue()
          seen.outer = LargeStackTests.stackSize()
          try? LargeStack.run {
            seen.runs += 1
            seen.inner = LargeStackTests.stackSize()
            seen.depth = LargeStackTests.recurse(1024)
          }
        }, Unmanaged.passUnretained(seen).toOpaque())
      precondition(status == 0, "pthread_create failed: \(status)")
    }
    await thread.join()
    // NB: about 64 KiB: ThreadSanitizer adds its own room to every thread it starts.
    #expect(seen.outer >= 64 << 10 && seen.outer < 1 << 20, "\(seen.outer)")
    #expect(seen.inner >= LargeStack.bytes)
    #expect(seen.depth == 1024)
    #expect(seen.runs == 1)
  }

  @Test("A thread that cannot start is pthread_create's error, and the body never runs")
  func failure() async throws {
    let plan = FaultPlan()
    plan.fail("pthread_create", with: .wouldBlock)
    let ran = Locked(false)
    let error = await withCheckedContinuation { continuation in
      _ = ReaderThread(name: "no-thread") {
        FaultPlan.$current.withValue(plan) {
          do throws(SystemCallError) {
            try LargeStack.run { ran.withLock { $0 = true } }
            continuation.resume(returning: SystemCallError?.none)
          } catch {
            continuation.resume(returning: error)
          }
        }
      }
    }
    #expect(error == SystemCallError(call: "pthread_create", errno: .wouldBlock))
    #expect(!ran.withLock { $0 })
  }
}
