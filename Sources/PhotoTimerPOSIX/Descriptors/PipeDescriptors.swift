import CPhotoTimerPOSIX
import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe: both ends close on exec, so no child process inherits them.
package struct PipeDescriptors: Sendable {
  /// The end to read.
  package let readEnd: FileDescriptor
  /// The end to write.
  package let writeEnd: FileDescriptor

  /// Creates a pipe.
  ///
  /// - Throws: ``SystemCallError`` from `pipe2` (`EMFILE` when no descriptor is left).
  package init() throws(SystemCallError) {
    var fds: [Int32] = [-1, -1]
    try SystemCall.value("pipe") { phototimer_pipe_cloexec(&fds) }
    readEnd = FileDescriptor(adopting: fds[0])
    writeEnd = FileDescriptor(adopting: fds[1])
  }

  /// Closes both ends.
  package func close() {
    readEnd.closeQuietly()
    writeEnd.closeQuietly()
  }
}

/// A pipe whose only purpose is to wake a thread blocked in ``Poll/wait(_:timeout:)``:
/// ``signal()`` writes one byte, once.
///
/// The poller owns it and closes it (``close()``) after it has stopped polling; a signal
/// after that does nothing.
package final class WakePipe: Sendable {
  private let pipe: PipeDescriptors
  // NB: `signal()` and `close()` write and close under this lock, so a late signal never
  // writes to a closed (and maybe reused) descriptor.
  private let state = Locked((signalled: false, closed: false))

  /// Creates the pipe (its write end does not block).
  ///
  /// - Throws: ``SystemCallError`` from `pipe2` or `fcntl`.
  package init() throws(SystemCallError) {
    let pipe = try PipeDescriptors()
    do {
      try pipe.writeEnd.setNonBlocking(true)
    } catch {
      pipe.close()
      throw error
    }
    self.pipe = pipe
  }

  /// The end to poll for ``PollEvents/readable``.
  package var descriptor: FileDescriptor { pipe.readEnd }

  /// Whether ``signal()`` was called.
  package var isSignalled: Bool { state.withLock { $0.signalled } }

  /// Wakes the poller; later calls do nothing.
  package func signal() {
    state.withLock { state in
      guard !state.signalled, !state.closed else { return }
      state.signalled = true
      // NB: a full pipe (EAGAIN) already wakes the poller; nothing else can go wrong here.
      _ = try? pipe.writeEnd.writeAll([1])
    }
  }

  /// Closes both ends; called by the poller once it stopped polling.
  package func close() {
    state.withLock { state in
      guard !state.closed else { return }
      state.closed = true
      pipe.close()
    }
  }
}
