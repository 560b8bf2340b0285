import Dispatch
import PhotoTimer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns terminating signals into a cancellation, instead of killing the process mid-write.
final class SignalCancellation: Sendable {
  // NB: Dispatch sources are not Sendable; the lock owns them.
  private let sources: Locked<[any DispatchSourceSignal]>

  /// Starts listening; `onSignal` runs on a Dispatch queue for each signal received.
  init(signals: [Int32], onSignal: @escaping @Sendable () -> Void) {
    let sources = signals.map { number in
      // NB: the default action must be ignored, or the process dies before the source runs.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler(handler: onSignal)
      source.resume()
      return source
    }
    self.sources = Locked(sources)
  }

  /// Stops listening.
  func stop() {
    sources.withLock { sources in
      for source in sources { source.cancel() }
      sources.removeAll()
    }
  }
}
