#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The write end of the pipe the signal handler writes to.
///
/// NB: a signal handler can capture nothing, so this one number is global. It is set before
/// any handler is installed and only read by the handler (`write` is async-signal-safe); one
/// watcher exists at a time.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns signals into calls on a thread, instead of letting them kill the process mid-write.
///
/// The handler is installed with `sigaction` before the initialiser returns, so no signal
/// is lost in a window (a Dispatch signal source registers asynchronously, and a SIGINT that
/// arrives meanwhile under `SIG_IGN` is discarded). The handler only writes the signal's
/// number to a pipe; a ``ReaderThread`` reads it and calls `onSignal`.
package final class SignalWatcher: Sendable {
  private let signals: [Int32]
  private let pipe: PipeDescriptors
  private let reader: ReaderThread

  /// Starts handling `signals`.
  ///
  /// - Parameters:
  ///   - signals: Such as `[SIGINT, SIGTERM, SIGHUP]`.
  ///   - onSignal: Called on the watcher's thread for each signal received.
  /// - Throws: ``SystemCallError`` from `pipe2` or `sigaction`.
  package init(
    signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void
  ) throws(SystemCallError) {
    let pipe = try PipeDescriptors()
    self.pipe = pipe
    self.signals = signals
    signalPipeWriteEnd = pipe.writeEnd.rawValue
    for number in signals {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { number in
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(signalPipeWriteEnd, &byte, 1)
        }
      #else
        action.__sigaction_u.__sa_handler = { number in
          var byte = UInt8(truncatingIfNeeded: number)
          _ = write(signalPipeWriteEnd, &byte, 1)
        }
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      do {
        try SystemCall.value("sigaction") { sigaction(number, &action, nil) }
      } catch {
        for installed in signals { signal(installed, SIG_DFL) }
        pipe.close()
        throw error
      }
    }
    let readEnd = pipe.readEnd
    reader = ReaderThread(name: "phototimer.signals") {
      // The write end closing (stop) ends the loop.
      while let bytes = try? readEnd.read(upTo: 16), !bytes.isEmpty {
        for byte in bytes { onSignal(Int32(byte)) }
      }
    }
  }

  /// Stops handling: the signals get their default action back, the thread ends, and the
  /// pipe is closed.
  package func stop() async {
    for number in signals { signal(number, SIG_DFL) }
    pipe.writeEnd.closeQuietly()
    await reader.join()
    pipe.readEnd.closeQuietly()
  }
}
