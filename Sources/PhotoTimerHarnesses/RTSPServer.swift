import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

/// An RTSP camera on 127.0.0.1 for the tests: GStreamer's RTSP server (scripts/rtsp-server.py)
/// streaming a moving test pattern at `/cam`, behind a user and password when given.
///
/// ```swift
/// let server = try await RTSPServer.start(user: "bob", password: "s3cret")
/// let address = server.address(user: "bob", password: "s3cret")  // rtsp://bob:s3cret@127.0.0.1:PORT/cam
/// await server.stop()
/// ```
package final class RTSPServer: Sendable {
  /// The port it listens on.
  package let port: UInt16
  private let child: ChildProcess
  private let wake: WakePipe
  private let reader: ReaderThread
  private let said: Locked<String>

  private init(
    port: UInt16, child: ChildProcess, wake: WakePipe, reader: ReaderThread, said: Locked<String>
  ) {
    self.port = port
    self.child = child
    self.wake = wake
    self.reader = reader
    self.said = said
  }

  /// The server's script, in this package's `scripts` folder.
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/rtsp-server.py").path

  /// Starts the server and returns once it listens (at most 20 s).
  ///
  /// - Parameters:
  ///   - user: The user it asks for (basic authentication), or `nil` for none.
  ///   - password: The user's password.
  /// - Throws: ``HarnessError`` when it does not start, with what it said.
  package static func start(
    user: String? = nil, password: String? = nil
  ) async throws
    -> RTSPServer
  {
    var command = ["/usr/bin/python3", script]
    if let user { command += ["--user", user, "--password", password ?? ""] }
    let (child, wake) = try ChildProcess.startWithWake(command)
    let said = Locked("")
    let (lines, more) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let reader = ReaderThread(name: "rtsp-server") {
      ChildProcess.collect([child.output, child.errors], wake: wake) { _, chunk in
        said.withLock { $0 = String(($0 + String(decoding: chunk, as: UTF8.self)).suffix(8192)) }
        more.yield()
      }
      more.finish()
    }
    let deadline = Task {
      try? await Task.sleep(for: .seconds(20))
      more.finish()
    }
    defer { deadline.cancel() }
    for await _ in lines {
      let text = said.withLock { $0 }
      if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }),
        let port = UInt16(line.dropFirst("ready ".count))
      {
        return RTSPServer(port: port, child: child, wake: wake, reader: reader, said: said)
      }
    }
    let text = said.withLock { $0 }
    child.terminate()
    _ = try? await child.wait()
    wake.signal()
    await reader.join()
    child.closePipes()
    wake.close()
    throw HarnessError(description: "the RTSP server did not start: \(text.suffix(1000))")
  }

  /// `rtsp://user:password@127.0.0.1:PORT/cam`, or without the user when none is given.
  package func address(user: String? = nil, password: String? = nil) -> String {
    let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
    return "rtsp://\(credentials)127.0.0.1:\(port)/cam"
  }

  /// What the server said so far.
  package var log: String { said.withLock { $0 } }

  /// Kills the server at once (SIGKILL, as a camera that loses power); ``stop()`` then reaps it.
  package func kill() { child.send(SIGKILL) }

  /// Stops the server (SIGKILL, as a camera that loses power) and waits until it is gone.
  package func stop() async {
    child.send(SIGKILL)
    _ = try? await child.wait()
    wake.signal()
    await reader.join()
    child.closePipes()
    wake.close()
  }
}

/// A harness that could not start, with what its program said.
package struct HarnessError: Error, CustomStringConvertible {
  package var description: String
}
