#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one funnel every system call of this package goes through.
///
/// It retries `EINTR`, turns a failure into a ``SystemCallError`` that keeps the call's
/// name and errno, and is the seam for fault injection: when the current task (or thread)
/// has a ``FaultPlan`` that names the call, the call fails as planned without running.
package enum SystemCall {
  /// Runs a call that returns -1 and sets `errno` on failure.
  ///
  /// - Parameters:
  ///   - name: The call's name, for the error and for fault plans.
  ///   - retryOnInterrupt: Whether `EINTR` is retried (default true).
  ///   - body: The call.
  /// - Returns: What the call returned.
  /// - Throws: ``SystemCallError`` with the call's name and errno.
  @discardableResult
  package static func value<Result: BinaryInteger>(
    _ name: String, retryOnInterrupt: Bool = true, _ body: () -> Result
  ) throws(SystemCallError) -> Result {
    while true {
      if let planned = FaultPlan.current?.take(name) {
        if planned == .interrupted, retryOnInterrupt { continue }
        throw SystemCallError(call: name, errno: planned)
      }
      let result = body()
      if result != -1 { return result }
      let code = Errno(rawValue: errno)
      if code == .interrupted, retryOnInterrupt { continue }
      throw SystemCallError(call: name, errno: code)
    }
  }

  /// Runs a call that returns its error number (0 for success), such as `posix_spawn`.
  ///
  /// - Parameters:
  ///   - name: The call's name.
  ///   - body: The call.
  /// - Throws: ``SystemCallError`` with the number it returned.
  package static func status(_ name: String, _ body: () -> Int32) throws(SystemCallError) {
    while true {
      if let planned = FaultPlan.current?.take(name) {
        if planned == .interrupted { continue }
        throw SystemCallError(call: name, errno: planned)
      }
      let result = body()
      if result == 0 { return }
      if result == EINTR { continue }
      throw SystemCallError(call: name, errno: Errno(rawValue: result))
    }
  }
}
