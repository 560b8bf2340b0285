import Foundation
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import Testing

/// One boot of the tests' VM (scripts/vm): a real V4L2 driver, vivid, with this machine's
/// `phototimer` run against it by scripts/vm/vivid-checks.sh; each test reads its part.
/// NB: the VM's CPU is emulated (TCG), so the checks are few and run in one boot (about 3 min).
enum VividRun {
  /// What the guest left: a folder per check.
  struct Outcome: Sendable {
    let folder: URL

    func text(_ path: String) -> String {
      (try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    func status(_ check: String) -> Int32? {
      Int32(text("\(check)/rc").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The check's times: its start, the action's instant (for checks with one), its end.
    func times(_ check: String) -> [Double] {
      text("\(check)/times").split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }

    /// The photo the check took, if one.
    func photo(_ check: String) -> URL? {
      let photos = folder.appendingPathComponent("\(check)/photos")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? []
      return names.filter { $0.hasSuffix(".jpg") }.sorted().first.map {
        photos.appendingPathComponent($0)
      }
    }

    /// The run's last event (`captured`, `failed`, `cancelled`) as text.
    func lastEvent(_ check: String) -> String {
      text("\(check)/out.json").split(separator: "\n").last.map(String.init) ?? ""
    }
  }

  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The one boot, shared by the suite's tests.
  static let outcome = Task<Outcome, any Error> {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-vivid-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("phototimer")
    let completion = try await ChildProcess.run(
      [
        root.appendingPathComponent("scripts/vm/run.sh").path,
        root.appendingPathComponent("scripts/vm/vivid-checks.sh").path, folder.path, "900",
        "PHOTOTIMER=\(binary.path)",
      ], timeLimit: .seconds(960))
    let (exit, output) = (completion.exit, completion.output)
    guard exit == .status(0) else {
      throw Failed(
        description: "the VM's checks did not finish (\(exit)): \(output.suffix(2000))\n"
          + String(
            (try? String(
              contentsOf: folder.appendingPathComponent("serial.log"), encoding: .utf8))?
              .suffix(2000) ?? ""))
    }
    return Outcome(folder: folder)
  }

  /// EXIF tags of a photo, read back by exiftool (`-s3`, one per line, in the order asked).
  static func exif(_ file: URL, _ tags: [String]) async throws -> [String: String] {
    let output = try await ChildProcess.run(
      ["/usr/bin/exiftool", "-s", "-s"] + tags.map { "-\($0)" } + [file.path]
    ).output
    var values: [String: String] = [:]
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      values[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1]
        .trimmingCharacters(in: .whitespaces)
    }
    return values
  }

  /// The mean brightness of a photo (0…255).
  static func meanLevel(_ file: URL) throws -> Double {
    let bytes = try [UInt8](Data(contentsOf: file))
    let frame = try JPEGCodec.decode(bytes, path: file.path)
    return Double(frame.pixels.reduce(0) { $0 + Int($1) }) / Double(frame.pixels.count)
  }
}

@Suite("A real V4L2 driver (vivid) in a VM the tests boot", .serialized, .timeLimit(.minutes(20)))
struct VividTests {
  @Test("doctor lists every mode and marks the best: 640×480 YUYV at 25 fps")
  func doctor() async throws {
    let outcome = try await VividRun.outcome.value
    let text = outcome.text("doctor/out.txt")
    #expect(text.contains("/dev/video0 (vivid): uses 640×480 YUYV 25 fps"), "\(text)")
    #expect(text.contains("3840×2160 at 2, 1 fps"), "\(text)")
    #expect(text.contains("more formats not read"), "\(text)")
  }

  @Test(
    "The best mode by default, and the truth in the EXIF: the card's name, no invented exposure")
  func bestMode() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("best") == 0, "\(outcome.text("best/err.txt"))")
    let photo = try #require(outcome.photo("best"), "\(outcome.text("best/err.txt"))")
    let tags = try await VividRun.exif(
      photo, ["ImageSize", "Make", "Model", "FNumber", "ExposureTime", "ISO"])
    #expect(tags["ImageSize"] == "640x480")
    #expect(tags["Make"] == "vivid" && tags["Model"] == "vivid")
    #expect(tags["FNumber"] == nil && tags["ExposureTime"] == nil && tags["ISO"] == nil, "\(tags)")
    // NB: vivid reports its gain (no exposure control): set by itself, changing every second.
    let captured = outcome.lastEvent("best")
    #expect(
      captured.contains("\"text\":\"640×480 YUYV 25 fps · exposure: the camera's own · gain "),
      "\(captured)")
    #expect(captured.contains("\"gain\":"), "\(captured)")
  }

  @Test("--resolution 1280x720 streams and shoots at that size")
  func resolution() async throws {
    let outcome = try await VividRun.outcome.value
    let photo = try #require(outcome.photo("hd"), "\(outcome.text("hd/err.txt"))")
    let tags = try await VividRun.exif(photo, ["ImageSize"])
    #expect(tags["ImageSize"] == "1280x720")
    #expect(outcome.lastEvent("hd").contains("1280×720 YUYV 12.5 fps"))
  }

