/// Tasks parked until their owner hands them a value: the one waiting mechanism of this
/// package, behind a one-shot value, a stream's mailbox, a thread's join and the test clock.
///
/// A `Waiters` lives inside its owner's ``Locked`` state. ``Locked/park(_:tag:cancellable:ready:parked:)``
/// parks the calling task (unless the value is there at once), and the owner takes the
/// waiters it can answer (``take(where:)``, ``takeAll()``) under its lock and resumes them
/// outside it. Each waiter has a tag, what it waits for (a frame after number N, a deadline,
/// a count of sleepers). A cancelled task's waiter is taken out and resumed with
/// `CancellationError` at once, unless it was parked as not cancellable.
package struct Waiters<Value: Sendable, Tag: Sendable>: Sendable {
  /// A parked task's continuation.
  package typealias Continuation = CheckedContinuation<Value, any Error>

  private var parked: [(id: UInt64, tag: Tag, continuation: Continuation)] = []
  private var nextID: UInt64 = 0

  /// No waiters.
  package init() {}

  /// How many tasks are parked.
  package var count: Int { parked.count }

  /// The tags of the parked tasks, in the order they were parked.
  package var tags: [Tag] { parked.map(\.tag) }

  /// Takes out the waiters whose tag matches, in the order they were parked.
  package mutating func take(
    where matches: (Tag) -> Bool
  ) -> [(tag: Tag, continuation: Continuation)] {
    var taken: [(tag: Tag, continuation: Continuation)] = []
    parked.removeAll { waiter in
      guard matches(waiter.tag) else { return false }
      taken.append((waiter.tag, waiter.continuation))
      return true
    }
    return taken
  }

  /// Takes out every waiter.
  package mutating func takeAll() -> [Continuation] {
    defer { parked = [] }
    return parked.map(\.continuation)
  }

  fileprivate mutating func reserve() -> UInt64 {
    nextID &+= 1
    return nextID
  }

  fileprivate mutating func park(_ id: UInt64, tag: Tag, _ continuation: Continuation) {
    parked.append((id, tag, continuation))
  }

  fileprivate mutating func remove(_ id: UInt64) -> Continuation? {
    guard let index = parked.firstIndex(where: { $0.id == id }) else { return nil }
    return parked.remove(at: index).continuation
  }
}

extension Locked where Value: Sendable {
  /// Parks the calling task in `waiters` with `tag`, unless `ready` answers at once.
  ///
  /// `ready` runs under the lock before the task is parked; `parked` runs under the same lock
  /// right after, and returns work to do outside it (resuming other waiters the new one
  /// satisfies). Cancellation is checked under the lock, so a cancel either finds the waiter
  /// parked or is seen before it parks.
  ///
  /// - Parameters:
  ///   - waiters: Where the owner keeps its waiters.
  ///   - tag: What the task waits for.
  ///   - cancellable: Whether cancelling the task ends the wait (`false` for a join, which
  ///     must not return before the thread has ended).
  ///   - ready: The value now, if it is there (or a failure).
  ///   - parked: Work to do once the task is parked, run outside the lock.
  /// - Returns: The value the owner hands the waiter.
  /// - Throws: What the owner hands it, or `CancellationError` when the task is cancelled.
  package func park<Item: Sendable, Tag: Sendable>(
    _ waiters: WritableKeyPath<Value, Waiters<Item, Tag>> & Sendable, tag: Tag,
    cancellable: Bool = true, ready: (inout Value) -> Result<Item, any Error>?,
    parked: (inout Value) -> [@Sendable () -> Void] = { _ in [] }
  ) async throws -> Item {
    let id = withLock { $0[keyPath: waiters].reserve() }
    func wait() async throws -> Item {
      try await withCheckedThrowingContinuation { continuation in
        let (now, after) = withLock { state -> (Result<Item, any Error>?, [@Sendable () -> Void]) in
          if cancellable, Task.isCancelled { return (.failure(CancellationError()), []) }
          if let now = ready(&state) { return (now, []) }
          state[keyPath: waiters].park(id, tag: tag, continuation)
          return (nil, parked(&state))
        }
        if let now { continuation.resume(with: now) }
        for work in after { work() }
      }
    }
    guard cancellable else { return try await wait() }
    return try await withTaskCancellationHandler {
      try await wait()
    } onCancel: {
      let waiter = withLock { $0[keyPath: waiters].remove(id) }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
