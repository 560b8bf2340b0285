import Foundation
import Testing

/// Runs the built binary, as a user would.
struct CommandRun {
  var status: Int32
  var output: String
  var error: String

  /// The `phototimer` binary next to this test bundle.
  static let binary: URL = {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return bundle.appendingPathComponent("phototimer")
  }()

  /// Runs `phototimer` with `arguments`; `interrupt` sends SIGINT once the first line is out.
  static func run(_ arguments: [String], interruptAfterFirstLine: Bool = false) throws -> CommandRun
  {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    var collected = Data()
    if interruptAfterFirstLine {
      // Read until the first line, so the signal arrives mid-run, not before the handler.
      while !collected.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        collected += chunk
      }
      process.interrupt()
    }
    collected += output.fileHandleForReading.readDataToEndOfFile()
    let errors = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandRun(
      status: process.terminationStatus, output: String(decoding: collected, as: UTF8.self),
      error: String(decoding: errors, as: UTF8.self))
  }
}

@Suite("phototimer command", .serialized, .timeLimit(.minutes(1)))
struct PhotoTimerCommandTests {
  @Test("The simulation prints each status change and ends captured, exit 0")
  func simulation() throws {
    let run = try CommandRun.run(["--simulate", "--seconds", "1"])
    #expect(run.status == 0)
    #expect(run.error.isEmpty)
    // Each line is "+S.mmms  text".
    let lines = run.output.split(separator: "\n").map { line in
      line.firstRange(of: "s  ").map { String(line[$0.upperBound...]) } ?? String(line)
    }
    #expect(lines.first == "counting: 1")
    #expect(lines.contains("waiting for camera"))
    #expect(lines.last == "captured: f/2.8 · 1/60s · ISO 400, no location, Natural")
    #expect(!run.output.contains("\u{1B}"))  // no escape codes into a pipe
  }

  @Test(
    "Bad usage says what to change and exits 64",
    arguments: [
      (
        ["--seconds", "abc"], "--seconds takes a whole number of seconds from 0 to 3600, not 'abc'"
      ),
      (["--seconds=4000"], "--seconds takes a whole number of seconds from 0 to 3600, not '4000'"),
      (["-s"], "-s needs a value"),
      (["--frobnicate"], "unknown option '--frobnicate'"),
      (
        ["--location", "91,0"],
        "--location: latitude 91.0 is out of range: use decimal degrees from -90 to 90"
      ),
      (["--gpsd", "gps:0"], "--gpsd takes HOST:PORT with a port from 1 to 65535, not 'gps:0'"),
      (
        ["--no-location", "--location=1,2"],
        "--no-location and --location cannot be combined; choose one source of location"
      ),
    ])
  func badUsage(arguments: [String], message: String) throws {
    let run = try CommandRun.run(arguments)
    #expect(run.status == 64)
    #expect(run.error.contains("error: \(message)"))
    #expect(run.error.contains("usage: phototimer"))
    #expect(run.output.isEmpty)
  }

  @Test("--location tags the photo with the named place; --no-location skips the step")
  func location() throws {
    let paris = try CommandRun.run(["--seconds", "0", "--location", "48.8584,2.2945"])
    #expect(paris.status == 0)
    #expect(paris.output.contains("location ready: Paris 16 Passy, Paris, France"))
    #expect(paris.output.contains("captured: f/2.8 · 1/60s · ISO 400, Paris 16 Passy"))

    let off = try CommandRun.run(["--seconds", "0", "--no-location"])
    #expect(off.status == 0)
    #expect(off.output.contains("location skipped: location off (--no-location)"))
    #expect(off.output.contains("no location"))
  }

  @Test("gpsd not running: the photo is still taken, and the line says what to do")
  func gpsdNotRunning() throws {
    // Port 1 on loopback: nothing listens there.
    let run = try CommandRun.run(["--seconds", "0", "--gpsd", "127.0.0.1:1"])
    #expect(run.status == 0)
    #expect(run.output.contains("location failed: gpsd not running on 127.0.0.1:1; start it"))
  }

  @Test("SIGINT cancels the run cleanly: exit 130, last line says cancelled")
  func interrupt() throws {
    let run = try CommandRun.run(["--seconds", "30"], interruptAfterFirstLine: true)
    #expect(run.status == 130)
    #expect(run.output.hasSuffix("cancelled\n"))
  }

  @Test("--help and --version exit 0")
  func helpAndVersion() throws {
    let help = try CommandRun.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("-s, --seconds N"))
    let version = try CommandRun.run(["--version"])
    #expect(version.status == 0)
    #expect(version.output.hasPrefix("phototimer "))
  }
}
