import Foundation
import PhotoTimer
import PhotoTimerImaging
import Testing

@testable import PhotoTimerCommandLine

@Suite("Arguments")
struct ArgumentParserTests {
  private func options(_ arguments: [String]) throws -> CommandOptions.RunOptions {
    let parsed = try CommandOptions(arguments: arguments)
    guard case .run(let run) = parsed.action else {
      Issue.record("expected a run, got \(parsed.action)")
      return CommandOptions.RunOptions()
    }
    return run
  }

  @Test("Every kind of camera parses back from the text that names it")
  func registryRoundTrip() throws {
    for choice: CameraChoice in [
      .v4l2("/dev/video3"), .pipewire(nil), .pipewire("fakecam"),
      .ffmpeg("rtsp://h/s", format: nil),
      .gphoto2, .scene(.night), .file("/a b.jpg"), .auto,
    ] {
      let text = try #require(choice.text)
      #expect(try CameraKinds.parse(text) == choice, "\(text)")
    }
    #expect(CameraChoice.simulated.text == nil)
    // Every kind a --camera names is in the help's list and the unknown-camera error.
    for kind in CameraKinds.all where kind.usage != nil {
      #expect(CommandOptions.help.contains(kind.usage ?? ""), "\(kind.scheme)")
    }
  }

