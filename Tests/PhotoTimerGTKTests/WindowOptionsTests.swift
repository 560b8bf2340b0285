import Foundation
import PhotoTimerCommandLine
import Testing

@testable import PhotoTimerGTK
@testable import PhotoTimerSetup

@Suite("the window's options and remembered settings")
struct WindowOptionsTests {
  @Test("the camera, count, folder, location and look options are phototimer's")
  func sharedOptions() throws {
    let options = try WindowOptions(arguments: [
      "--camera", "ffmpeg:/dev/video2", "-s", "3", "-o", "/tmp/x", "--no-location", "--filter",
      "mono",
    ])
    guard case .run(let run, let given) = options.action else {
      Issue.record("not a run")
      return
    }
    #expect(run.camera == .ffmpeg("/dev/video2", format: "v4l2"))
    #expect(run.seconds == 3)
    #expect(run.output == "/tmp/x")
    #expect(run.location == .off)
    #expect(run.filter == .fixed(.mono))
    #expect(given == [.camera, .seconds, .output, .noLocation, .filter])
  }

  @Test(
    "terminal-only options and doctor are refused, each with what to run instead",
    arguments: [
      (["--json"], "--json is for the terminal program; run phototimer --json"),
      (["--frame"], "--frame is for the terminal program"),
      (["--interval", "5", "--count", "3"], "--interval is for the terminal program"),
      (["doctor"], "the window has no doctor; run 'phototimer doctor'"),
      (["-s", "soon"], "-s"),
    ])
  func refused(arguments: [String], message: String) {
    #expect {
      try WindowOptions(arguments: arguments)
    } throws: { error in
      (error as? CommandOptions.UsageError)?.problems.contains { $0.contains(message) } == true
    }
  }

  @Test("remembered choices apply unless the command line gives its own")
  func rememberedChoices() throws {
    let settings = WindowSettings(
      countdown: 7, camera: "ffmpeg:color=c=red", ffmpegFormat: "lavfi", look: "warm")
    var options = CommandOptions.RunOptions()
    settings.apply(to: &options, given: [])
    #expect(options.seconds == 7)
    #expect(options.camera == .ffmpeg("color=c=red", format: "lavfi"))
    #expect(options.filter == .fixed(.warm))

    var given = CommandOptions.RunOptions()
    given.seconds = 2
    given.camera = .scene(.night)
    settings.apply(to: &given, given: [.seconds, .camera])
    #expect(given.seconds == 2)
    #expect(given.camera == .scene(.night))
    #expect(given.filter == .fixed(.warm))

    var damaged = CommandOptions.RunOptions()
    WindowSettings(countdown: -4, camera: "nonsense", look: "sepia").apply(to: &damaged, given: [])
    #expect(damaged == CommandOptions.RunOptions())
  }

  @Test("settings survive a save and a load; a damaged file loads as none")
  func saveAndLoad() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-settings-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("phototimer/window.json")
    let settings = WindowSettings(countdown: 10, camera: "scene:night", look: "auto")
    try settings.save(to: file)
    #expect(WindowSettings.load(from: file) == settings)
    try Data("{not json".utf8).write(to: file)
    #expect(WindowSettings.load(from: file) == WindowSettings())
    #expect(
      WindowSettings.file(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]).path
        == "/c/phototimer/window.json")
    #expect(
      WindowSettings.file(environment: ["HOME": "/h"]).path == "/h/.config/phototimer/window.json")
  }
}
