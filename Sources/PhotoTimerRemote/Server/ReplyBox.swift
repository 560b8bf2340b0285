import Foundation

/// One answer, awaited by a blocked thread: the program claims the intent, then answers; the
/// waiter gives up only on an intent nobody has claimed.
final class ReplyBox: Sendable {
  private enum State {
    case waiting
    case claimed
    case answered(RemoteReply)
    case abandoned
  }

  private let condition = NSCondition()
  // NB: reached only with `condition` locked.
  private nonisolated(unsafe) var state = State.waiting

  /// Takes the intent on; `false` when the waiter has given up.
  func claim() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard case .waiting = state else { return false }
    state = .claimed
    return true
  }

  func fulfil(_ reply: RemoteReply) {
    condition.lock()
    state = .answered(reply)
    condition.broadcast()
    condition.unlock()
  }

  /// The answer; `nil` when nobody claimed the intent within `timeout` (it is then dropped).
  /// Once claimed, the answer is waited for: it is on its way.
  func wait(timeout: Duration) -> RemoteReply? {
    let deadline = Date(timeIntervalSinceNow: timeout.secondsValue)
    condition.lock()
    defer { condition.unlock() }
    while true {
      // NB: read afresh on each turn, into a local: no access to `state` spans a wait.
      let now = state
      switch now {
      case .answered(let reply): return reply
      case .abandoned: return nil
      case .claimed: condition.wait()
      case .waiting:
        let signalled = condition.wait(until: deadline)
        if !signalled, case .waiting = state {
          state = .abandoned
          return nil
        }
      }
    }
  }
}
