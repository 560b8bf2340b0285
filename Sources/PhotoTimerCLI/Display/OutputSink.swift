import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// Where a display's bytes go: standard output, or memory in a test.
///
/// Displays write only through a sink, so a frame of the live view, a plain line or a JSON
/// object is tested as bytes without a terminal.
protocol OutputSink: Sendable {
  /// Writes all of `bytes`, in order.
  ///
  /// - Throws: Why they could not be written (a closed pipe, a terminal gone).
  func write(_ bytes: [UInt8]) throws
}

extension OutputSink {
  /// Writes `text` as UTF-8.
  func write(_ text: String) throws {
    try write(Array(text.utf8))
  }
}

/// Standard output, unbuffered: each write reaches a pipe or the terminal as it happens.
struct StandardOutputSink: OutputSink {
  func write(_ bytes: [UInt8]) throws {
    try FileDescriptor.standardOutput.writeAll(bytes)
  }
}

/// Bytes kept in memory, for tests, which can wait for a text to be written
/// (``written(_:)``) without polling.
final class MemorySink: OutputSink {
  private struct State: Sendable {
    var bytes: [UInt8] = []
    /// Tasks waiting for a text to be written; the tag is the text.
    var waiters = Waiters<Void, String>()
  }

  private let state = Locked(State())
  /// Makes every write fail from now on, with this error, when set.
  let failure = Locked<(any Error & Sendable)?>(nil)

  func write(_ bytes: [UInt8]) throws {
    if let failure = failure.withLock({ $0 }) { throw failure }
    let answered = state.withLock { state -> [Waiters<Void, String>.Continuation] in
      state.bytes += bytes
      guard state.waiters.count > 0 else { return [] }
      let text = String(decoding: state.bytes, as: UTF8.self)
      return state.waiters.take { text.contains($0) }.map(\.continuation)
    }
    for waiter in answered { waiter.resume() }
  }

  /// Everything written so far, as text.
  var text: String { String(decoding: state.withLock { $0.bytes }, as: UTF8.self) }

  /// Forgets what was written.
  func clear() { state.withLock { $0.bytes = [] } }

  /// Returns once `text` has been written (at once if it was).
  ///
  /// - Throws: `CancellationError` when the waiting task is cancelled (a test's time limit).
  func written(_ text: String) async throws {
    try await state.park(\.waiters, tag: text) { state in
      String(decoding: state.bytes, as: UTF8.self).contains(text) ? .success(()) : nil
    }
  }
}

/// A display's first failure to write, kept so that it is reported once, at the end.
///
/// A pipe closed downstream (`phototimer --json | head -1`) is no failure: the reader has
/// what it wanted, and the run goes on as it would have.
struct DrawFailure: Sendable {
  private(set) var message: String?

  /// Runs `write`, remembering the first error it throws.
  mutating func attempt(_ write: () throws -> Void) {
    do {
      try write()
    } catch let error as SystemCallError where error.errno == .brokenPipe {
      return
    } catch {
      if message == nil { message = "\(error)" }
    }
  }
}
