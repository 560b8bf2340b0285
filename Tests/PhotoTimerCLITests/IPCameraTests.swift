import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer` against a real RTSP camera (GStreamer's RTSP server on loopback) addressed with
/// a user and password, as most IP cameras are.
@Suite("An IP camera over RTSP", .serialized, .timeLimit(.minutes(2)))
struct IPCameraTests {
  static let password = "Pw-\(UInt32.random(in: 100_000...999_999))"

  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-rtsp-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("With rtsp://user:password@…, the password is nowhere: photo, JSON, plain output")
  func passwordNowhere() async throws {
    let server = try await RTSPServer.start(user: "bob", password: Self.password)
    let output = try folder()
    defer { try? FileManager.default.removeItem(at: output) }
    let camera = "ffmpeg:" + server.address(user: "bob", password: Self.password)
    let json = try await CommandRun.run([
      "--camera", camera, "--json", "-s", "1", "--no-location", "-o", output.path,
    ])
    let plain = try await CommandRun.run([
      "--camera", camera, "-s", "0", "--no-location", "-o", output.path, "--verbose",
    ])
    await server.stop()
    #expect(json.status == 0, "\(json.error)")
    #expect(plain.status == 0, "\(plain.error)")
    // --verbose: ffmpeg's own words, on stderr, with the address shown without its secrets.
    #expect(
      plain.error.contains("ffmpeg: Input #0, rtsp, from 'rtsp://127.0.0.1:\(server.port)/cam'"),
      "\(plain.error)")
    #expect(!json.error.contains("ffmpeg: "))
    for text in [json.output, json.error, plain.output, plain.error] {
      #expect(!text.contains(Self.password), "\(text)")
      #expect(!text.contains("bob"), "\(text)")
    }
    let photos = try FileManager.default.contentsOfDirectory(atPath: output.path)
      .filter { $0.hasSuffix(".jpg") }
    #expect(photos.count == 2)
    for photo in photos {
      let path = output.appendingPathComponent(photo).path
      let bytes = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      #expect(!bytes.contains(Self.password))
      let tags = try await ChildProcess.run(["exiftool", "-a", "-G1", "-s", path])
      #expect(tags.succeeded, "\(tags.standardError)")
      #expect(!tags.standardOutput.contains(Self.password))
      #expect(!tags.standardOutput.contains("bob"))
      // GStreamer's server names its sessions with a stock phrase, which names no camera.
      #expect(
        tags.standardOutput.contains("Model                           : IP camera (127.0.0.1)"))
      #expect(!tags.standardOutput.contains("[IFD0]          Make"), "\(tags.standardOutput)")
      // An IP camera reports no exposure: none is written.
      #expect(!tags.standardOutput.contains("FNumber"))
    }
  }

  @Test("A refused password says so in words, without the password and without format advice")
  func wrongPassword() async throws {
    let server = try await RTSPServer.start(user: "bob", password: Self.password)
    let run = try await CommandRun.run([
      "--camera", "ffmpeg:" + server.address(user: "bob", password: "not-\(Self.password)"),
      "-s", "0", "--no-location",
    ])
    await server.stop()
    #expect(run.status == 1)
    #expect(
      run.error.contains(
        "the camera at rtsp://127.0.0.1:\(server.port)/cam refused the user or password (401)"),
      "\(run.error)")
    #expect(!run.error.contains(Self.password))
    #expect(!run.error.contains("--ffmpeg-format"))
    #expect(!run.error.contains("Lavc"))
  }

  @Test("No camera listening: the connection was refused, said once in words")
  func neverStarted() async throws {
    let free = try LoopbackListener(listening: false)
    let port = free.port
    free.close()
    let run = try await CommandRun.run([
      "--camera", "ffmpeg:rtsp://bob:\(Self.password)@127.0.0.1:\(port)/cam", "-s", "0",
      "--no-location",
    ])
    #expect(run.status == 1)
    #expect(
      run.error.contains("the camera at rtsp://127.0.0.1:\(port)/cam refused the connection"),
      "\(run.error)")
    #expect(!run.error.contains(Self.password))
    #expect(!run.error.contains("--ffmpeg-format"))
  }

  @Test("The camera goes away mid-count: the run ends with what happened, not ffmpeg's statistics")
  func lostMidCount() async throws {
    let server = try await RTSPServer.start()
    let command = [
      "env", "HOME=\(CommandRun.home.path)", CommandRun.binary.path, "--camera",
      "ffmpeg:" + server.address(), "--json", "-s", "30", "--no-location",
    ]
    // NB: once the camera step is done the stream runs: then the camera loses power.
    let killed = Locked(false)
    let run = try await ChildProcess.run(command, timeLimit: .seconds(60)) { _, output in
      let text = String(decoding: output, as: UTF8.self)
      guard text.contains("\"step\":\"camera\"") else { return }
      let first = killed.withLock { done in
        defer { done = true }
        return !done
      }
      if first { server.kill() }
    }
    await server.stop()
    #expect(run.exit == .status(1), "\(run.output)")
    let address = "rtsp://127.0.0.1:\(server.port)/cam"
    #expect(
      run.standardError.contains("the camera at \(address) stopped")
        || run.standardError.contains("no frame from \(address)"), "\(run.standardError)")
    #expect(!run.standardError.contains("frame="), "\(run.standardError)")
    #expect(!run.standardError.contains("muxing overhead"))
    #expect(!run.standardError.contains("--ffmpeg-format"))
  }
}
