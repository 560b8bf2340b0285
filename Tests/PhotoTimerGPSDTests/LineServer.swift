import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback TCP server that sends fixed bytes to its first client and keeps it connected,
/// to play a misbehaving gpsd.
final class LineServer: @unchecked Sendable {
  // NB: @unchecked: `listener` is set once in init and only closed in `stop()`.
  let port: UInt16
  private let listener: Int32

  /// - Parameter thenClose: Close the connection once sent (gpsd going away), rather than
  ///   keep it open until the client closes it.
  init(sending bytes: [UInt8], thenClose: Bool = false) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
      }
    }
    guard listening, listen(listener, 1) == 0 else { throw GPSFakeError("listen failed") }
    port = UInt16(bigEndian: address.sin_port)
    Thread {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      if thenClose {
        // NB: the client's ?WATCH read first: closing with it unread would reset the
        // connection (RST) instead of ending it.
        var request = [UInt8](repeating: 0, count: 256)
        _ = recv(client, &request, request.count, 0)
      }
      _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      // Keep the client connected until the other side closes (unless told to close).
      var byte: UInt8 = 0
      while !thenClose, recv(client, &byte, 1, 0) > 0 {}
      close(client)
    }.start()
  }

  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }
}
