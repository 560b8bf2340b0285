#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a TCP connection could not be made.
package enum ConnectError: Error, Hashable, Sendable {
  /// The host name did not resolve; the resolver's words.
  case unresolved(String)
  /// Nothing listens there.
  case refused
  /// No answer within the time allowed.
  case timedOut
  /// The wake pipe was signalled while connecting.
  case interrupted
  /// A system call failed.
  case system(SystemCallError)
}

extension FileDescriptor {
  /// Opens a TCP connection to `host:port`, trying each address the host resolves to.
  ///
  /// The connect is non-blocking, bounded by `timeout`, and ends at once when `wake` is
  /// signalled. The descriptor returned is blocking and closes on exec.
  ///
  /// - Parameters:
  ///   - host: A name or a numeric address.
  ///   - port: The port.
  ///   - timeout: The longest time for each address.
  ///   - wake: Interrupts the connect.
  /// - Throws: ``ConnectError``.
  package static func connectTCP(
    host: String, port: Int, timeout: Duration, wake: WakePipe
  ) throws(ConnectError) -> FileDescriptor {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw .unresolved(String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    var lastError = ConnectError.refused
    var address: UnsafeMutablePointer<addrinfo>? = first
    while let current = address {
      address = current.pointee.ai_next
      do {
        return try connect(to: current.pointee, timeout: timeout, wake: wake)
      } catch {
        if error == .interrupted || error == .timedOut { throw error }
        lastError = error
      }
    }
    throw lastError
  }

  private static func connect(
    to address: addrinfo, timeout: Duration, wake: WakePipe
  ) throws(ConnectError) -> FileDescriptor {
    let socket: FileDescriptor
    do {
      let raw = try SystemCall.value("socket") {
        Glibc.socket(
          address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
          address.ai_protocol)
      }
      socket = FileDescriptor(adopting: raw)
    } catch {
      throw .system(error)
    }
    do throws(ConnectError) {
      try connecting(socket, to: address, timeout: timeout, wake: wake)
      return socket
    } catch {
      socket.closeQuietly()
      throw error
    }
  }

  private static func connecting(
    _ socket: FileDescriptor, to address: addrinfo, timeout: Duration, wake: WakePipe
  ) throws(ConnectError) {
    func system(_ body: () throws(SystemCallError) -> Void) throws(ConnectError) {
      do {
        try body()
      } catch {
        throw error.errno == .connectionRefused ? .refused : .system(error)
      }
    }
    try system { () throws(SystemCallError) in try socket.setNonBlocking(true) }
    do {
      try SystemCall.value("connect") {
        Glibc.connect(socket.rawValue, address.ai_addr, address.ai_addrlen)
      }
    } catch  where error.errno == .inProgress {
      var ready: [PollEvents] = []
      try system { () throws(SystemCallError) in
        ready = try Poll.wait(
          [(socket, .writable), (wake.descriptor, .readable)], timeout: timeout)
      }
      if !ready[1].isEmpty { throw .interrupted }
      if ready[0].isEmpty { throw .timedOut }
      var failure: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      try system { () throws(SystemCallError) in
        try SystemCall.value("getsockopt") {
          getsockopt(socket.rawValue, SOL_SOCKET, SO_ERROR, &failure, &length)
        }
      }
      if failure != 0 {
        try system { () throws(SystemCallError) in
          throw SystemCallError(call: "connect", errno: Errno(rawValue: failure))
        }
      }
    } catch {
      throw error.errno == .connectionRefused ? .refused : .system(error)
    }
    try system { () throws(SystemCallError) in try socket.setNonBlocking(false) }
  }

  /// Sends all of `bytes` on a socket, without SIGPIPE when the peer has gone.
  ///
  /// - Throws: ``SystemCallError`` from `send`.
  package func send(_ bytes: [UInt8]) throws(SystemCallError) {
    var offset = 0
    while offset < bytes.count {
      let result = bytes.withUnsafeBytes { raw in
        Result { () throws(SystemCallError) in
          let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
          return try SystemCall.value("send") {
            Glibc.send(rawValue, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
          }
        }
      }
      offset += try result.get()
    }
  }

  /// Receives at most `count` bytes from a socket; empty when the peer closed it.
  ///
  /// - Throws: ``SystemCallError`` from `recv`.
  package func receive(upTo count: Int) throws(SystemCallError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let result = bytes.withUnsafeMutableBytes { buffer in
      Result { () throws(SystemCallError) in
        try SystemCall.value("recv") { recv(rawValue, buffer.baseAddress, buffer.count, 0) }
      }
    }
    bytes.removeSubrange(try result.get()...)
    return bytes
  }
}
