import Foundation
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer-gtk --booth` under Xvfb: a session by keys, a retake, the collage shown with
/// the guests' QR code, read off the screen and opened.
@Suite("phototimer-gtk --booth in a window under Xvfb", .serialized, .timeLimit(.minutes(4)))
struct WindowBoothTests {
  /// Waits (up to `limit`) for `done` to hold.
  func until(_ limit: Duration = .seconds(60), _ done: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if try await done() { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    throw WindowTestError("not within \(limit)")
  }

  /// The QR code on the screen, read as a guest's phone would read it off a screenshot
  /// (`name`), once it holds `text`.
  func code(on server: XServer, _ name: String, containing text: String) async throws -> String {
    var link = ""
    try await until(.seconds(30)) {
      _ = try await server.screenshot(name)
      let png = Screenshot.folder.appendingPathComponent("\(name).png")
      let read = try await ChildProcess.run(["zbarimg", "-q", "--raw", png.path])
      link = read.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
      return link.contains(text)
    }
    return link
  }

  @Test(
    "space starts, r takes shot 1 again, space keeps each: the collage beside its guests' code, which zbarimg reads off the screen and which opens the session's page"
  )
  func session() async throws {
    let arguments = [
      "--booth", "--shots", "2", "--review", "60", "--between", "0", "-s", "0", "--camera",
      "scene", "--size", "640x360", "--no-people", "--remote=127.0.0.1:0", "--event", "Party",
    ]
    try await withWindow(arguments, name: "booth") { server, window in
      let folder = window.folder.appendingPathComponent("Party")
      func photos() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
          $0.hasSuffix(".jpg")
        }
      }
      func output() -> String { (try? String(contentsOf: window.log, encoding: .utf8)) ?? "" }
      /// Presses `key` until `done` (a key pressed as a shot is being saved is refused, in
      /// words, and a person presses it again).
      func press(_ key: String, until done: () -> Bool) async throws {
        for _ in 0..<20 where !done() {
          try await server.press(key)
          try? await until(.seconds(3)) { done() }
        }
        #expect(done(), "\(key): \(output())")
      }
      try await window.waitFor("status idle")
      try await press("space") { photos().count == 1 }
      try await window.waitFor("status captured")
      try await press("r") { output().contains("shot 1 taken again") }
      try await until { photos().count == 2 }
      try await press("space") { output().contains("shot 1 kept") }
      try await until { photos().count == 3 }
      try await press("space") { output().contains("shot 2 kept") }
      try await until { output().contains("collage: ") }
      #expect(output().contains("shot 1 kept") && output().contains("shot 2 kept"), "\(output())")
      // The card on the screen: its code read as a guest's phone would read it.
      let link = try await code(on: server, "booth-collage", containing: "/guest/session/1?t=")
      #expect(output().contains("guests: \(link)"), "\(output())")
      let page = try await ChildProcess.run(["curl", "-s", link])
      #expect(page.standardOutput.contains("Session 1"), "\(page.standardOutput.prefix(300))")
      let log = try String(
        contentsOf: folder.appendingPathComponent("event.jsonl"), encoding: .utf8)
      #expect(log.contains("\"guest\":\"\(link)\""), "\(log)")
    }
  }
}

extension WindowBoothTests {
  @Test(
    "--fullscreen: the window fills the screen with the picture and the buttons, the choices hidden; phototimer refuses it"
  )
  func fullscreen() async throws {
    try await withWindow(
      ["--booth", "--fullscreen", "--camera", "scene", "--size", "640x360", "--no-people"],
      name: "fullscreen"
    ) { server, window in
      try await window.waitFor("first-frame")
      let geometry = try await ChildProcess.run([
        "env", "DISPLAY=\(server.display)", "xdotool", "search", "--sync", "--name", "^phototimer$",
        "getwindowgeometry",
      ])
      #expect(
        geometry.output.contains("Geometry: \(XServer.width)x\(XServer.height)"),
        "\(geometry.output)")
      // The picture edge to edge: the status and the buttons lie over its foot, no light grey
      // bar of the theme's under it (nor the row of choices, which would reach 80 %).
      try await until(.seconds(20)) {
        let shot = try await server.screenshot("booth-fullscreen")
        let (red, green, blue) = shot.pixel(XServer.width / 2, XServer.height * 9 / 10 - 10)
        return !(red > 230 && green > 230 && blue > 230)
      }
    }
    let refused = try await ChildProcess.run([
      RunningWindow.binary.deletingLastPathComponent().appendingPathComponent("phototimer").path,
      "--fullscreen",
    ])
    #expect(refused.exit == .status(2))
    #expect(
      refused.output.contains("--fullscreen is for the window; run phototimer-gtk --fullscreen"),
      "\(refused.output)")
  }
}

extension WindowBoothTests {
  @Test(
    "The booth's screen: any key starts, a touch starts, idle it shows the last collage with its code, and it is left only by Esc and a confirmation"
  )
  func boothScreen() async throws {
    let arguments = [
      "--booth", "--fullscreen", "--idle", "2", "--shots", "1", "--review", "0", "-s", "0",
      "--camera", "scene", "--size", "640x360", "--no-people", "--remote=127.0.0.1:0",
    ]
    try await withWindow(arguments, name: "booth-screen") { server, window in
      func output() -> String { (try? String(contentsOf: window.log, encoding: .utf8)) ?? "" }
      try await window.waitFor("status idle")
      // The big Start, red, over the bottom of the picture.
      try await until(.seconds(20)) {
        let shot = try await server.screenshot("booth-start")
        let band = shot.share(
          of: (165, 25, 35), tolerance: 40, y: XServer.height * 5 / 8,
          height: XServer.height / 4)
        return band > 0.1
      }
      // Any key that is no shortcut is the booth's button.
      try await server.press("a")
      try await until { output().contains("booth session 1 complete") }
      // Left alone, the idle turn: the live picture, then the collage with its guests' code.
      try await window.waitFor("booth idle live", limit: .seconds(30))
      try await window.waitFor("booth idle collage 0", limit: .seconds(30))
      _ = try await code(on: server, "booth-idle-collage", containing: "/guest/session/1?t=")
      // A touch on the picture starts the next session.
      try await server.click(XServer.width / 2, XServer.height / 3)
      try await until { output().contains("booth session 2 complete") }
      // Esc goes back from the collage, then asks; another key stays; Ctrl+Q asks too.
      let asked = window.lines.count
      for _ in 0..<3 where !window.lines.dropFirst(asked).contains("booth confirm") {
        try await server.press("Escape")
        try? await until(.seconds(3)) { window.lines.dropFirst(asked).contains("booth confirm") }
      }
      try await window.waitFor("booth confirm", after: asked)
      _ = try await server.screenshot("booth-confirm")
      try await server.press("x")
      try await window.waitFor("booth stay", after: asked)
      #expect(window.process.exit == nil, "a key other than Esc stays")
      #expect(!output().contains("booth session 3"), "the answer starts nothing: \(output())")
      let again = window.lines.count
      try await server.press("ctrl+q")
      try await window.waitFor("booth confirm", after: again)
      #expect(window.process.exit == nil)
      try await server.press("Escape")
      #expect(try await window.exit() == .status(0))
    }
  }
}

extension WindowBoothTests {
  /// Writes a clip of `seconds` of blue to `file` (an ffmpeg camera's stream).
  func clip(_ file: URL, seconds: Int) async throws {
    let made = try await ChildProcess.run([
      "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
      "color=c=0x3366cc:size=640x360:rate=30", "-t", "\(seconds)", "-c:v", "mjpeg", "-q:v", "5",
      file.path,
    ])
    #expect(made.exit == .status(0), "\(made.output)")
  }

  @Test(
    "The camera unplugged: the booth says what is wrong and tries again by itself; plugged back in, the next session runs"
  )
  func cameraComesBack() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-unplug-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let camera = folder.appendingPathComponent("camera.mkv")
    try await clip(camera, seconds: 3)
    let arguments = [
      "--booth", "--shots", "1", "--review", "0", "-s", "0", "--camera", "ffmpeg:\(camera.path)",
      "--no-people", "--idle", "0",
    ]
    try await withWindow(arguments, name: "booth-unplugged") { server, window in
      func output() -> String { (try? String(contentsOf: window.log, encoding: .utf8)) ?? "" }
      try await window.waitFor("status idle")
      // Unplugged: its stream ends, and it is not there to open again.
      try FileManager.default.removeItem(at: camera)
      let problem = try await window.waitFor("problem ", limit: .seconds(30))
      #expect(problem.hasSuffix("· trying again every 3 s"), "\(problem)")
      // It keeps trying and keeps saying so (no flicker back to nothing).
      try await Task.sleep(for: .seconds(4))
      let said = window.lines.filter { $0.hasPrefix("problem ") }
      #expect(!said.contains("problem -") && said.count >= 1, "\(said)")
      #expect(window.process.exit == nil)
      _ = try await server.screenshot("booth-unplugged")
      // Plugged back in: it opens by itself, and a press runs a session.
      try await clip(camera, seconds: 120)
      try await window.waitFor("problem -", limit: .seconds(30))
      try await until {
        try await server.press("a")
        return (try? await until(.seconds(5)) { output().contains("booth session 1 complete") })
          != nil
      }
    }
  }
}

extension WindowBoothTests {
  @Test(
    "The disk full: the booth says so and what to do, and once there is room the next session is saved"
  )
  func diskFull() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-full-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    // NB: a small file system of the test's own (the tests run as root, as CI does).
    let mounted = try await ChildProcess.run([
      "mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", folder.path,
    ])
    try #require(mounted.exit == .status(0), "mount: \(mounted.output)")
    do {
      try await fillAndRecover(folder)
    } catch {
      _ = try? await ChildProcess.run(["umount", "-l", folder.path])
      throw error
    }
    _ = try? await ChildProcess.run(["umount", "-l", folder.path])
    try? FileManager.default.removeItem(at: folder)
  }

  /// The booth on `folder`, a small file system: filled, then freed.
  private func fillAndRecover(_ folder: URL) async throws {
    let filler = folder.appendingPathComponent("filler")
    let filled = try await ChildProcess.run([
      "dd", "if=/dev/zero", "of=\(filler.path)", "bs=64k",
    ])
    #expect(filled.output.contains("No space left on device"), "\(filled.output)")
    let arguments = [
      "--booth", "--shots", "1", "--review", "0", "-s", "0", "--camera", "scene", "--size",
      "640x360", "--no-people", "--idle", "0", "-o", folder.path,
    ]
    try await withWindow(arguments, name: "booth-full") { server, window in
      func output() -> String { (try? String(contentsOf: window.log, encoding: .utf8)) ?? "" }
      try await window.waitFor("status idle")
      try await server.press("a")
      let failed = try await window.waitFor("status failed", limit: .seconds(30))
      #expect(
        failed.contains("no space left to save the photo in \(folder.path); free some space"),
        "\(failed)")
      _ = try await server.screenshot("booth-disk-full")
      #expect(window.process.exit == nil)
      // Room again: the next press is a whole session.
      try FileManager.default.removeItem(at: filler)
      try await until {
        try await server.press("a")
        return (try? await until(.seconds(5)) { output().contains("booth session 2 complete") })
          != nil
      }
      let saved = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      #expect(saved.contains { $0.hasSuffix("_collage.jpg") }, "\(saved)")
    }
  }
}
