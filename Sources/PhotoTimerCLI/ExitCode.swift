import PhotoTimer

/// The documented exit statuses of `phototimer`.
enum ExitCode: Int32 {
  /// The photo was taken.
  case success = 0
  /// The run failed; the message says why.
  case failure = 1
  /// The command line was wrong.
  case usage = 64
  /// The user cancelled (Ctrl-C, SIGTERM).
  case cancelled = 130

  init(_ result: PhotoTimerResult) {
    switch result {
    case .captured: self = .success
    case .failed: self = .failure
    case .cancelled: self = .cancelled
    }
  }
}
