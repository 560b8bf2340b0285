import Foundation
import PhotoTimer

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
  private let state = Locked((finished: false, joiners: [CheckedContinuation<Void, Never>]()))

  /// Starts `body` on a new thread named `name`.
  package init(name: String, body: @escaping @Sendable () -> Void) {
    let plan = FaultPlan.current
    let state = state
    let thread = Thread {
      FaultPlan.$current.withValue(plan) { body() }
      let joiners = state.withLock { state in
        state.finished = true
        defer { state.joiners = [] }
        return state.joiners
      }
      for joiner in joiners { joiner.resume() }
    }
    thread.name = name
    thread.start()
  }

  /// Whether the body has returned.
  package var isFinished: Bool { state.withLock { $0.finished } }

  /// Returns once the body has returned; any number of callers may wait.
  package func join() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let finished = state.withLock { state in
        if !state.finished { state.joiners.append(continuation) }
        return state.finished
      }
      if finished { continuation.resume() }
    }
  }
}
