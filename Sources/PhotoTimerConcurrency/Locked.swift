import Foundation

/// A value guarded by a lock, for the few places where state is shared across threads.
///
/// NB: not `Synchronization.Mutex`. On Linux its futex-based lock is invisible to
/// ThreadSanitizer, which then reports races that are not there (measured: four tasks doing
/// 300,000 locked increments each end with the exact total, and TSan still reports an access
/// race). `NSLock` is pthread-based, so the concurrency tests stay meaningful under TSan.
///
/// It is `Sendable` only when its value is: the lock makes access safe, not the contents.
package final class Locked<Value> {
  private let lock = NSLock()
  private var value: Value

  /// Creates the guarded value.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

// NB: @unchecked because every access to `value` goes through `lock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
