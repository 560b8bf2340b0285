import Foundation
import PhotoTimer
import PhotoTimerLocation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection to gpsd that streams its messages.
///
/// The socket is read on a dedicated thread, never on a thread of Swift's cooperative pool.
/// The thread waits with `poll` on the socket and on a wake-up pipe, so ``close()`` (or
/// ending the iteration of ``messages``) interrupts a connect or a read at once. The
/// descriptors are closed in one place, when the thread ends, and ``close()`` returns only
/// after that.
///
/// ```swift
/// let connection = GPSDConnection(endpoint: .standard)
/// for try await message in connection.messages {
///   if case .position(let report) = message { print(report) }
/// }
/// await connection.close()
/// ```
public final class GPSDConnection: Sendable {
  /// The longest line accepted from gpsd (its own limit is far below).
  public static let lineLimit = 10 * 1024

  /// gpsd's messages. Lines that are not gpsd JSON are skipped. The sequence ends with an
  /// error when gpsd is not running, closes the connection or misbehaves, and quietly when
  /// closed or cancelled.
  public let messages: AsyncThrowingStream<GPSDMessage, any Error>
  private let wake: WakePipe?
  // NB: whether the thread has closed its descriptors, and who waits for that.
  private let ended = Locked<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  /// Connects to gpsd and asks it to watch in JSON.
  ///
  /// - Parameters:
  ///   - endpoint: Where gpsd listens.
  ///   - connectTimeout: How long the connection may take.
  public init(endpoint: GPSDEndpoint, connectTimeout: Duration = .seconds(3)) {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: GPSDMessage.self, throwing: (any Error).self)
    messages = stream
    let wake: WakePipe
    do {
      wake = try WakePipe()
    } catch {
      self.wake = nil
      ended.withLock { $0.done = true }
      continuation.finish(throwing: error)
      return
    }
    self.wake = wake
    continuation.onTermination = { _ in wake.signal() }
    let ended = ended
    let thread = Thread {
      var failure: (any Error)?
      do {
        try Session(endpoint: endpoint, wake: wake, timeout: connectTimeout).run { message in
          continuation.yield(message)
        }
      } catch {
        failure = error
      }
      wake.close()
      let waiters = ended.withLock { state in
        state.done = true
        defer { state.waiters = [] }
        return state.waiters
      }
      for waiter in waiters { waiter.resume() }
      continuation.finish(throwing: failure)
    }
    thread.name = "gpsd \(endpoint)"
    thread.start()
  }

  /// Stops reading and waits until the socket and the wake-up pipe are closed.
  public func close() async {
    wake?.signal()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = ended.withLock { state in
        if !state.done { state.waiters.append(continuation) }
        return state.done
      }
      if done { continuation.resume() }
    }
  }
}

/// A pipe whose only purpose is to wake a `poll`: written once on cancel.
final class WakePipe: Sendable {
  private struct State {
    var read: Int32
    var write: Int32
    var signalled = false
    var closed = false
  }

  // NB: the descriptors are only used and closed under this lock.
  private let state: Locked<State>

  init() throws(GPSDError) {
    var fds: [Int32] = [-1, -1]
    try syscall("pipe") { pipe(&fds) }
    // NB: close-on-exec, so a camera's child process (ffmpeg, gphoto2) never inherits it.
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    state = Locked(State(read: fds[0], write: fds[1]))
  }

  /// The descriptor to poll for readability.
  var readDescriptor: Int32 { state.withLock { $0.read } }

  /// Whether ``signal()`` was called.
  var isSignalled: Bool { state.withLock { $0.signalled } }

  /// Wakes the poller; later calls do nothing.
  func signal() {
    state.withLock { state in
      guard !state.signalled, !state.closed else { return }
      state.signalled = true
      var byte: UInt8 = 1
      _ = write(state.write, &byte, 1)
    }
  }

  /// Closes both ends; called once, by the thread that polls.
  func close() {
    state.withLock { state in
      guard !state.closed else { return }
      state.closed = true
      _ = Glibc.close(state.read)
      _ = Glibc.close(state.write)
    }
  }
}

