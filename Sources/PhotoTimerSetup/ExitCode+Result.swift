import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerPOSIX

extension ExitCode {
  /// The status for a run's result; `signal` is the signal that cancelled it, if one did.
  package init(_ result: PhotoTimerResult, signal: Int32? = nil) {
    switch result {
    case .captured: self = .success
    case .failed: self = .failure
    case .cancelled:
      switch signal {
      case SignalWatcher.Signal.terminate: self = .terminated
      case SignalWatcher.Signal.hangUp: self = .hangUp
      default: self = .cancelled
      }
    }
  }
}
