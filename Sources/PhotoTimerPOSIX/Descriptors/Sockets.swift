#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileDescriptor {
  /// Whether something accepts connections on the Unix-domain socket at `path`: connects and
  /// closes at once. `false` when there is no socket, nobody listens (the server ended), or
  /// the path is too long for a socket address.
  ///
  /// - Throws: ``SystemCallError`` when the socket cannot be made at all (`socket` fails).
  package static func unixSocketAnswers(at path: String) throws(SystemCallError) -> Bool {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      let type = SOCK_STREAM
    #endif
    let socket = FileDescriptor(
      adopting: try SystemCall.value("socket") { Glibc.socket(AF_UNIX, type, 0) })
    defer { socket.closeQuietly() }
    do {
      try SystemCall.value("connect") {
        withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
          }
        }
      }
      return true
    } catch {
      return false
    }
  }
}

/// The machine's network interfaces, as `getifaddrs` lists them.
package enum NetworkInterfaces {
  /// One IPv4 address of an interface.
  package struct Address: Hashable, Sendable {
    /// The interface's name (`eth0`).
    package var interface: String
    /// The address in dotted form (`192.168.1.20`).
    package var address: String
    /// Whether the interface is up.
    package var isUp: Bool
    /// Whether it is the loopback interface.
    package var isLoopback: Bool
  }

  /// Whether `text` is a numeric IPv4 or IPv6 address (`inet_pton`'s reading).
  package static func isNumeric(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }

  /// Every IPv4 address of every interface, in the kernel's order.
  ///
  /// - Throws: ``SystemCallError`` when `getifaddrs` fails.
  package static func ipv4() throws(SystemCallError) -> [Address] {
    var list: UnsafeMutablePointer<ifaddrs>?
    try SystemCall.value("getifaddrs") { getifaddrs(&list) }
    defer { freeifaddrs(list) }
    var found: [Address] = []
    var next = list
    while let entry = next {
      next = entry.pointee.ifa_next
      guard let address = entry.pointee.ifa_addr,
        address.pointee.sa_family == sa_family_t(AF_INET)
      else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
        var raw = inet.pointee.sin_addr
        return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
      }
      guard converted else { continue }
      let flags = Int32(bitPattern: UInt32(entry.pointee.ifa_flags))
      found.append(
        Address(
          interface: String(cString: entry.pointee.ifa_name),
          address: String(
            decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
          isUp: flags & Int32(IFF_UP) != 0, isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
    }
    return found
  }
}