  @Test("Good command lines, in every spelling people use")
  func good() throws {
    #expect(try options([]).seconds == 5)
    #expect(try options(["-s", "3"]).seconds == 3)
    #expect(try options(["-s3"]).seconds == 3)
    #expect(try options(["--seconds=0"]).seconds == 0)
    #expect(try options(["--seconds", "3600"]).seconds == 3600)
    #expect(try options(["--camera", "scene:night"]).camera == .scene(.night))
    #expect(try options(["--camera=file:/a b.jpg"]).camera == .file("/a b.jpg"))
    #expect(try options(["--filter", "MONO"]).filter == .fixed(.mono))
    #expect(try options(["--filter", "none"]).filter == .none)
    #expect(try options(["-o", "~/x", "--keep-original"]).keepOriginal)
    #expect(try options(["--no-location"]).location == .off)
    #expect(
      try options(["--gpsd", "gps.local:2948"]).location
        == .gpsd(.init(host: "gps.local", port: 2948)))
    #expect(try options(["--gps-max-error", "400"]).gpsMaxError == 400)
    #expect(try options([]).gpsMaxError == 2000)
    #expect(try options(["--simulate"]).camera == .simulated)
    #expect(
      try options(["--camera", "ffmpeg:rtsp://cam/live", "--ffmpeg-format", "rtsp"]).camera
        == .ffmpeg("rtsp://cam/live", format: "rtsp"))
    #expect(
      try options(["--camera", "ffmpeg:/dev/video2"]).camera
        == .ffmpeg("/dev/video2", format: "v4l2"))
    #expect(try options(["--burst", "5"]).burst == 5)
    #expect(try options(["--camera", "gphoto2"]).camera == .gphoto2)
    #expect(try options(["--interval", "2.5", "--count", "10"]).interval == .milliseconds(2500))
    #expect(try options(["--interval=60", "--count=3"]).count == 3)
    #expect(try options([]).camera == .auto)
    #expect(try options(["--camera", "v4l2:/dev/video4"]).camera == .v4l2("/dev/video4"))
    #expect(try options(["--camera", "pipewire"]).camera == .pipewire(nil))
    #expect(try options(["--camera", "pipewire:fakecam"]).camera == .pipewire("fakecam"))
    #expect(
      try options(["--resolution", "1280x720"]).resolution
        == .size(FrameSize(width: 1280, height: 720)))
    #expect(try options(["--resolution", "max"]).resolution == .largest)
    #expect(try options([]).resolution == .best)
    #expect(try options(["--simulate"]).location == .simulated)
    #expect(try options(["--no-beep"]).beep == false)
    #expect(try options(["--json", "--sequential"]).json)
    #expect(try options(["--no-color"]).color == false)
    #expect(try options(["--start-when-ready"]).startWhenReady)
    #expect(try options(["--start-when-ready"]).readyPeople == nil)
    #expect(try options(["--start-when-ready=6"]).readyPeople == 6)
    #expect(try options([]).startWhenReady == false)
    #expect(
      try CommandOptions(arguments: [], environment: ["NO_COLOR": "1"]).action
        == .run(
          {
            var run = CommandOptions.RunOptions(); run.color = false; return run
          }()))
    #expect(
      try CommandOptions(arguments: ["doctor", "--no-location"]).action
        == .doctor(
          {
            var run = CommandOptions.RunOptions(); run.location = .off; return run
          }()))
    #expect(try CommandOptions(arguments: ["-s", "x", "--help"]).action == .help)
    #expect(try CommandOptions(arguments: ["--version"]).action == .version)
  }

  @Test(
    "Bad command lines: every problem at once, with exact messages",
    arguments: [
      (["--secnds", "3"], ["unknown option '--secnds'; did you mean '--seconds'?"]),
      (["--seconds"], ["--seconds needs a value (N), for example '--seconds 5'"]),
      (
        ["-s", "-1", "--quality", "101"],
        [
          "--seconds takes a whole number of seconds from 0 to 3600, not '-1'",
          "--quality takes a whole number from 1 to 100, not '101'",
        ]
      ),
      (["--json=yes"], ["--json takes no value, but was given 'yes'"]),
      (["doctr"], ["unexpected argument 'doctr'; did you mean 'doctor'?"]),
      (
        ["--camera", "scene:dusk"],
        ["no scene preset 'dusk'; choose one of daylight, overcast, golden-hour, indoor, night"]
      ),
      (
        ["--camera", "webcam"],
        [
          "unknown camera 'webcam'; use auto, v4l2:/dev/videoN, pipewire[:NODE], ffmpeg:INPUT,"
            + " gphoto2, scene[:PRESET] or file:PATH"
        ]
      ),
      (
        ["--filter", "sepia"],
        [
          "no look 'sepia'; choose one of natural, vivid, warm, cool, mono, dramatic, fade, auto or none"
        ]
      ),
      (["--beep", "--no-beep"], ["--beep and --no-beep cannot be combined"]),
      (["--ffmpeg-format", "v4l2"], ["--ffmpeg-format applies only to --camera ffmpeg:INPUT"]),
      (
        ["--gpsd", "a:1", "--location", "1,2"],
        ["--gpsd and --location cannot be combined; choose one source of location"]
      ),
      (["--simulate", "--camera", "scene"], ["--simulate and --camera cannot be combined"]),
      (
        ["--gps-max-error", "50"],
        ["--gps-max-error takes a whole number of metres from 100 to 100000, not '50'"]
      ),
      (
        ["--no-location", "--gps-max-error", "500"],
        ["--gps-max-error applies to gpsd's fixes, not to --location or --no-location"]
      ),
      (["-x"], ["unknown option '-x'; see 'phototimer --help'"]),
      (["--burst", "0"], ["--burst takes a whole number of photos from 1 to 100, not '0'"]),
      (["--count", "5"], ["--count needs --interval SECONDS (the time between shots)"]),
      (
        ["--start-when-ready=0"],
        ["--start-when-ready=N takes a number of people from 1 to 50, not '0'"]
      ),
      (
        ["--start-when-ready=all"],
        ["--start-when-ready=N takes a number of people from 1 to 50, not 'all'"]
      ),
      (
        ["--no-people", "--start-when-ready"],
        ["--start-when-ready looks for the people; it cannot be combined with --no-people"]
      ),
      (["--interval", "10"], ["--interval needs --count N (how many shots)"]),
      (
        ["--interval", "0.5", "--count", "x"],
        [
          "--interval takes seconds from 1 to 86400, not '0.5'",
          "--count takes a whole number of shots from 1 to 100000, not 'x'",
        ]
      ),

    ])
  func bad(arguments: [String], problems: [String]) {
    #expect(throws: CommandOptions.UsageError(problems: problems)) {
      _ = try CommandOptions(arguments: arguments)
    }
  }

  @Test("Edit distance")
  func distance() {
    #expect(ArgumentParser.distance("--secnds", "--seconds") == 1)
    #expect(ArgumentParser.distance("", "abc") == 3)
    #expect(ArgumentParser.distance("kitten", "sitting") == 3)
  }

  /// `name` given with its example value, as a user would write it.
  static func given(_ name: String, _ value: CommandOption.Value?) -> [String] {
    switch value {
    case .optional(_, let example)?: ["\(name)=\(example)"]
    case let value?: [name, value.example]
    case nil: [name]
    }
  }

  @Test("--help fits an 80-column terminal, every line")
  func helpWidth() {
    for line in CommandOptions.help.split(separator: "\n") {
      #expect(line.count <= CommandOption.helpWidth, "\(line.count): \(line)")
    }
    #expect(CommandOption.wrap("a bb ccc dddd", width: 6) == ["a bb", "ccc", "dddd"])
    #expect(CommandOption.wrap("unbreakable-word here", width: 5) == ["unbreakable-word", "here"])
  }

  @Test(
    "--help lists every declared option of the command with its value, and each is accepted as declared"
  )
  func helpFromDeclarations() throws {
    let help = CommandOptions.help
    for option in ProgramHelp.Program.command.options {
      let declaration = option.declaration
      var shown = declaration.names.joined(separator: ", ")
      switch declaration.value {
      case .optional(let name, _)?: shown += "[=\(name)]"
      case let value?: shown += " \(value.name)"
      case nil: break
      }
      #expect(help.contains(shown), "\(shown) is not in --help")
      // Each paragraph, as wrapped to the terminal's width.
      let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      for paragraph in declaration.help { #expect(words.contains(paragraph), "\(paragraph)") }
      // Each name parses (with its example value when it takes one).
      for name in declaration.names {
        let arguments = Self.given(name, declaration.value)
        let (parsed, problems) = CommandOptions.parser.parse(arguments)
        #expect(problems.isEmpty, "\(arguments): \(problems)")
        #expect(parsed.has(option))
      }
    }
  }

  @Test("Each declared conflict is refused in either order; each requirement when alone")
  func declaredRules() throws {
    func arguments(_ option: CommandOption) -> [String] {
      let declaration = option.declaration
      return Self.given(declaration.names.last ?? "", declaration.value)
    }
    func problems(_ line: [String]) -> [String] {
      do {
        _ = try CommandOptions(arguments: line)
        return []
      } catch {
        return error.problems
      }
    }
    for conflict in CommandOption.conflicts {
      for (first, second) in zip(conflict.options, conflict.options.dropFirst()) {
        for line in [arguments(first) + arguments(second), arguments(second) + arguments(first)] {
          // NB: a message names the options, not their values (`--remote`, not `--remote=…`).
          let names = line.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
          let expected = conflict.message(names)
          #expect(problems(line).contains(expected), "\(line)")
        }
      }
    }
    for requirement in CommandOption.requirements {
      #expect(problems(arguments(requirement.option)).contains(requirement.message))
      let both = arguments(requirement.option) + arguments(requirement.needs)
      #expect(!problems(both).contains(requirement.message))
    }
  }

  @Test(
    "The reference's options table names every declared option and no other, defaults as declared")
  func referenceTable() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/reference.md"), encoding: .utf8)
    let section = try #require(text.components(separatedBy: "### Options\n").dropFirst().first)
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
    var named: Set<String> = []
    for row in rows {
      let column = row.split(separator: "|").first.map(String.init) ?? ""
      // NB: a name starts a backticked span or follows a space ("`--interval S --count N`").
      for match in column.matches(of: /(?:`| )(--?[a-z][a-z-]*)/) {
        named.insert(String(match.output.1))
      }
    }
    let declared = Set(CommandOption.allCases.flatMap(\.declaration.names))
    #expect(
      named == declared,
      "only in the table: \(named.subtracting(declared)); only declared: \(declared.subtracting(named))"
    )
    let defaults = CommandOptions.RunOptions()
    for shown in [
      "(default \(defaults.seconds))", "(default \(defaults.quality))",
      "(default \(defaults.width)x\(defaults.height))", "(default \(defaults.gpsMaxError))",
    ] {
      #expect(section.contains(shown), "no \(shown)")
    }
    for look in PhotoFilter.all { #expect(section.contains("`\(look.rawValue.lowercased())`")) }
  }

  /// The reference's options table as rows of cells (`\|` inside a cell is a `|`).
  static func referenceRows() throws -> [[String]] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("docs/reference.md"), encoding: .utf8)
    let section = try #require(text.components(separatedBy: "### Options\n").dropFirst().first)
    return section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
      row.replacing("\\|", with: "\u{1}").split(separator: "|")
        .map { $0.replacing("\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test(
    "The help and the reference say the same of every option: its value, its numbers, its phrases",
    arguments: CommandOption.allCases)
  func helpMatchesReference(option: CommandOption) throws {
    let declaration = option.declaration
    let rows = try Self.referenceRows()
    // NB: a name starts a backticked span or follows a space ("`--interval SECONDS --count N`").
    func names(_ term: String) -> Set<String> {
      Set(term.matches(of: /(?:`| )(--?[a-z][a-z-]*)/).map { String($0.output.1) })
    }
    let row = try #require(
      rows.first { names($0[0]).isSuperset(of: declaration.names) },
      "no row of the reference names \(declaration.names)")
    let term = row[0]
    let meaning = row.joined(separator: " ").lowercased()
    let long = option.name
    switch declaration.value {
    case .optional(let name, _)?: #expect(term.contains("\(long)[=\(name)]"), "\(term)")
    case let value?: #expect(term.contains("\(long) \(value.name)"), "\(term)")
    case nil: #expect(!term.contains("\(long) "), "\(term)")
    }
    let help = declaration.help.joined(separator: " ")
    for number in help.matches(of: /\d+(?:[.,]\d+)*(?:…\d+)?/) {
      #expect(meaning.contains(number.output), "\(long): the help says \(number.output)")
    }
    // NB: every run of three words of the help is said by the reference in the same order
    // (punctuation and backticks aside): the same words in another order would say
    // something else ("up to SECONDS after zero" is not "from a quarter second before zero").
    func words(_ text: String) -> [String] {
      text.lowercased().matches(of: /[a-z0-9…]+(?:[.'][a-z0-9]+)*/).map { String($0.output) }
    }
    let said = " " + words(meaning).joined(separator: " ") + " "
    let spoken = words(help)
    for start in 0..<max(0, spoken.count - 2) {
      let phrase = spoken[start..<start + 3].joined(separator: " ")
      #expect(said.contains(" \(phrase) "), "\(long): the help says '\(phrase)', the reference not")
    }
  }
}
