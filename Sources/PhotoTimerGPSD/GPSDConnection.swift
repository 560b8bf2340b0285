import PhotoTimer
import PhotoTimerLocation
import PhotoTimerPOSIX

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
  private let reader: ReaderThread?

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
      reader = nil
      continuation.finish(throwing: GPSDError.system(error))
      return
    }
    self.wake = wake
    continuation.onTermination = { _ in wake.signal() }
    reader = ReaderThread(name: "gpsd \(endpoint)") {
      var failure: (any Error)?
      do {
        try Session(endpoint: endpoint, wake: wake, timeout: connectTimeout).run { message in
          continuation.yield(message)
        }
      } catch {
        failure = error
      }
      wake.close()
      continuation.finish(throwing: failure)
    }
  }

  /// Stops reading and waits until the socket and the wake-up pipe are closed.
  public func close() async {
    wake?.signal()
    await reader?.join()
  }
}

/// One connection's work, on its own thread.
private struct Session {
  let endpoint: GPSDEndpoint
  let wake: WakePipe
  let timeout: Duration

  /// Connects, subscribes, and hands every message to `deliver` until cancelled or closed.
  func run(_ deliver: (GPSDMessage) -> Void) throws(GPSDError) {
    let socket: FileDescriptor
    do throws(ConnectError) {
      socket = try FileDescriptor.connectTCP(
        host: endpoint.host, port: Int(endpoint.port), timeout: timeout, wake: wake)
    } catch {
      switch error {
      case .unresolved(let reason): throw .unknownHost(endpoint, reason)
      case .refused: throw .notRunning(endpoint)
      case .timedOut: throw .connectTimedOut(endpoint)
      case .interrupted: return
      case .system(let failure): throw .system(failure)
      }
    }
    defer { socket.closeQuietly() }
    guard !wake.isSignalled else { return }
    do {
      try socket.send(Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [UInt8(ascii: "\n")])
      var reader = GPSDLineReader()
      while true {
        let ready = try Poll.wait([(socket, .readable), (wake.descriptor, .readable)])
        guard ready[1].isEmpty else { return }
        let chunk = try socket.receive(upTo: 4096)
        guard !chunk.isEmpty else { throw GPSDError.closed(endpoint) }
        let (messages, overflowed) = reader.feed(chunk)
        for message in messages { deliver(message) }
        guard !overflowed else {
          throw GPSDError.lineTooLong(endpoint, limit: GPSDConnection.lineLimit)
        }
      }
    } catch let error as GPSDError {
      throw error
    } catch let error as SystemCallError {
      throw .system(error)
    } catch {
      throw .closed(endpoint)
    }
  }
}

/// gpsd's framing: bytes in as they arrive, the messages of the complete lines out.
///
/// Lines end with LF (a CR before it is dropped); a line that is not a gpsd message is
/// skipped. An unfinished line longer than ``GPSDConnection/lineLimit`` is an overflow: the
/// connection is to be dropped, never buffered without bound.
package struct GPSDLineReader {
  private var pending: [UInt8] = []

  package init() {}

  /// Feeds one chunk.
  ///
  /// - Returns: The messages of the lines this chunk completed, and whether the line still
  ///   unfinished is over the limit.
  package mutating func feed(_ chunk: [UInt8]) -> (messages: [GPSDMessage], overflowed: Bool) {
    pending += chunk
    var messages: [GPSDMessage] = []
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      var line = pending[start..<newline]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if !line.isEmpty, let message = try? GPSDMessage(line: line) { messages.append(message) }
      start = newline + 1
    }
    // NB: one removal per chunk, not one per line.
    pending.removeSubrange(..<start)
    return (messages, pending.count > GPSDConnection.lineLimit)
  }
}
