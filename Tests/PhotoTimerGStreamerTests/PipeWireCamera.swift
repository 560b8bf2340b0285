import Foundation

/// A PipeWire camera for one test: a PipeWire daemon and WirePlumber of its own (a private
/// runtime folder; WirePlumber under `dbus-run-session`), and a `videotestsrc ! pipewiresink
/// mode=provide` Video/Source node. Each test starts its own: the fake source serves one
/// reader at a time, and none once a reader is killed mid-stream.
final class PipeWireCamera {
  /// The node's name.
  let node: String
  /// The runtime folder this process's PipeWire clients are pointed at.
  let runtime: URL
  private var daemons: [Process] = []
  private(set) var source: Process?

  struct NotReady: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts the daemon, WirePlumber and the node, and returns once the node is listed.
  init(
    node: String = "fakecam", format: String = "YUY2", width: Int = 640, height: Int = 480
  )
    throws
  {
    self.node = node
    runtime = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-pw-\(getpid())-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // NB: process-wide: PipeWire clients in this process (pipewiresrc) connect here.
    setenv("PIPEWIRE_RUNTIME_DIR", runtime.path, 1)
    daemons.append(try start(["pipewire"]))
    try waitUntil("the PipeWire daemon answers") { try self.tool(["pw-cli", "info", "0"]).0 == 0 }
    daemons.append(try start(["dbus-run-session", "--", "wireplumber"]))
    source = try start([
      "gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=smpte", "!",
      "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=15/1", "!",
      "pipewiresink", "mode=provide",
      // NB: gst-launch joins its arguments and parses them again: the quotes keep the space.
      "stream-properties=\"props,media.class=Video/Source,node.name=\(node),"
        + "node.description=\\\"Fake camera\\\"\"",
    ])
    try waitUntil("the node \(node) is listed") {
      try self.tool(["pw-cli", "ls", "Node"]).1.contains("node.name = \"\(node)\"")
    }
  }

  /// Stops the daemon (the camera's PipeWire goes away), leaving the node's process to end.
  func stopDaemon() {
    for daemon in daemons { stop(daemon) }
  }

  /// Stops everything and removes the runtime folder.
  func stop() {
    // NB: gst-launch stops only on SIGINT, and a fake camera has nothing to clean up.
    if let source, source.isRunning {
      kill(-source.processIdentifier, SIGKILL)
      source.waitUntilExit()
    }
    stopDaemon()
    try? FileManager.default.removeItem(at: runtime)
  }

  deinit { stop() }

  private func environment() -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment["PIPEWIRE_RUNTIME_DIR"] = runtime.path
    environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
    return environment
  }

  private func start(_ command: [String]) throws -> Process {
    let process = Process()
    // NB: Foundation starts each child as the leader of a process group of its own; stopping
    // the group stops what it started too (dbus-run-session's wireplumber).
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.environment = environment()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  private func stop(_ process: Process) {
    guard process.isRunning else { return }
    kill(-process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  /// Runs a PipeWire tool to its end: its status and output.
  private func tool(_ command: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    process.environment = environment()
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  /// Asks again until `ready` says yes: each ask is an answer from PipeWire itself, and the
  /// whole wait is bounded (20 s), failing with what it waited for.
  private func waitUntil(_ what: String, _ ready: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if try ready() { return }
      usleep(50_000)
    }
    throw NotReady(description: "PipeWire test camera: \(what) did not happen within 20 s")
  }
}
