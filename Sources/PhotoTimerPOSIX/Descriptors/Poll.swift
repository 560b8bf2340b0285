import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a descriptor is waited for, or was found ready for.
package struct PollEvents: OptionSet, Hashable, Sendable {
  package var rawValue: Int16
  package init(rawValue: Int16) { self.rawValue = rawValue }

  /// Data can be read (or the end of the file was reached).
  package static let readable = PollEvents(rawValue: Int16(POLLIN))
  /// Data can be written.
  package static let writable = PollEvents(rawValue: Int16(POLLOUT))
  /// The other end hung up.
  package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
  /// An error condition.
  package static let error = PollEvents(rawValue: Int16(POLLERR))
  /// The descriptor is not open.
  package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// `poll(2)` over owned descriptors.
package enum Poll {
  /// Waits until one of the descriptors is ready, or `timeout` passes (`nil`: no limit).
  ///
  /// - Parameters:
  ///   - requests: Each descriptor and what to wait for.
  ///   - timeout: The longest wait, rounded up to a millisecond; `nil` waits for ever.
  /// - Returns: What each descriptor is ready for, in the order asked (all empty on timeout).
  /// - Throws: ``SystemCallError`` from `poll`.
  package static func wait(
    _ requests: [(FileDescriptor, PollEvents)], timeout: Duration? = nil
  ) throws(SystemCallError) -> [PollEvents] {
    var fds = requests.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    let milliseconds: Int32
    if let timeout {
      let nanoseconds = max(0, timeout.wholeNanoseconds)
      milliseconds = Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
    } else {
      milliseconds = -1
    }
    try SystemCall.value("poll") { Glibc.poll(&fds, nfds_t(fds.count), milliseconds) }
    return fds.map { PollEvents(rawValue: $0.revents) }
  }
}
