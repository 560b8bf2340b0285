/// The documented exit statuses of `phototimer`.
package enum ExitCode: Int32 {
  /// The photo was taken.
  case success = 0
  /// The run failed; the message says why.
  case failure = 1
  /// The command line was wrong.
  case usage = 2
  /// The terminal hung up (SIGHUP).
  case hangUp = 129
  /// The user cancelled (a key, or Ctrl-C / SIGINT).
  case cancelled = 130
  /// Terminated (SIGTERM).
  case terminated = 143
}
