import Foundation
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import Testing

/// The people step end to end: the built binary, dlib's real model (Debian's `libdlib-data`),
/// NASA's astronaut portrait (public domain) as the camera.
@Suite("The people in the picture, end to end", .serialized, .timeLimit(.minutes(2)))
struct PeopleCommandTests {
  /// The portrait the face tests use.
  static let astronaut = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(
      "PhotoTimerFacesTests/Fixtures/astronaut.jpg")

  /// A camera that shows the portrait at 30 frames a second for as long as it is read:
  /// `--camera` and `--ffmpeg-format`. Endless, as a camera is: under AddressSanitizer one
  /// search of the whole frame takes seconds, and a video file ran out before the photo.
  static var astronautCamera: [String] {
    let graph = "movie=\(astronaut.path),loop=loop=-1:size=1,setpts=N/30/TB,format=yuvj420p"
    return ["--camera", "ffmpeg:\(graph)", "--ffmpeg-format", "lavfi"]
  }

  /// The portrait with her eyes painted shut (see the fixtures' README).
  static let astronautShut = astronaut.deletingLastPathComponent().appendingPathComponent(
    "astronaut-eyes-shut.jpg")

  /// A 40 s video in `folder` (MJPEG, 30 frames a second) of the astronaut blinking: eyes
  /// open for 0.6 s, shut for 0.5 s, over and over, so that the frame at zero is shut almost
  /// half the time and every second holds an open one.
  ///
  /// NB: every frame a frame of its own (the shut portrait laid over the open one by time):
  /// a video made by concatenating stills holds each still as one long frame, which ffmpeg
  /// plays as a burst of copies, then nothing until the next still.
  private static func blinkingVideo(in folder: URL) async throws -> URL {
    let video = folder.appendingPathComponent("blink.avi")
    let encoded = try await ChildProcess.run([
      "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin",
      "-loop", "1", "-framerate", "30", "-t", "40", "-i", astronaut.path,
      "-loop", "1", "-framerate", "30", "-t", "40", "-i", astronautShut.path,
      "-filter_complex", "[0:v][1:v]overlay=enable='gte(mod(t,1.1),0.6)',format=yuvj420p",
      "-r", "30", "-c:v", "mjpeg", "-q:v", "3", video.path,
    ])
    #expect(encoded.succeeded, "\(encoded.standardError)")
    return video
  }

  /// How far the eyes of `photo` are from the open portrait's, beside the shut one's: the mean
  /// difference over the eyes' band, open first.
  private static func eyeDistances(_ photo: URL) throws -> (open: Double, shut: Double) {
    func decode(_ url: URL) throws -> Frame {
      try JPEGCodec.decode([UInt8](try Data(contentsOf: url)), path: url.path)
    }
    let (frame, open, shut) = (try decode(photo), try decode(astronaut), try decode(astronautShut))
    #expect(frame.width == open.width && frame.height == open.height)
    func distance(_ a: Frame, _ b: Frame) -> Double {
      // NB: the band across both eyes (the landmarks put them at about y 100, x 195-290).
      var sum = 0
      var count = 0
      for y in 88..<112 {
        for x in 185..<300 {
          for channel in 0..<3 {
            let index = y * a.bytesPerRow + x * 3 + channel
            sum += abs(Int(a.pixels[index]) - Int(b.pixels[index]))
            count += 1
          }
        }
      }
      return Double(sum) / Double(count)
    }
    return (distance(frame, open), distance(frame, shut))
  }

