import PhotoTimerPOSIX

/// Unbuffered writes to standard output and standard error, so each line reaches a pipe as
/// it happens and no shared `FILE *` is touched from several threads.
enum StandardStream {
  case output
  case error

  /// Writes all of `text`; a closed pipe downstream drops it (there is nowhere to report it).
  func write(_ text: String) {
    switch self {
    case .output: FileDescriptor.standardOutput.write(text: text)
    case .error: FileDescriptor.standardError.write(text: text)
    }
  }

  /// Writes all of `bytes` (escape sequences built as bytes); a closed pipe drops them.
  func write(bytes: [UInt8]) {
    switch self {
    case .output: _ = try? FileDescriptor.standardOutput.writeAll(bytes)
    case .error: _ = try? FileDescriptor.standardError.writeAll(bytes)
    }
  }
}
