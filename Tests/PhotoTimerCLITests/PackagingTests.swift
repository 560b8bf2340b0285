import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerSetup
import Testing

/// The manual pages and the shells' completion, generated from the option declarations: what
/// `make deb` and `make install` put on a system.
@Suite("Manual pages and completions")
struct PackagingTests {
  /// A webcam stand-in with two sizes, for `--resolution`'s values.
  struct StandInWebcam: CameraDriver {
    var scheme: String { "v4l2" }
    var summary: String { "a stand-in webcam" }
    func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice {
      CameraChoice(kind: self, argument: argument)
    }
    func open(
      _ choice: CameraChoice, _ options: CommandOptions.RunOptions
    ) async throws
      -> (any CameraSource)?
    { nil }
    func menuName(_ choice: CameraChoice) -> String { "Webcam \(choice.argument ?? "")" }
    func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity {
      CameraIdentity(kind: scheme, name: "stand-in")
    }
    func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)] {
      [
        ("Best: 1280×720 MJPEG 30 fps", .best),
        ("1920×1080 MJPEG 5 fps", .size(FrameSize(width: 1920, height: 1080))),
        ("1280×720 MJPEG 30 fps", .size(FrameSize(width: 1280, height: 720))),
      ]
    }
  }

  let completion = ShellCompletion(
    cameras: DriverCatalog { [CameraChoice(kind: StandInWebcam(), argument: "/dev/video7")] })

  func words(_ program: ProgramHelp.Program, _ line: [String]) async -> [String] {
    guard case .words(let candidates) = await completion.answer(program, words: line) else {
      return []
    }
    return candidates.map(\.value)
  }

  @Test("Options complete by their declared names, long ones first, those given left out")
  func options() async {
    #expect(await words(.command, ["--fil"]) == ["--filter"])
    #expect(await words(.command, ["-s"]) == ["-s"])
    // NB: the window's own options (`--fullscreen`) are not the command's.
    let long = ProgramHelp.Program.command.options.flatMap(\.declaration.names).filter {
      $0.hasPrefix("--")
    }
    let optional = ProgramHelp.Program.command.options.compactMap { option -> String? in
      guard case .optional? = option.declaration.value else { return nil }
      return option.name + "="
    }
    #expect(Set(optional) == ["--remote=", "--start-when-ready=", "--print="])
    #expect(Set(await words(.command, ["-"])) == Set(long + optional))
    #expect(!(await words(.command, ["--json", "--js"])).contains("--json"))
    // The window refuses the terminal's options: they are not offered.
    #expect(await words(.window, ["--js"]) == [])
    #expect(await words(.window, ["--start"]) == ["--start-when-ready", "--start-when-ready="])
  }

  @Test("booth and doctor are offered where a subcommand can be, and only by phototimer")
  func subcommand() async {
    #expect(await words(.command, ["do"]) == ["doctor"])
    #expect(await words(.command, ["bo"]) == ["booth"])
    #expect(await words(.command, ["-s", "3", ""]) == ["booth", "doctor"])
    #expect(await words(.command, ["doctor", ""]) == [])
    #expect(await words(.window, [""]) == [])
  }

  @Test("Values: the looks, the cameras present with every kind and preset, the sizes")
  func values() async {
    #expect(
      await words(.command, ["--filter", ""])
        == ["auto", "none"] + PhotoFilter.all.map { $0.rawValue.lowercased() })
    let cameras = await words(.command, ["--camera", ""])
    for expected in [
      "auto", "v4l2:", "v4l2:/dev/video7", "pipewire", "pipewire:", "ffmpeg:", "gphoto2",
      "scene", "scene:golden-hour", "file:",
    ] {
      #expect(cameras.contains(expected), "\(expected) in \(cameras)")
    }
    #expect(!cameras.contains("simulation"))
    #expect(
      await words(.command, ["--camera=scene:g"]) == ["--camera=scene:golden-hour"])
    #expect(await words(.command, ["--resolution", ""]) == ["max", "1920x1080", "1280x720"])
    #expect(await words(.command, ["-s", ""]) == [])
    #expect(await words(.command, ["--remote", ""]) == ["booth", "doctor"])
    #expect(await words(.command, ["booth", "--layout", ""]) == ["strip", "postcard", "single"])
  }

  @Test("Paths go to the shell: a file after file:, a folder after --output")
  func paths() async {
    #expect(
      await completion.answer(.command, words: ["--camera", "file:/tm"])
        == .paths(prefix: "file:", foldersOnly: false))
    #expect(
      await completion.answer(.command, words: ["--camera=file:"])
        == .paths(prefix: "--camera=file:", foldersOnly: false))
    #expect(
      await completion.answer(.window, words: ["-o", "~/Pic"])
        == .paths(prefix: "", foldersOnly: true))
  }

  @Test("Each manual page renders under groff -ww without a warning, with every option")
  func manualPages() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-man-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for program in ProgramHelp.Program.allCases {
      let generated = try await CommandRun.run(["__generate", "man", program.name])
      #expect(generated.status == 0)
      let page = folder.appendingPathComponent("\(program.name).1")
      try generated.output.write(to: page, atomically: true, encoding: .utf8)
      // NB: on PostScript (groff's default), as man(1) does in a UTF-8 locale and in C.
      for device in ["-Tps", "-Tutf8", "-Tascii"] {
        let check = try await ChildProcess.run(["groff", "-ww", "-z", "-man", device, page.path])
        #expect(
          check.succeeded && check.output.isEmpty, "\(program.name) \(device): \(check.output)")
      }
      let text = try await ChildProcess.run(["groff", "-man", "-Tutf8", "-P", "-cbou", page.path])
      // NB: groff may set `-` as a hyphen and `\-` as a minus sign. Text checks read
      // the page with its lines joined.
      let shown = text.standardOutput.replacing("\u{2212}", with: "-")
        .replacing("\u{2010}", with: "-")
      let flat = shown.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      for section in [
        "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "CAMERA SOURCES", "KEYS", "FILES",
        "ENVIRONMENT", "EXIT STATUS", "EXAMPLES",
      ] {
        #expect(shown.contains("\n\(section)\n"), "\(program.name) has no \(section)")
      }
      for option in program.options {
        for name in option.declaration.names {
          #expect(flat.contains(name), "\(program.name)'s page lacks \(name)")
        }
      }
      for usage in CameraKinds.usages { #expect(flat.contains(usage), "\(usage)") }
      for status in program.exitStatuses { #expect(flat.contains(status.text), "\(status)") }
      #expect(flat.contains("phototimer \(PhotoTimerVersion.current)"))
    }
    let window = try await CommandRun.run(["__generate", "man", "phototimer-gtk"])
    #expect(!window.output.contains("\\-\\-json"))
    #expect(try await CommandRun.run(["__generate", "man", "nobody"]).status == 2)
  }

  @Test("The roff escapes what roff would read: a leading dot, backslashes, hyphens of options")
  func roffEscapes() {
    #expect(ManualPage.text(".hidden") == "\\&.hidden")
    #expect(ManualPage.text("a\\b") == "a\\eb")
    #expect(ManualPage.text("`--seconds` of self-timer") == "\\fB\\-\\-seconds\\fR of self-timer")
    #expect(ManualPage.text("*N* people · 0…5") == "\\fIN\\fR people \\(bu 0...5")
    #expect(ManualPage.text("a ▸ b") == "a \\[u25B8] b")
  }

  /// Runs `script` in `shell` with the built `phototimer` first on the PATH.
  func shell(_ shell: String, _ script: String) async throws -> String {
    let path = CommandRun.binary.deletingLastPathComponent().path
    let run = try await ChildProcess.run(
      ["env", "PATH=\(path):/usr/bin:/bin", shell, "-c", script], timeLimit: .seconds(60))
    #expect(run.succeeded, "\(shell): \(run.output)")
    return run.standardOutput
  }

  /// What bash's completion function offers for `line`, as bash-completion calls it.
  func bash(_ line: String) async throws -> [String] {
    let words = line.split(separator: " ", omittingEmptySubsequences: false)
    let output = try await shell(
      "bash",
      """
      source <(phototimer __generate completion bash)
      COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(\(words.map { "'\($0)'" }
        .joined(separator: " "))); COMP_CWORD=\(words.count - 1)
      _phototimer; printf '%s\\n' "${COMPREPLY[@]}"
      """)
    return output.split(separator: "\n").map(String.init)
  }

  @Test("bash completes options, values and, after a colon, what bash replaces")
  func bashCompletion() async throws {
    #expect(try await bash("phototimer --came") == ["--camera", "--camera-wait"])
    #expect(try await bash("phototimer --camera-") == ["--camera-wait"])
    #expect(try await bash("phototimer --filter w") == ["warm"])
    // NB: bash splits at ':' and replaces only what follows it.
    #expect(try await bash("phototimer --camera scene:golden") == ["golden-hour"])
    #expect(try await bash("phototimer-gtk --js") == [])
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-completion-\(getpid())")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try await bash("phototimer -o \(folder.path)/pho") == ["\(folder.path)/photos/"])
  }

  @Test("fish completes from the same answers, with their descriptions")
  func fishCompletion() async throws {
    let output = try await shell(
      "fish",
      """
      phototimer __generate completion fish | source
      complete -C 'phototimer --filter w'
      complete -C 'phototimer --came'
      """)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "warm\ta look", "\(output)")
    #expect(
      lines.dropFirst().map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        == ["--camera", "--camera-wait"], "\(output)")
    #expect(lines.dropFirst().first?.contains("\tauto | v4l2:/dev/videoN") == true, "\(output)")
  }

  @Test("zsh reads its completion function without an error")
  func zshCompletion() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-zsh-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = try await CommandRun.run(["__generate", "completion", "zsh"])
    let file = folder.appendingPathComponent("_phototimer")
    try script.output.write(to: file, atomically: true, encoding: .utf8)
    _ = try await shell("zsh", "zsh -n \(file.path)")
    #expect(script.output.hasPrefix("#compdef phototimer phototimer-gtk\n"))
  }
}
