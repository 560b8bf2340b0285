import Foundation
import PhotoTimerConcurrency

/// A thread of its own (never one of Swift's cooperative pool) for blocking work such as
/// `poll` and `read`, that can be joined from async code.
///
/// The thread inherits the ``FaultPlan`` of the task that started it, so tests can make its
/// system calls fail.
///
/// ```swift
/// let reader = ReaderThread(name: "gpsd") { readUntilWoken() }
/// wake.signal()
/// await reader.join()   // the thread has returned: its descriptors can be closed
/// ```
package final class ReaderThread: Sendable {
  private struct State: Sendable {
    var finished = false
    var joiners = Waiters<Void, Void>()
  }

  private let state = Locked(State())

  /// Starts `body` on a new thread named `name`.
  package init(name: String, body: @escaping @Sendable () -> Void) {
    let plan = FaultPlan.current
    let state = state
    let thread = Thread {
      FaultPlan.$current.withValue(plan) { body() }
      let joiners = state.withLock { state in
        state.finished = true
        return state.joiners.takeAll()
      }
      for joiner in joiners { joiner.resume() }
    }
    thread.name = name
    thread.start()
  }

  /// Whether the body has returned.
  package var isFinished: Bool { state.withLock { $0.finished } }

  /// Returns once the body has returned; any number of callers may wait.
  ///
  /// A cancelled task waits too: a join returns only once the thread has ended, so that the
  /// descriptors it reads can be closed after it.
  package func join() async {
    // NB: not cancellable, and nothing throws: the `try?` only satisfies the signature.
    try? await state.park(\.joiners, tag: (), cancellable: false) { state in
      state.finished ? .success(()) : nil
    }
  }
}
