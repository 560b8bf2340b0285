import PhotoTimerCommandLine
import Testing

@testable import PhotoTimerCLI
@testable import PhotoTimerSetup

@Suite("What the screen shows: preview, mirroring, and the options that choose them")
struct ScreenTests {
  private func screen(
    _ arguments: [String], environment: [String: String] = ["COLORTERM": "truecolor"],
    interactive: Bool = true, size: (Int, Int) = (100, 32), hasCamera: Bool = true
  ) throws -> CommandScreen {
    let options = try CommandOptions(arguments: arguments, environment: environment)
    guard case .run(let run) = options.action else { throw Failure("not a run") }
    return CommandScreen(
      options: run, environment: environment, interactive: interactive,
      size: (columns: size.0, rows: size.1), hasCamera: hasCamera)
  }

  @Test("The preview is on in the live view with 24-bit colour; each reason for none turns it off")
  func preview() throws {
    #expect(try screen([]).preview == .halfBlocks)
    #expect(
      try screen([], environment: ["COLORTERM": "24bit", "TERM": "xterm-kitty"]).preview == .kitty)
    #expect(try screen([], environment: [:]).preview == nil)
    #expect(
      try screen([], environment: ["COLORTERM": "truecolor", "NO_COLOR": "1"]).preview == nil)
    #expect(try screen(["--no-color"]).preview == nil)
    #expect(try screen(["--no-preview"]).preview == nil)
    #expect(try screen([], interactive: false).preview == nil)
    #expect(try screen(["--json"]).preview == nil)
    #expect(try screen([], size: (39, 32)).preview == nil)
    #expect(try screen([], size: (100, 15)).preview == nil)
    #expect(try screen(["--simulate"], hasCamera: false).preview == nil)
  }

  @Test("Without a picture the live view says why and what to do, unless none was asked for")
  func noPicture() throws {
    #expect(try screen([]).noPicture == nil)
    #expect(
      try screen([], environment: [:]).noPicture
        == "no picture: if this terminal shows 24-bit colour, set COLORTERM=truecolor")
    #expect(
      try screen(["--no-color"]).noPicture == "no picture: colour is off (NO_COLOR or --no-color)")
    #expect(try screen([], size: (39, 32)).noPicture?.contains("40 × 16") == true)
    #expect(try screen(["--no-preview"], environment: [:]).noPicture == nil)
    #expect(try screen([], environment: [:], interactive: false).noPicture == nil)
    #expect(try screen(["--simulate"], environment: [:], hasCamera: false).noPicture == nil)
  }

  @Test("Webcams are mirrored by default, other cameras not; --mirror and --no-mirror choose")
  func mirroring() throws {
    #expect(try screen(["--camera", "ffmpeg:/dev/video0"]).mirrored)
    #expect(try !screen(["--camera", "ffmpeg:rtsp://camera/stream"]).mirrored)
    #expect(try !screen(["--camera", "scene"]).mirrored)
    #expect(try !screen(["--camera", "ffmpeg:/dev/video0", "--no-mirror"]).mirrored)
    #expect(try screen(["--camera", "scene", "--mirror"]).mirrored)
  }

  @Test("--frame needs the live view and a camera; the mirror options exclude each other")
  func badCombinations() {
    for arguments in [
      ["--frame", "--json"], ["--frame", "--simulate"], ["--mirror", "--no-mirror"],
      ["--frame", "--interval", "5", "--count", "3"],
    ] {
      #expect(throws: CommandOptions.UsageError.self, "\(arguments)") {
        _ = try CommandOptions(arguments: arguments)
      }
    }
  }
}
