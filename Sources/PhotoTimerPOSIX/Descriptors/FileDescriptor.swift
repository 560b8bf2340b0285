import CPhotoTimerPOSIX
import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file descriptor, owned: it is closed exactly once, by ``close()`` or when the
/// last reference goes.
///
/// Nothing outside this module sees the number. A descriptor shared with a thread that
/// polls it is closed only after that thread has been joined (``ReaderThread``); reading or
/// writing after ``close()`` throws `EBADF` instead of touching a number the kernel may have
/// given to another file.
package final class FileDescriptor: Sendable, CustomStringConvertible {
  let rawValue: Int32
  private let owned: Bool
  private let plan: FaultPlan?
  // NB: `open` is only read and written under this lock; the number itself never changes.
  private let open: Locked<Bool>

  /// Takes ownership of `rawValue`.
  init(adopting rawValue: Int32) {
    self.rawValue = rawValue
    owned = true
    open = Locked(true)
    plan = FaultPlan.current
    plan?.opened(rawValue)
  }

  private init(borrowing rawValue: Int32) {
    self.rawValue = rawValue
    owned = false
    open = Locked(true)
    plan = nil
  }

  deinit {
    if owned, open.withLock({ $0 }) {
      plan?.closed(rawValue)
      _ = Glibc.close(rawValue)
    }
  }

  /// Standard input, never closed by this type.
  package static let standardInput = FileDescriptor(borrowing: STDIN_FILENO)
  /// Standard output, never closed by this type.
  package static let standardOutput = FileDescriptor(borrowing: STDOUT_FILENO)
  /// Standard error, never closed by this type.
  package static let standardError = FileDescriptor(borrowing: STDERR_FILENO)

  /// `fd 7`.
  package var description: String { "fd \(rawValue)" }

  /// Whether ``close()`` has not been called yet.
  package var isOpen: Bool { open.withLock { $0 } }

  /// Whether the descriptor is a terminal.
  package var isTerminal: Bool { isatty(rawValue) == 1 }

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - path: The path.
  ///   - flags: `open(2)` flags; `O_CLOEXEC` is always added.
  ///   - mode: The permissions of a created file.
  /// - Throws: ``SystemCallError`` from `open`.
  package static func open(
    _ path: String, flags: Int32, mode: mode_t = 0o644
  ) throws(SystemCallError) -> FileDescriptor {
    let raw = try SystemCall.value("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    return FileDescriptor(adopting: raw)
  }

  /// Closes the descriptor; later calls do nothing. `EINTR` is not retried: on Linux the
  /// descriptor is released whatever `close` returns.
  ///
  /// - Throws: ``SystemCallError`` from `close` (an I/O error reported late, such as `EIO`
  ///   on a network file system), once.
  package func close() throws(SystemCallError) {
    let first = open.withLock { open -> Bool in
      defer { open = false }
      return open && owned
    }
    guard first else { return }
    plan?.closed(rawValue)
    try SystemCall.value("close", retryOnInterrupt: false) { Glibc.close(rawValue) }
  }

  /// Closes the descriptor, ignoring an error (for cleanup paths).
  package func closeQuietly() {
    try? close()
  }

  private func checkOpen(_ call: String) throws(SystemCallError) {
    guard isOpen else { throw SystemCallError(call: call, errno: .badDescriptor) }
  }

  /// Reads at most `buffer.count` bytes.
  ///
  /// - Returns: The number read; 0 at the end of the file.
  /// - Throws: ``SystemCallError`` from `read`.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
    try checkOpen("read")
    return try SystemCall.value("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Reads at most `count` bytes; empty at the end of the file.
  package func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemCallError) in try self.read(into: buffer) }
    }
    bytes.removeSubrange(try result.get()...)
    return bytes
  }

  /// Writes some of `buffer`.
  ///
  /// - Returns: The number of bytes written.
  package func write(_ buffer: UnsafeRawBufferPointer) throws(SystemCallError) -> Int {
    try checkOpen("write")
    return try SystemCall.value("write") { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Writes all of `bytes`, retrying short writes.
  package func writeAll(_ bytes: some Collection<UInt8>) throws(SystemCallError) {
    let array = Array(bytes)
    var offset = 0
    while offset < array.count {
      let result = array.withUnsafeBytes { raw in
        Result { () throws(SystemCallError) in
          try write(UnsafeRawBufferPointer(rebasing: raw[offset...]))
        }
      }
      offset += try result.get()
    }
  }

  /// Flushes the file's data and metadata to the disk.
  package func sync() throws(SystemCallError) {
    try checkOpen("fsync")
    try SystemCall.value("fsync") { fsync(rawValue) }
  }

  /// Sends a device request (`ioctl`) with one argument through the funnel, under `name`
  /// (for example `ioctl(VIDIOC_QUERYCAP)`, which a ``FaultPlan`` can name).
  ///
  /// - Parameters:
  ///   - name: The request's name, for the error and for fault plans.
  ///   - request: The request number.
  ///   - argument: The request's argument, read or filled by the driver.
  /// - Throws: ``SystemCallError`` under `name`.
  package func control(
    _ name: String, request: UInt, argument: UnsafeMutableRawPointer
  ) throws(SystemCallError) {
    try checkOpen(name)
    try SystemCall.value(name) { phototimer_ioctl(rawValue, request, argument) }
  }

  /// Reads and so resets an event counter (an eventfd, such as libdispatch's main queue's)
  /// that this process does not own, given by its number; a counter already at zero is left
  /// as it is.
  ///
  /// - Parameter rawValue: The counter's descriptor, borrowed: it stays open.
  package static func resetEventCounter(_ rawValue: Int32) {
    var count: UInt64 = 0
    _ = try? SystemCall.value("read") { Glibc.read(rawValue, &count, MemoryLayout<UInt64>.size) }
  }

  /// Sets or clears `O_NONBLOCK`.
  package func setNonBlocking(_ nonBlocking: Bool) throws(SystemCallError) {
    try checkOpen("fcntl")
    let flags = try SystemCall.value("fcntl") { fcntl(rawValue, F_GETFL) }
    let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
    try SystemCall.value("fcntl") { fcntl(rawValue, F_SETFL, wanted) }
  }
}
