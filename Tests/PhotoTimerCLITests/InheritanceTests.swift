import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// What a host program leaves open does not live on in the cameras' children.
@Suite("Descriptors a host left open", .serialized, .timeLimit(.minutes(1)))
struct InheritanceTests {
  @Test("A shell's fd 7 (no close-on-exec) reaches phototimer, never the ffmpeg it starts")
  func hostDescriptor() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-host-fd-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: file) }
    // NB: the shell opens fd 7 as a host program would, then becomes phototimer.
    let script =
      "exec 7>\"$1\"; shift; exec \"$@\""
    let command = [
      "/bin/sh", "-c", script, "sh", file.path, "env", "HOME=\(CommandRun.home.path)",
      CommandRun.binary.path, "--camera", "ffmpeg:testsrc2=size=320x240:rate=15",
      "--ffmpeg-format", "lavfi", "--json", "-s", "30", "--no-location",
    ]
    let seen = Locked<(program: [String], ffmpeg: [String])?>(nil)
    let run = try await ChildProcess.run(command, timeLimit: .seconds(50)) { child, output in
      // Once the camera step is done, ffmpeg streams: look at what each process holds.
      guard String(decoding: output, as: UTF8.self).contains("\"step\":\"camera\""),
        seen.withLock({ $0 == nil })
      else { return }
      let ffmpeg = ProcessTable.children(of: child.pid, named: "ffmpeg").first
      seen.withLock {
        $0 = (Self.targets(of: child.pid), ffmpeg.map { Self.targets(of: $0.pid) } ?? [])
      }
      child.send(SIGINT)
    }
    #expect(run.exit == .status(130), "\(run.standardError)")
    let (program, ffmpeg) = try #require(seen.withLock { $0 })
    // phototimer itself was handed fd 7 (the test holds): ffmpeg was not.
    #expect(program.contains(file.path), "\(program)")
    #expect(!ffmpeg.isEmpty, "no ffmpeg was streaming")
    #expect(!ffmpeg.contains(file.path), "ffmpeg holds the host's file: \(ffmpeg)")
  }

  /// Where each of a process's descriptors leads.
  static func targets(of pid: Int32) -> [String] {
    let folder = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")
    }
  }
}
