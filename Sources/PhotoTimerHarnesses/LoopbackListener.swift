import Foundation

/// A TCP socket of the test's own on 127.0.0.1, on a port the system chose: to find a free
/// port (close it, then hand the port on), or to hold one so that another program cannot
/// listen there.
package final class LoopbackListener {
  /// The port it is bound to.
  package let port: Int
  private var socket: Int32

  /// Binds a socket to 127.0.0.1 on a free port; `listening` also listens on it.
  package init(listening: Bool) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw CocoaError(.fileReadUnknown) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let socket = socket
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        Glibc.bind(socket, raw, length) == 0 && (!listening || listen(socket, 1) == 0)
          && getsockname(socket, raw, &length) == 0
      }
    }
    guard bound else {
      Glibc.close(socket)
      throw CocoaError(.fileReadUnknown)
    }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  /// Closes the socket (once).
  package func close() {
    if socket >= 0 { Glibc.close(socket) }
    socket = -1
  }

  deinit { close() }
}
