import CPhotoTimerPOSIX

/// Runs code on a thread with a full-sized stack, for callbacks that a C library makes on
/// threads whose stacks are too small for Swift.
///
/// Debian's civetweb starts its workers with 100 KiB of stack. Swift code there overflowed
/// it and the process died with SIGSEGV: the first use of a key path builds its type's
/// metadata by demangling, recursively, and AddressSanitizer's frames are larger still. A
/// callback that does more than pass its arguments on runs its body through ``run(_:)``:
/// the C library's thread waits while a new thread with 8 MiB of stack (glibc's default)
/// runs the body, so the body may block, take locks and allocate as on any thread.
///
/// ```swift
/// var status: Int32 = 0
/// try LargeStack.run { status = serve(connection) }
/// ```
///
/// A thread costs tens of microseconds to start: fine for an HTTP request or a WebSocket
/// message, not for a per-pixel callback.
package enum LargeStack {
  /// The stack of the thread that runs the body: 8 MiB.
  package static let bytes = 8 << 20

  /// Runs `body` on a thread of its own with a ``bytes``-long stack and returns once it has
  /// returned.
  ///
  /// - Parameter body: The work; it runs exactly once, or not at all when this throws.
  /// - Throws: ``SystemCallError`` for `pthread_create` (the body has not run).
  package static func run(_ body: () -> Void) throws(SystemCallError) {
    let failure = withoutActuallyEscaping(body) { escapable -> SystemCallError? in
      var call = escapable
      return withUnsafeMutablePointer(to: &call) { pointer -> SystemCallError? in
        do throws(SystemCallError) {
          try SystemCall.status("pthread_create") {
            phototimer_call_on_stack(
              bytes,
              { context in
                context?.assumingMemoryBound(to: (() -> Void).self).pointee()
              }, pointer)
          }
          return nil
        } catch {
          return error
        }
      }
    }
    if let failure { throw failure }
  }
}
