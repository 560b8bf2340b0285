import PhotoTimer

/// A re-armable wake-up for a thread of its own: ``ring()`` from anywhere, any number of
/// times; ``wait(timeout:)`` on the thread returns when it was rung (taking every ring so
/// far) or when the timeout passes. No polling loop, no lock held while waiting.
package final class Doorbell: Sendable {
  private let pipe: PipeDescriptors
  // NB: ring and close write and close under this lock, so no byte goes to a closed end.
  private let closed = Locked(false)

  /// Creates the doorbell (both ends non-blocking).
  ///
  /// - Throws: ``SystemCallError`` from `pipe2` or `fcntl`.
  package init() throws(SystemCallError) {
    let pipe = try PipeDescriptors()
    do {
      try pipe.writeEnd.setNonBlocking(true)
      try pipe.readEnd.setNonBlocking(true)
    } catch {
      pipe.close()
      throw error
    }
    self.pipe = pipe
  }

  /// Wakes the waiter (at once, or at its next wait).
  package func ring() {
    closed.withLock { closed in
      // NB: a full pipe (EAGAIN) has rung already.
      if !closed { _ = try? pipe.writeEnd.writeAll([1]) }
    }
  }

  /// Waits until rung or until `timeout` (`nil`: no limit).
  ///
  /// - Returns: Whether it was rung.
  package func wait(timeout: Duration?) -> Bool {
    guard let ready = try? Poll.wait([(pipe.readEnd, .readable)], timeout: timeout),
      !ready[0].isEmpty
    else { return false }
    while let bytes = try? pipe.readEnd.read(upTo: 64), !bytes.isEmpty {}
    return true
  }

  /// Closes the pipe; the waiter must have stopped waiting.
  package func close() {
    closed.withLock { closed in
      guard !closed else { return }
      closed = true
      pipe.close()
    }
  }
}
