import PhotoTimerConcurrency
import Testing

@testable import PhotoTimer

@Suite("One way to wait: Waiters and Locked.park")
struct WaitersTests {
  private struct State: Sendable {
    var value: Int?
    var waiters = Waiters<Int, Int>()
  }

  /// Parks a task on `state` with `tag`; returns it once it is parked (told by `park` itself).
  private func parkedTask(
    _ state: Locked<State>, tag: Int, cancellable: Bool = true
  ) async -> Task<Int, any Error> {
    let (parked, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      try await state.park(\.waiters, tag: tag, cancellable: cancellable) {
        $0.value.map { .success($0) }
      } parked: { _ in
        [{ signal.yield() }]
      }
    }
    for await _ in parked { break }
    return task
  }

  @Test("A value there at once is returned; a parked waiter gets what its owner hands it")
  func handOver() async throws {
    let state = Locked(State(value: 7))
    #expect(try await state.park(\.waiters, tag: 1) { $0.value.map { .success($0) } } == 7)
    state.withLock { $0.value = nil }
    let waiter = await parkedTask(state, tag: 2)
    #expect(state.withLock { $0.waiters.tags } == [2])
    let taken = state.withLock { $0.waiters.take { $0 == 2 } }
    for (_, continuation) in taken { continuation.resume(returning: 42) }
    #expect(try await waiter.value == 42)
    #expect(state.withLock { $0.waiters.count } == 0)
  }

  @Test("Cancelling a parked task takes it out and resumes it with CancellationError")
  func cancel() async throws {
    let state = Locked(State())
    let waiter = await parkedTask(state, tag: 1)
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(state.withLock { $0.waiters.count } == 0)
  }

  @Test("A task parked as not cancellable waits on through a cancel for its owner's answer")
  func notCancellable() async throws {
    let state = Locked(State())
    let waiter = await parkedTask(state, tag: 1, cancellable: false)
    waiter.cancel()
    #expect(state.withLock { $0.waiters.count } == 1)
    for continuation in state.withLock({ $0.waiters.takeAll() }) {
      continuation.resume(returning: 5)
    }
    #expect(try await waiter.value == 5)
  }
}