  @Test(
    "Blinking at zero: the photo is a frame of the window with her eyes open, or says it is not; never a wrong word",
    arguments: [1, 2, 3])
  func blinkWindow(attempt: Int) async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = try await Self.blinkingVideo(in: folder)
    // NB: a count whose zero falls at a different phase of the blinks each attempt.
    let run = try await CommandRun.run([
      "--json", "-s", "\(18 + attempt)", "--no-location", "--filter", "none", "--camera",
      "ffmpeg:\(video.path)", "-o", folder.appendingPathComponent("photos").path,
    ])
    #expect(run.status == 0, "\(run.error)")
    let events = try Self.events(run.output)
    let step = try #require(
      events.first { $0["event"] as? String == "step" && $0["step"] as? String == "people" })
    let captured = try #require(events.last)
    #expect(captured["event"] as? String == "captured")
    if step["outcome"] as? String == "dropped" {
      #expect(Self.lateReasons.contains(step["reason"] as? String ?? ""), "\(step)")
      return
    }
    let people = try #require(captured["people"] as? [String: Any], "\(captured)")
    #expect(people["count"] as? Int == 1)
    let offset = try #require(people["frameOffset"] as? Double, "\(people)")
    #expect(offset > -0.26 && offset <= 1.0, "\(people)")
    let photo = try #require(captured["file"] as? String)
    let (open, shut) = try Self.eyeDistances(URL(fileURLWithPath: photo))
    let reason = people["frameReason"] as? String ?? ""
    // NB: a passing frame after zero, or just before it when the judge, slower than the
    // blink's shut half-second beside the other cases, reaches no open frame after zero
    // (FrameAtZeroTests proves the order on recorded frames). On a machine so loaded that it
    // reaches none in the whole window (make stress: both cores busy beside the suite), the
    // photo is the best it judged and says she blinks. Either way the words are the picture's.
    // NB: what the count said of her as it changed, for a failure to be read.
    let said = events.filter {
      $0["event"] as? String == "status" && $0["step"] as? String == "people"
    }.compactMap { $0["text"] as? String }
    let context = "\(people); the count said: \(said.suffix(8))"
    if ["every eye open", "every eye open, just before zero"].contains(reason) {
      #expect(people["eyesClosed"] as? Int == 0, "\(context)")
      #expect(
        open < shut, "said open; the photo's eyes: \(open) from open, \(shut) from shut; \(context)"
      )
    } else {
      #expect(reason == "the best there was: 1 blinking", "\(context)")
      #expect(people["eyesClosed"] as? Int == 1, "\(context)")
      #expect(
        shut < open, "said shut; the photo's eyes: \(open) from open, \(shut) from shut; \(context)"
      )
    }
  }

  @Test("--blink-window 0: the frame at zero, whoever blinks; the event says no frame offset")
  func noBlinkWindow() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = try await Self.blinkingVideo(in: folder)
    let run = try await CommandRun.run([
      "--json", "-s", "20", "--no-location", "--filter", "none", "--blink-window", "0",
      "--camera", "ffmpeg:\(video.path)", "-o", folder.appendingPathComponent("photos").path,
    ])
    #expect(run.status == 0, "\(run.error)")
    let captured = try #require(try Self.events(run.output).last)
    #expect(captured["event"] as? String == "captured")
    if let people = captured["people"] as? [String: Any] {
      #expect(people["frameOffset"] == nil, "\(people)")
    }
  }

  @Test("--blink-window refuses what is not 0 to 5 seconds, with exit status 2")
  func badBlinkWindow() async throws {
    let run = try await CommandRun.run(["--blink-window", "9", "--camera", "scene"])
    #expect(run.status == 2)
    #expect(run.error.contains("--blink-window takes seconds from 0 to 5, not '9'"), "\(run.error)")
  }

  private static func events(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  private static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-people-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Why the step may be left out at zero by design: the people step runs on the CPU
  /// executor below the count's priority, and beside the VM suite (qemu on both cores at the
  /// default priority) its first search once waited out a 20 s count. Detection itself is
  /// proved without a clock by DlibFaceFinderTests, on the same portrait.
  static let lateReasons: Set<String> = [
    "face model still loading", "waiting for the camera", "looking for people",
  ]

  @Test("The astronaut is one person with her eyes open, said during the count and in the photo")
  func onePerson() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await CommandRun.run([
      "--json", "-s", "20", "--no-location", "--camera", "file:\(Self.astronaut.path)",
      "-o", folder.path,
    ])
    #expect(run.status == 0, "\(run.error)")
    let events = try Self.events(run.output)
    let statuses = events.filter {
      $0["event"] as? String == "status" && $0["step"] as? String == "people"
    }.compactMap { $0["text"] as? String }
    #expect(statuses.first == "face model still loading", "\(statuses)")
    let step = try #require(
      events.first { $0["event"] as? String == "step" && $0["step"] as? String == "people" })
    let captured = try #require(events.last)
    #expect(captured["event"] as? String == "captured")
    if step["outcome"] as? String == "dropped" {
      // Late by design: the photo is taken without it, and says nothing of people.
      #expect(Self.lateReasons.contains(step["reason"] as? String ?? ""), "\(step)")
      #expect(captured["people"] == nil)
      return
    }
    #expect(statuses.contains("1 person · eyes open"), "\(statuses)")
    #expect(step["outcome"] as? String == "succeeded")
    #expect(step["value"] as? String == "1 person · eyes open")
    let people = try #require(captured["people"] as? [String: Any])
    #expect(people["count"] as? Int == 1)
    #expect(people["eyesClosed"] as? Int == 0)
  }

  @Test("--no-people: the step is off from the start, no model is read, the photo has no people")
  func off() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await CommandRun.run([
      "--json", "-s", "1", "--no-location", "--no-people", "--camera",
      "file:\(Self.astronaut.path)", "-o", folder.path,
    ])
    #expect(run.status == 0, "\(run.error)")
    let events = try Self.events(run.output)
    let people = events.filter { $0["step"] as? String == "people" }
    #expect(people.count == 1)
    #expect(people.first?["outcome"] as? String == "skipped")
    #expect(people.first?["reason"] as? String == "people off (--no-people)")
    #expect(events.last?["people"] == nil)
  }

  @Test("The plain lines say who is in the picture beside the photo's other facts")
  func plainLines() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try await CommandRun.run([
      "-s", "20", "--no-location", "--camera", "file:\(Self.astronaut.path)", "-o", folder.path,
    ])
    #expect(run.status == 0, "\(run.error)")
    if let late = Self.lateReasons.first(where: {
      run.output.contains("people – left out: \($0)")
    }) {
      // Late by design (see lateReasons): the facts then say nothing of people.
      #expect(!run.output.contains("people: "), "left out (\(late)), yet: \(run.output)")
      return
    }
    #expect(run.output.contains("people ✓ 1 person · eyes open"), "\(run.output)")
    #expect(run.output.contains("people: 1 person, eyes open"), "\(run.output)")
  }
}