/// One connection's work, on its own thread.
private struct Session {
  let endpoint: GPSDEndpoint
  let wake: WakePipe
  let timeout: Duration

  /// Connects, subscribes, and hands every message to `deliver` until cancelled or closed.
  func run(_ deliver: (GPSDMessage) -> Void) throws {
    let socket = try connect()
    defer { _ = Glibc.close(socket) }
    guard !wake.isSignalled else { return }
    let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [UInt8(ascii: "\n")]
    var sent = 0
    while sent < watch.count {
      let count = try watch[sent...].withUnsafeBytes { rest in
        try syscall("send") { send(socket, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
      }
      sent += count
    }
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      guard try waitReadable(socket, timeoutMilliseconds: -1) else { return }
      let count = try chunk.withUnsafeMutableBytes { buffer in
        try syscall("recv") { recv(socket, buffer.baseAddress, buffer.count, 0) }
      }
      guard count > 0 else { throw GPSDError.closed(endpoint) }
      pending += chunk[0..<count]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        var line = pending[..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if !line.isEmpty, let message = try? GPSDMessage(line: line) { deliver(message) }
        pending.removeSubrange(...newline)
      }
      guard pending.count <= GPSDConnection.lineLimit else {
        throw GPSDError.lineTooLong(endpoint, limit: GPSDConnection.lineLimit)
      }
    }
  }

  /// Opens a TCP connection, trying each address the host resolves to.
  private func connect() throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
    guard status == 0, let first = list else {
      throw GPSDError.unknownHost(endpoint, String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    var lastError: any Error = GPSDError.notRunning(endpoint)
    var address: UnsafeMutablePointer<addrinfo>? = first
    while let current = address {
      address = current.pointee.ai_next
      do {
        return try connect(to: current.pointee)
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  private func connect(to address: addrinfo) throws -> Int32 {
    let socket = try syscall("socket") {
      Glibc.socket(address.ai_family, address.ai_socktype, address.ai_protocol)
    }
    _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
    do {
      let flags = try syscall("fcntl") { fcntl(socket, F_GETFL) }
      try syscall("fcntl") { fcntl(socket, F_SETFL, flags | O_NONBLOCK) }
      if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == -1 {
        guard errno == EINPROGRESS || errno == EINTR else { throw connectError(errno) }
        let milliseconds = Int32(clamping: max(0, timeout.wholeNanoseconds / 1_000_000))
        guard try waitWritable(socket, timeoutMilliseconds: milliseconds) else {
          throw wake.isSignalled ? GPSDError.closed(endpoint) : .connectTimedOut(endpoint)
        }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try syscall("getsockopt") { getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length) }
        guard failure == 0 else { throw connectError(failure) }
      }
      try syscall("fcntl") { fcntl(socket, F_SETFL, flags) }
      return socket
    } catch {
      _ = Glibc.close(socket)
      throw error
    }
  }

  private func connectError(_ code: Int32) -> GPSDError {
    code == ECONNREFUSED
      ? .notRunning(endpoint)
      : .system(call: "connect", errno: code, message: String(cString: strerror(code)))
  }

  /// Waits until `socket` is readable; `false` when woken by a cancel.
  private func waitReadable(_ socket: Int32, timeoutMilliseconds: Int32) throws -> Bool {
    try wait(socket, events: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Waits until `socket` is writable; `false` when woken by a cancel or on timeout.
  private func waitWritable(_ socket: Int32, timeoutMilliseconds: Int32) throws -> Bool {
    try wait(socket, events: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds)
  }

  private func wait(
    _ socket: Int32, events: Int16, timeoutMilliseconds: Int32
  ) throws
    -> Bool
  {
    var fds = [
      pollfd(fd: socket, events: events, revents: 0),
      pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    let ready = try syscall("poll") { poll(&fds, 2, timeoutMilliseconds) }
    if ready == 0 || fds[1].revents != 0 { return false }
    return true
  }
}
