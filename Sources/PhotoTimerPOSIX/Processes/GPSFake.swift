import Foundation
import PhotoTimer

#if canImport(Glibc)
  import Glibc
#endif

/// Real gpsd, fed an NMEA log by `gpsfake` (package gpsd-clients) on a loopback port: for the
/// gpsd tests and the gpsd benchmark.
///
/// It is ready when gpsd lists the log's device, not merely when its port accepts: gpsfake
/// adds the device through gpsd's control socket after gpsd has started, and when that fails
/// gpsfake says nothing and gpsd serves with no receiver, for ever.
///
/// NB: each gpsfake gets a fresh folder of its own as `TMPDIR`. gpsfake names gpsd's control
/// socket `$TMPDIR/gpsfake-<its pid>.sock`, and a killed gpsd leaves that file behind; when a
/// later gpsfake gets the same pid (pids wrap at 32,768, and a stress run spawns thousands of
/// processes), it finds the stale file, takes gpsd as ready, fails to connect to it and never
/// adds its device. `make stress` lost 3 runs of 20 to that: a gpsd that never reported.
package final class GPSFake: Sendable {
  /// The port gpsd serves on.
  package let port: UInt16
  /// What gpsfake and its gpsd wrote to their standard output and error so far.
  package var log: String {
    (try? String(contentsOfFile: folder + "/gpsfake.log", encoding: .utf8)) ?? ""
  }
  /// gpsfake's own `TMPDIR`, where gpsd's control socket is: removed by ``stop()``.
  package let folder: String
  private let process: ChildProcess
  private let gpsd: Int32?
  private let stopped = Locked(false)

  /// Starts gpsfake replaying `log` and returns once gpsd lists its device.
  ///
  /// A start whose gpsd has no device after 10 s is stopped and made again, up to three times.
  ///
  /// - Parameters:
  ///   - log: The NMEA log's path.
  ///   - cycle: Seconds between epochs.
  ///   - once: Replay the log once, then end (gpsd then closes its clients' connections);
  ///     otherwise the log repeats.
  ///   - port: The port to serve on, e.g. one a previous gpsd served on; by default a free one.
  /// - Throws: ``GPSFakeError`` when gpsd does not start, or never lists the device.
  package init(
    replaying log: String, cycle: Double = 0.1, once: Bool = false, port: UInt16? = nil
  ) throws(GPSFakeError) {
    let chosen: UInt16
    if let port { chosen = port } else { chosen = try Self.freePort() }
    let port = chosen
    var reasons: [String] = []
    for _ in 0..<3 {
      let folder = try Self.makeFolder()
      let process: ChildProcess
      do {
        process = try ChildProcess(
          command: [
            "python3", "-c", Self.shim, folder, "-q", "-c", String(cycle), "-P", String(port),
          ] + (once ? ["-1"] : []) + [log])
      } catch {
        try? FileManager.default.removeItem(atPath: folder)
        throw GPSFakeError("could not start gpsfake: \(error)")
      }
      // NB: the shim sends both streams to the folder's log; our pipes stay unread.
      process.closePipes()
      let reason = Self.waitUntilReady(port: port, process: process)
      let gpsd = ProcessTable.children(of: process.pid, named: "gpsd").first?.pid
      guard let reason else {
        self.port = port
        self.process = process
        self.folder = folder
        self.gpsd = gpsd
        return
      }
      let said = (try? String(contentsOfFile: folder + "/gpsfake.log", encoding: .utf8)) ?? ""
      reasons.append(reason + (said.isEmpty ? "" : " (it said: \(said.suffix(300)))"))
      Self.stop(process, gpsd: gpsd, port: port, folder: folder)
    }
    throw GPSFakeError(
      "gpsfake on port \(port) did not start: " + reasons.joined(separator: "; "))
  }

  /// Stops gpsfake and its gpsd, waits until the port is closed and removes the folder.
  /// Safe to call more than once.
  package func stop() {
    let first = stopped.withLock { done in
      defer { done = true }
      return !done
    }
    guard first else { return }
    Self.stop(process, gpsd: gpsd, port: port, folder: folder)
  }

  deinit { stop() }

  /// gpsfake's start: its `TMPDIR` is the folder (the first argument), its output goes to the
  /// folder's log, then it is exec'd with the remaining arguments.
  private static let shim = """
    import os, sys
    folder = sys.argv[1]
    os.environ['TMPDIR'] = folder
    log = os.open(os.path.join(folder, 'gpsfake.log'), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1); os.dup2(log, 2); os.close(log)
    os.execv('/usr/bin/gpsfake', ['gpsfake'] + sys.argv[2:])
    """

  /// Waits until gpsd accepts on `port` and lists a device; the reason when it does not.
  private static func waitUntilReady(port: UInt16, process: ChildProcess) -> String? {
    // NB: waiting for another process is an integration test's only real wait; each is
    // bounded and polls the condition itself, it does not guess a duration.
    let accepting = ContinuousClock.now + .seconds(15)
    while !canConnect(port) {
      if let exit = process.exit { return "gpsfake ended (\(exit))" }
      if ContinuousClock.now > accepting { return "gpsd did not accept within 15 s" }
      usleep(20_000)
    }
    let listing = ContinuousClock.now + .seconds(10)
    while !listsDevice(port) {
      if let exit = process.exit { return "gpsfake ended (\(exit))" }
      if ContinuousClock.now > listing { return "gpsd listed no device within 10 s" }
      usleep(50_000)
    }
    return nil
  }

  private static func stop(_ process: ChildProcess, gpsd: Int32?, port: UInt16, folder: String) {
    // NB: gpsfake ignores SIGTERM; on SIGINT it stops its gpsd and ends, but not always at
    // once (it waits on its clients): a bounded wait, then SIGKILL for it and for its gpsd.
    process.send(SIGINT)
    if process.waitBlocking(timeout: .seconds(2)) == nil {
      process.send(SIGKILL)
      _ = process.waitBlocking(timeout: nil)
    }
    if let gpsd, ProcessTable.commandLine(of: gpsd).contains(String(port)) {
      kill(gpsd, SIGKILL)
    }
    let closing = ContinuousClock.now + .seconds(10)
    while canConnect(port), ContinuousClock.now < closing { usleep(10_000) }
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

  /// Whether gpsd on the loopback port answers `?DEVICES;` with at least one device (within 1 s).
  package static func listsDevice(_ port: UInt16) -> Bool {
    guard let wake = try? WakePipe() else { return false }
    defer { wake.close() }
    guard
      let socket = try? FileDescriptor.connectTCP(
        host: "127.0.0.1", port: Int(port), timeout: .seconds(1), wake: wake)
    else { return false }
    defer { socket.closeQuietly() }
    guard (try? socket.send(Array("?DEVICES;\n".utf8))) != nil else { return false }
    var text = ""
    let deadline = ContinuousClock.now + .seconds(1)
    while ContinuousClock.now < deadline {
      let ready = try? Poll.wait([(socket, .readable)], timeout: .milliseconds(100))
      guard let ready, !ready[0].isEmpty else { continue }
      guard let bytes = try? socket.receive(upTo: 4096), !bytes.isEmpty else { return false }
      text += String(decoding: bytes, as: UTF8.self)
      for line in text.split(separator: "\n") where line.contains(#""class":"DEVICES""#) {
        return line.contains(#""path":"#)
      }
    }
    return false
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