  @Test("A size the camera lacks is a usage error listing the sizes it has")
  func missingSize() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("missing-size") == 2)
    #expect(
      outcome.text("missing-size/err.txt").hasPrefix(
        "error: /dev/video0: the camera does not give 1000×1000; it gives 320×180, 640×360,"
          + " 640×480, 1280×720, 1920×1080, 3840×2160\n"))
    #expect(outcome.photo("missing-size") == nil)
  }

  @Test("The driver's brightness control shows in the photos")
  func brightness() async throws {
    let outcome = try await VividRun.outcome.value
    let dark = try VividRun.meanLevel(try #require(outcome.photo("dark")))
    let bright = try VividRun.meanLevel(try #require(outcome.photo("bright")))
    #expect(bright > dark + 60, "brightness 20: \(dark), 235: \(bright)")
  }

  @Test("A camera in use names the program and pid that hold it")
  func busy() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("busy") == 1)
    let error = outcome.text("busy/err.txt")
    #expect(error.contains("/dev/video0 is in use by v4l2-ctl (pid "), "\(error)")
    #expect(error.contains("close it there and try again"))
  }

  @Test("Cancelled mid-count: exit 130, and another program streams from the device at once")
  func cancelled() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("cancelled") == 130)
    #expect(outcome.lastEvent("cancelled").contains("\"event\":\"cancelled\""))
    #expect(outcome.status("after-cancel") == 0, "\(outcome.text("after-cancel/out.txt"))")
  }

  @Test("An MJPEG-only device (v4l2loopback): its MJPEG mode, the photo decoded whole, its name")
  func mjpegDevice() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(
      outcome.text("mjpeg/doctor.txt").contains(
        "/dev/video1 (Loopback MJPEG): uses 640×480 MJPEG 30 fps"),
      "\(outcome.text("mjpeg/doctor.txt"))")
    #expect(outcome.status("mjpeg") == 0, "\(outcome.text("mjpeg/err.txt"))")
    #expect(
      outcome.lastEvent("mjpeg").contains(
        "\"text\":\"640×480 MJPEG 30 fps · exposure: the camera's own\""))
    let photo = try #require(outcome.photo("mjpeg"))
    let tags = try await VividRun.exif(photo, ["ImageSize", "Model"])
    #expect(tags["ImageSize"] == "640x480" && tags["Model"] == "Loopback MJPEG", "\(tags)")
  }

  @Test("A buffer the driver flags as an error is skipped: the photo is taken")
  func flaggedBuffer() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("flagged") == 0, "\(outcome.text("flagged/err.txt"))")
    #expect(outcome.photo("flagged") != nil)
  }

  @Test(
    "A fatal streaming error or an unplug mid-count ends the run then, in words, not at zero",
    arguments: [
      ("fatal", "camera lost: the camera /dev/video0 stopped streaming: "),
      ("unplugged", "camera lost: the camera /dev/video0 was disconnected: plug it back in"),
    ])
  func lostMidCount(check: String, message: String) async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status(check) == 1)
    #expect(
      outcome.text("\(check)/err.txt").hasPrefix("error: \(message)"),
      "\(outcome.text("\(check)/err.txt"))")
    let times = outcome.times(check)
    try #require(times.count == 3)
    // The count is 30 s; the run ends within seconds of the fault (under emulation).
    #expect(times[2] - times[1] < 10, "\(times)")
    #expect(outcome.photo(check) == nil)
  }
}

/// A booth session on vivid holds its coupled `gain_automatic`/`gain` pair from the first shot
/// and gives it back, however the program ends (scripts/vm/vivid-checks.sh's `booth`).
@Suite("A booth holds vivid's gain through a session", .serialized, .timeLimit(.minutes(20)))
struct VividControlsTests {
  /// `gain_automatic: 0` → 0.
  static func value(_ text: String, _ control: String) -> [Int] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      let parts = line.split(separator: ":")
      guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == control else {
        return nil
      }
      return Int(parts[1].trimmingCharacters(in: .whitespaces))
    }
  }

  @Test(
    "Held from the first shot (automatic off, the gain still); given back at the end, SIGINT, SIGTERM",
    // NB: a shot was kept in each: a booth ended by a signal exits 0 then (docs/reference.md).
    arguments: [("booth-held", 0), ("booth-int", 0), ("booth-term", 0)])
  func heldAndGivenBack(check: String, status: Int32) async throws {
    let outcome = try await VividRun.outcome.value
    let events = outcome.text("\(check)/out.json")
    let held = try #require(
      events.split(separator: "\n").first { $0.contains("\"state\":\"held\"") },
      "\(outcome.text("\(check)/err.txt"))\n\(events.suffix(1500))")
    let during = outcome.text("\(check)/held.txt")
    #expect(Self.value(during, "gain_automatic") == [0], "\(during)")
    let gains = Self.value(during, "gain")
    #expect(gains.count == 2 && gains[0] == gains[1], "the gain moves while held: \(during)")
    #expect(held.contains("\"gain\":\(gains.first ?? -1)"), "\(held) \(during)")
    #expect(during.contains("dev-video0.json"), "the note of the hold: \(during)")
    #expect(outcome.status(check) == status, "\(outcome.text("\(check)/err.txt"))")
    #expect(
      Self.value(outcome.text("\(check)/after.txt"), "gain_automatic") == [1],
      "\(outcome.text("\(check)/after.txt"))")
    if check == "booth-held" {
      #expect(events.contains("\"event\":\"collage\""), "\(events.suffix(1500))")
      #expect(events.contains("\"state\":\"released\""), "\(events.suffix(1500))")
    }
  }

  @Test("Killed while held: doctor says so, and the next program to open the camera gives it back")
  func killed() async throws {
    let outcome = try await VividRun.outcome.value
    #expect(outcome.status("booth-kill") == 137)
    #expect(
      Self.value(outcome.text("booth-kill/after.txt"), "gain_automatic") == [0],
      "held still, with nobody to give it back")
    let doctor = outcome.text("booth-kill/doctor.txt")
    #expect(doctor.contains("controls: gain (held through each booth session)"), "\(doctor)")
    #expect(doctor.contains("which ended: given back as the camera opens next"), "\(doctor)")
    let next = outcome.text("booth-kill/next.txt")
    #expect(Self.value(next, "gain_automatic") == [1], "\(next)")
    #expect(!next.contains("dev-video0.json"), "the note is gone: \(next)")
  }
}
