#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Unbuffered writes to standard output and standard error, so each line reaches a pipe as
/// it happens and no shared `FILE *` is touched from several threads.
enum StandardStream: Int32 {
  case output = 1
  case error = 2

  /// Writes all of `text`, retrying short writes and `EINTR`.
  func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Glibc)
          Glibc.write(rawValue, buffer.baseAddress, buffer.count)
        #else
          Darwin.write(rawValue, buffer.baseAddress, buffer.count)
        #endif
      }
      if written < 0 {
        if errno == EINTR { continue }
        return  // NB: nowhere left to report a failed write to stdout/stderr (EPIPE).
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
