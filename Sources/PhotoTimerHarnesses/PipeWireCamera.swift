import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// A PipeWire camera for one test or benchmark: a PipeWire daemon and WirePlumber of its own
/// (a private runtime folder; WirePlumber under `dbus-run-session`), and a `videotestsrc !
/// pipewiresink mode=provide` Video/Source node. Each test starts its own: the fake source
/// serves one reader at a time, and none once a reader is killed mid-stream. A process that
/// should read it gets ``environment``.
///
/// NB: every wait is asynchronous (ChildProcess), never a blocking wait on the cooperative
/// pool: blocked pool threads starved the other suites running alongside.
package final class PipeWireCamera: Sendable {
  /// The node's name.
  package let node: String
  /// The runtime folder this process's PipeWire clients are pointed at.
  package let runtime: URL
  /// The stream the node gives: YUY2 at this size and rate.
  private let width: Int
  private let height: Int
  private let rate: Int
  /// A JPEG the node shows still, at its own size, instead of the test pattern.
  private let picture: String?
  private let daemons: Locked<[ChildProcess]> = Locked([])
  private let source: Locked<ChildProcess?> = Locked(nil)

  /// What a PipeWire client in another process needs to find this daemon.
  package var environment: [String] {
    ["XDG_RUNTIME_DIR=\(runtime.path)", "PIPEWIRE_RUNTIME_DIR=\(runtime.path)"]
  }

  package struct NotReady: Error, CustomStringConvertible {
    package var description: String
  }

  private init(node: String, width: Int, height: Int, rate: Int, picture: String?) throws {
    self.node = node
    self.picture = picture
    self.width = width
    self.height = height
    self.rate = rate
    runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pw-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  /// Runs `body` with a PipeWire camera started for it, and stops the camera after, however
  /// `body` ends. The node shows SMPTE bars at `width` × `height`, or, given `picture` (a JPEG
  /// file), that picture still at its own size, as a webcam pointed at it would.
  nonisolated(nonsending) package static func with<T>(
    node: String = "fakecam", width: Int = 640, height: Int = 480, rate: Int = 15,
    picture: String? = nil, _ body: (PipeWireCamera) async throws -> T
  ) async throws -> T {
    let camera = try PipeWireCamera(
      node: node, width: width, height: height, rate: rate, picture: picture)
    do {
      try await camera.start()
      let result = try await body(camera)
      await camera.stop()
      return result
    } catch {
      await camera.stop()
      throw error
    }
  }

  /// Starts the daemon, WirePlumber and the node, and returns once the node is listed.
  private func start() async throws {
    // NB: process-wide: PipeWire clients in this process (pipewiresrc) connect here.
    setenv("PIPEWIRE_RUNTIME_DIR", runtime.path, 1)
    let pipewire = try spawn(["pipewire"])
    daemons.withLock { $0.append(pipewire) }
    try await waitUntil("the PipeWire daemon answers") {
      try await self.tool(["pw-cli", "info", "0"]).exit == .status(0)
    }
    let wireplumber = try spawn(["dbus-run-session", "--", "wireplumber"])
    daemons.withLock { $0.append(wireplumber) }
    let shown =
      if let picture {
        // NB: decoded again for every frame (a live still); `drop-allocation` keeps the
        // converter off pipewiresink's own buffers, which it took for invalid and crashed.
        [
          "multifilesrc", "location=\(picture)", "loop=true",
          "caps=image/jpeg,framerate=\(rate)/1", "!", "jpegdec", "!", "videoconvert", "!",
          "video/x-raw,format=YUY2", "!", "identity", "drop-allocation=true", "sync=true",
        ]
      } else {
        [
          "videotestsrc", "is-live=true", "pattern=smpte", "!",
          "video/x-raw,format=YUY2,width=\(width),height=\(height),framerate=\(rate)/1",
        ]
      }
    let node = try spawn(
      ["gst-launch-1.0", "-q"] + shown + [
        "!", "pipewiresink", "mode=provide",
        // NB: gst-launch joins its arguments and parses them again: the quotes keep the space.
        "stream-properties=\"props,media.class=Video/Source,node.name=\(self.node),"
          + "node.description=\\\"Fake camera\\\"\"",
      ])
    source.withLock { $0 = node }
    try await waitUntil("the node \(self.node) is listed") {
      try await self.tool(["pw-cli", "ls", "Node"]).output.contains(
        "node.name = \"\(self.node)\"")
    }
  }

  /// Stops the daemon (the camera's PipeWire goes away), leaving the node's process.
  package func stopDaemon() async {
    let running = daemons.withLock { daemons -> [ChildProcess] in
      defer { daemons = [] }
      return daemons
    }
    for daemon in running { await end(daemon, signal: SIGTERM) }
  }

  /// Stops everything and removes the runtime folder.
  package func stop() async {
    // NB: gst-launch stops only on SIGINT, and a fake camera has nothing to clean up.
    if let node = source.withLock({ $0 }) { await end(node, signal: SIGKILL) }
    await stopDaemon()
    try? FileManager.default.removeItem(at: runtime)
  }

  /// The command in a session of its own (so that stopping the session stops what it
  /// started: dbus-run-session's wireplumber), its output discarded, pointed at the runtime.
  private func spawn(_ command: [String]) throws -> ChildProcess {
    try ChildProcess(
      command: [
        "/bin/sh", "-c", "exec setsid env -u DBUS_SESSION_BUS_ADDRESS \"$@\" >/dev/null 2>&1",
        "sh",
      ] + environment + command)
  }

  private func end(_ child: ChildProcess, signal: Int32) async {
    // NB: setsid made the child the leader of its own process group.
    kill(-child.pid, signal)
    _ = try? await child.stop()
    child.closePipes()
  }

  private func tool(_ command: [String]) async throws -> ChildProcess.Completion {
    try await ChildProcess.run(["env"] + environment + command)
  }

  /// Asks again until `ready` says yes: each ask is an answer from PipeWire itself, and the
  /// whole wait is bounded (20 s), failing with what it waited for.
  private func waitUntil(_ what: String, _ ready: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if try await ready() { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw NotReady(description: "PipeWire test camera: \(what) did not happen within 20 s")
  }
}
