import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

/// Real gpsd, fed an NMEA log by `gpsfake` (package gpsd-clients) on a loopback port: for the
/// gpsd tests and the gpsd benchmark.
///
/// It is ready when gpsfake has added the log's device to gpsd and gpsd lists it. gpsfake
/// adds the device through gpsd's control socket and, when that fails, says nothing: gpsd
/// then serves with no receiver, for ever. So the start waits for gpsfake's line that the
/// log's first cycle begins (written once the add has been answered), then asks gpsd for its
/// devices once; a start without the device is stopped and made again.
///
/// NB: each gpsfake gets a fresh folder of its own as `TMPDIR`. gpsfake names gpsd's control
/// socket `$TMPDIR/gpsfake-<its pid>.sock`, and a killed gpsd leaves that file behind; when a
/// later gpsfake gets the same pid (pids wrap at 32,768, and a stress run spawns thousands of
/// processes), it finds the stale file, takes gpsd as ready, fails to connect to it and never
/// adds its device. `make stress` lost 3 runs of 20 to that: a gpsd that never reported.
package final class GPSFake: Sendable {
  /// The port gpsd serves on.
  package let port: UInt16
  /// gpsfake's own `TMPDIR`, where gpsd's control socket is: removed by ``stop()``.
  package let folder: String
  /// What gpsfake and its gpsd have written so far (both streams).
  package var log: String { said.withLock { $0 } }
  private let process: ChildProcess
  private let gpsd: Int32?
  private let said: Locked<String>
  private let stopped = Locked(false)

  /// Starts gpsfake replaying `log`, the log repeating, and returns once gpsd lists its device.
  ///
  /// A start whose gpsd has no device is stopped and made again, up to three times, on a newly
  /// chosen free port each time unless `port` names one.
  ///
  /// - Parameters:
  ///   - log: The NMEA log's path.
  ///   - cycle: Seconds between epochs.
  ///   - port: The port to serve on, e.g. one a previous gpsd served on; by default a free one.
  /// - Throws: ``GPSFakeError`` when gpsd does not start, or never lists the device.
  package init(
    replaying log: String, cycle: Double = 0.1, port: UInt16? = nil
  )
    throws(GPSFakeError)
  {
    let asked = port
    var reasons: [String] = []
    var tried: [UInt16] = []
    for _ in 0..<3 {
      // NB: a port chosen here is chosen again for each try: between the choice and gpsd's
      // bind another socket of the machine may take it (CI saw "Address already in use" three
      // times on one port, from an outgoing connection given it as its own).
      let port: UInt16
      if let asked { port = asked } else { port = try Self.freePort() }
      tried.append(port)
      let folder = try Self.makeFolder()
      let process: ChildProcess
      do {
        process = try ChildProcess(command: [
          "python3", "-c", Self.shim, folder, "-c", String(cycle), "-P", String(port), log,
        ])
      } catch {
        try? FileManager.default.removeItem(atPath: folder)
        throw GPSFakeError("could not start gpsfake: \(error)")
      }
      // NB: the shim sends gpsfake's standard output to its standard error: one pipe to read.
      process.output.closeQuietly()
      let (reason, said) = Self.waitForFirstCycle(of: process, port: port)
      let gpsd = ProcessTable.children(of: process.pid, named: "gpsd").first?.pid
      // NB: read to its end from now on, or gpsfake would block on a full pipe.
      let log = Locked(said)
      let errors = process.errors
      _ = ReaderThread(name: "phototimer.gpsfake \(port)") {
        while let bytes = try? errors.read(upTo: 4096), !bytes.isEmpty {
          log.withLock { $0 = String(($0 + String(decoding: bytes, as: UTF8.self)).suffix(8192)) }
        }
        errors.closeQuietly()
      }
      guard let reason else {
        self.port = port
        self.process = process
        self.folder = folder
        self.gpsd = gpsd
        self.said = log
        return
      }
      reasons.append(reason + (said.isEmpty ? "" : " (it said: \(said.suffix(300)))"))
      Self.stop(process, gpsd: gpsd, folder: folder)
    }
    let ports = Set(tried).sorted().map(String.init).joined(separator: ", ")
    throw GPSFakeError(
      "gpsfake on port \(ports) did not start: " + reasons.joined(separator: "; "))
  }

  /// Stops gpsfake and its gpsd and removes the folder; on return the port is closed. Safe
  /// to call more than once.
  package func stop() {
    let first = stopped.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    Self.stop(process, gpsd: gpsd, folder: folder)
  }

  deinit { stop() }

  /// Starts gpsfake on a thread of its own, never on the cooperative pool: the start waits
  /// (bounded: 20 s a try, three tries) for gpsd's first cycle, and a pool thread blocked that
  /// long stalls every task of the process (on 2 cores, every suite: CI saw all of them stop
  /// for 24 s, and a camera's first-frame limit ran out meanwhile).
  ///
  /// - Parameters: As ``init(replaying:cycle:port:)``.
  /// - Returns: gpsfake, with gpsd listing its device.
  /// - Throws: ``GPSFakeError`` as the initialiser does, or `CancellationError`.
  package static func start(
    replaying log: String, cycle: Double = 0.1, port: UInt16? = nil
  ) async throws -> GPSFake {
    try await OffPool.blocking { _ in try GPSFake(replaying: log, cycle: cycle, port: port) }
  }

  /// Stops gpsfake and its gpsd (``stop()``) on a thread of its own: the stop waits for them.
  package func shutDown() async {
    _ = try? await OffPool.blocking { _ in self.stop() }
  }

  /// gpsfake's start: its `TMPDIR` is the folder (the first argument), its standard output
  /// goes where its errors go, then it is exec'd with the remaining arguments.
  private static let shim = """
    import os, sys
    os.environ['TMPDIR'] = sys.argv[1]
    os.dup2(2, 1)
    os.execv('/usr/bin/gpsfake', ['gpsfake'] + sys.argv[2:])
    """

  /// Reads gpsfake's words until its first log cycle begins (it has added the device to gpsd
  /// by then, and gpsd has answered), then asks gpsd for its devices once.
  ///
  /// - Returns: Why it is not ready (`nil` when it is), and what it said.
  private static func waitForFirstCycle(
    of process: ChildProcess, port: UInt16
  ) -> (reason: String?, said: String) {
    var said = ""
    // NB: a bound, not a guess: the line comes within a second on an idle machine.
    let deadline = ContinuousClock.now + .seconds(20)
    while !said.contains("log cycle of ") {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return ("no first log cycle within 20 s", said) }
      guard let ready = try? Poll.wait([(process.errors, .readable)], timeout: left) else {
        return ("its output could not be read", said)
      }
      guard !ready[0].isEmpty else { continue }
      guard let bytes = try? process.errors.read(upTo: 4096), !bytes.isEmpty else {
        return ("gpsfake ended", said)
      }
      said += String(decoding: bytes, as: UTF8.self)
    }
    return (listsDevice(port) ? nil : "gpsd listed no device", said)
  }

  private static func stop(_ process: ChildProcess, gpsd: Int32?, folder: String) {
    // NB: gpsfake ignores SIGTERM; on SIGINT it stops its gpsd, waits until gpsd has ended
    // (so the port is closed) and ends, but not always at once (it waits on its clients).
    // Then its gpsd is killed, which ends gpsfake too ("daemon died"), and last gpsfake.
    process.send(SIGINT)
    if process.waitBlocking(timeout: .seconds(2)) == nil {
      if let gpsd, ProcessEntry(pid: gpsd)?.parent == process.pid { kill(gpsd, SIGKILL) }
      if process.waitBlocking(timeout: .seconds(2)) == nil {
        process.send(SIGKILL)
        _ = process.waitBlocking(timeout: nil)
      }
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  private static func makeFolder() throws(GPSFakeError) -> String {
    var template = Array((NSTemporaryDirectory() + "/phototimer-gpsfake-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw GPSFakeError("could not make a folder for gpsfake: errno \(errno)")
    }
    return String(cString: made)
  }

  /// A loopback port that nothing listens on now.
  package static func freePort() throws(GPSFakeError) -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw GPSFakeError("socket failed: errno \(errno)") }
    defer { close(fd) }
    var address = loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { throw GPSFakeError("bind failed: errno \(errno)") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Whether something accepts TCP connections on the loopback port.
  package static func canConnect(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// Whether gpsd on the loopback port answers `?DEVICES;` with at least one device (within 5 s).
  package static func listsDevice(_ port: UInt16) -> Bool {
    guard let wake = try? WakePipe() else { return false }
    defer { wake.close() }
    guard
      let socket = try? FileDescriptor.connectTCP(
        host: "127.0.0.1", port: Int(port), timeout: .seconds(5), wake: wake)
    else { return false }
    defer { socket.closeQuietly() }
    guard (try? socket.send(Array("?DEVICES;\n".utf8))) != nil else { return false }
    var received: [UInt8] = []
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      let ready = try? Poll.wait([(socket, .readable)], timeout: left)
      guard let ready, !ready[0].isEmpty else { continue }
      guard let bytes = try? socket.receive(upTo: 4096), !bytes.isEmpty else { return false }
      received += bytes
      // NB: whole lines only (a read may end inside the answer), split on the byte: gpsd ends
      // its lines with CR LF, which Swift counts as one Character, not as "\n".
      let lines = received.split(separator: 10, omittingEmptySubsequences: false).dropLast()
        .map { String(decoding: $0, as: UTF8.self) }
      if let answer = lines.first(where: { $0.contains(#""class":"DEVICES""#) }) {
        return answer.contains(#""path":"#)
      }
    }
  }

  private static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return address
  }
}

/// gpsfake or its gpsd could not be started as asked.
package struct GPSFakeError: Error, CustomStringConvertible {
  /// What went wrong, and what gpsfake said.
  package var description: String
  /// An error that says `description`.
  package init(_ description: String) { self.description = description }
}
