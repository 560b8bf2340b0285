import Foundation
import PhotoTimerHarnesses
import Testing

/// One look for every camera: each group photo of the evaluation set (NASA, public domain:
/// `Tests/PhotoTimerFacesTests/Fixtures/groups`) through the built binary as an image file
/// (`file:`), as a video of that still at its own size (`ffmpeg:`), and as a webcam through
/// GStreamer (`pipewire:`, a PipeWire camera node of the test's own showing the photo). Each
/// must count the annotation's people, no one blinking or looking away. (How those people
/// match the annotation face by face is `GroupPhotoTests`.)
@Suite("Group photos through every camera path, end to end", .serialized, .timeLimit(.minutes(5)))
struct GroupCameraTests {
  struct Photo: Decodable, CustomTestStringConvertible {
    struct Face: Decodable {
      var miss: String?
    }
    var file: String
    var faces: [Face]
    /// Known false boxes (see `GroupPhotos.NotFace`): counted like faces.
    var notFaces: [Face]?
    var testDescription: String { file }
    var expected: Int { faces.filter { $0.miss == nil }.count + (notFaces?.count ?? 0) }
  }

  struct Annotations: Decodable {
    var images: [Photo]
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("PhotoTimerFacesTests/Fixtures/groups")

  static let photos: [Photo] = {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("annotations.json")),
      let annotations = try? JSONDecoder().decode(Annotations.self, from: data)
    else { return [] }
    return annotations.images
  }()

  /// The people of the captured event of a `--json` run, and why when there are none.
  static func people(_ run: CommandRun) throws -> [String: Any] {
    let events = try run.output.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let captured = try #require(
      events.first { $0["event"] as? String == "captured" }, "no photo: \(run.error)")
    let step = events.first {
      $0["event"] as? String == "step" && $0["step"] as? String == "people"
    }
    return try #require(
      captured["people"] as? [String: Any], "no people in the photo; the step: \(step ?? [:])")
  }

  @Test("file:, ffmpeg: and pipewire: each count the annotation's people", arguments: photos)
  func photo(_ photo: Photo) async throws {
    let path = Self.folder.appendingPathComponent(photo.file).path
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-groups-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    for folder in ["file", "video", "webcam"] {
      try FileManager.default.createDirectory(
        at: output.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    // NB: a count long enough for the model's reading (0.6–2.6 s) and three looks; make test
    // runs this suite alone (ALONE in the Makefile): beside the others the model took 8 s.
    let common = ["--json", "-s", "10", "--no-location", "--filter", "none", "--blink-window", "1"]
    let graph = "movie=\(path),loop=loop=-1:size=1,setpts=N/30/TB,format=yuvj420p"
    async let still = CommandRun.run(
      common + ["-o", output.appendingPathComponent("file").path, "--camera", "file:\(path)"],
      interruptWhen: nil, timeLimit: .seconds(120))
    async let video = CommandRun.run(
      common + [
        "-o", output.appendingPathComponent("video").path, "--camera", "ffmpeg:\(graph)",
        "--ffmpeg-format", "lavfi",
      ], interruptWhen: nil, timeLimit: .seconds(120))
    let (fromFile, fromVideo) = try await (Self.people(still), Self.people(video))
    // NB: after the other two, not beside them: three models read at once on two cores.
    let fromWebcam = try await PipeWireCamera.with(picture: path) { camera in
      try Self.people(
        await CommandRun.run(
          common + [
            "-o", output.appendingPathComponent("webcam").path, "--camera",
            "pipewire:\(camera.node)",
          ], interruptWhen: nil, timeLimit: .seconds(120), environment: camera.environment))
    }
    for (path, people) in [("file:", fromFile), ("ffmpeg:", fromVideo), ("pipewire:", fromWebcam)] {
      #expect(people["count"] as? Int == photo.expected, "\(path) \(people)")
      #expect(people["eyesClosed"] as? Int == 0, "\(path) \(people)")
      #expect(people["lookingAway"] as? Int == 0, "\(path) \(people)")
    }
  }
}
