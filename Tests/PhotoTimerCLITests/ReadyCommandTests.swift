import Foundation
import PhotoTimerConcurrency
import PhotoTimerPOSIX
import Testing

/// `--start-when-ready`, end to end: the built binary on a camera whose empty picture the
/// astronaut walks into after 4 s, with dlib's real model.
@Suite(
  "A count that starts when the people are in, end to end", .serialized,
  .timeLimit(.minutes(4)))
struct ReadyCommandTests {
  /// How long the picture is empty when the camera starts.
  static let emptyFor = 4.0

  /// A camera that shows an empty, grey picture for ``emptyFor`` seconds, then the astronaut,
  /// at 30 frames a second for as long as it is read: `--camera` and `--ffmpeg-format`.
  ///
  /// NB: endless, as a camera is: under AddressSanitizer one search of the whole frame takes
  /// seconds, and a video file ran out before the photo (the camera "stopped sending"). Each
  /// frame is a frame of its own (see `PeopleCommandTests.blinkingVideo`).
  private static var arrivingCamera: [String] {
    let graph =
      "color=c=0x8a8580:s=512x512:r=30:d=\(emptyFor),format=yuvj420p[empty];"
      + "movie=\(PeopleCommandTests.astronaut.path),loop=loop=-1:size=1,setpts=N/30/TB,"
      + "format=yuvj420p[person];[empty][person]concat=n=2:v=1"
    return ["--camera", "ffmpeg:\(graph)", "--ffmpeg-format", "lavfi"]
  }

  /// Runs the command until its output holds `until`, then sends SIGINT; returns the run and
  /// how long after the start its output first held `starts`.
  private static func run(
    _ arguments: [String], starts: String, until: String
  ) async throws -> (run: CommandRun, started: Duration?) {
    let launched = ContinuousClock.now
    let started = Locked<Duration?>(nil)
    let run = try await CommandRun.run(arguments, interruptWhen: until, timeLimit: .seconds(180)) {
      output in
      guard output.contains(starts) else { return }
      started.withLock { $0 = $0 ?? launched.duration(to: .now) }
    }
    return (run, started.withLock { $0 })
  }

  @Test("--json: the count starts only once she is in the picture and still; one photo of her")
  func json() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (run, started) = try await Self.run(
      [
        "--json", "--start-when-ready", "-s", "1", "--no-location", "--filter", "none",
        "--blink-window", "0", "-o", folder.appendingPathComponent("photos").path,
      ] + Self.arrivingCamera, starts: #""event":"started""#, until: #""event":"captured""#)
    // NB: a photo, then Ctrl-C while framing for the next group: a session with a photo.
    #expect(run.status == 0, "\(run.error)")
    let start = try #require(started, "no count started: \(run.output)")
    // She enters 4 s after the camera starts, which is after the launch; then she must
    // hold still for 1 s. A lower bound only: a loaded machine makes it later, never sooner.
    #expect(start >= .seconds(Self.emptyFor + 1), "started \(start) after the launch")
    let events = try run.output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(events.filter { $0["event"] as? String == "started" }.count == 1)
    // What it waited for, then everyone ready, then the count.
    let names = events.map { event -> String in
      let name = event["event"] as? String ?? ""
      return name == "ready" ? "ready \(event["state"] as? String ?? "")" : name
    }
    let waited = try #require(names.firstIndex(of: "ready waiting"), "\(names)")
    let ready = try #require(names.firstIndex(of: "ready ready"), "\(names)")
    let counted = try #require(names.firstIndex(of: "started"), "\(names)")
    #expect(waited < ready && ready < counted, "\(names)")
    // NB: no "hold still" when she was still all along: her number's steady 1.5 s covers
    // the second of stillness.
    let captured = try #require(events.first { $0["event"] as? String == "captured" })
    let file = try #require(captured["file"] as? String)
    #expect(FileManager.default.fileExists(atPath: file))
    if let people = captured["people"] as? [String: Any] {
      #expect(people["count"] as? Int == 1, "\(people)")
    }
  }

  @Test("Plain lines say what the count waits for, then count; the same group starts no second")
  func plain() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stepOut = "Next group: step out of the picture first"
    let (run, _) = try await Self.run(
      [
        "--start-when-ready=1", "-s", "1", "--no-location", "--filter", "none", "-o",
        folder.appendingPathComponent("photos").path,
      ] + Self.arrivingCamera, starts: "Counting down: 1", until: stepOut)
    #expect(run.status == 0, "\(run.error)")
    let lines = run.output.split(separator: "\n").map { line in
      line.firstRange(of: "s  ").map { String(line[$0.upperBound...]) } ?? String(line)
    }
    // NB: "0 of 1" while the picture is empty, unless the model took longer than that to read
    // (a loaded machine): then "face model still loading" until she is in.
    let waiting = try #require(
      lines.firstIndex {
        $0.hasPrefix("Waiting for everyone: 0 of 1 · or press space to start now")
          || $0.hasPrefix("Face model still loading · or press space to start now")
      }, "\(lines)")
    // NB: "Hold still" only while her stillness since she was first seen is under a second:
    // she is still all along, and when the looks that count her take a second (a loaded
    // machine), she is ready as soon as she counts.
    let still = lines.firstIndex { $0.hasPrefix("Hold still") }
    let counting = try #require(lines.firstIndex { $0 == "Counting down: 1" }, "\(lines)")
    let saved = try #require(lines.firstIndex { $0.hasPrefix("Saved ") }, "\(lines)")
    let next = try #require(lines.firstIndex { $0.hasPrefix(stepOut) }, "\(lines)")
    #expect(waiting < (still ?? counting) && (still ?? waiting) < counting, "\(lines)")
    #expect(counting < saved && saved < next, "\(lines)")
    // She is still there, and still: no second count.
    #expect(lines.filter { $0 == "Counting down: 1" }.count == 1)
  }

  @Test("Refused with --no-people, with exit status 2 and the reason")
  func refused() async throws {
    let run = try await CommandRun.run(["--start-when-ready", "--no-people", "--camera", "scene"])
    #expect(run.status == 2)
    #expect(
      run.error.contains(
        "--start-when-ready looks for the people; it cannot be combined with --no-people"))
  }

  private static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-ready-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
