import PhotoTimer
import PhotoTimerImaging
import PhotoTimerLocation

/// The command line, interpreted.
package struct CommandOptions: Equatable {
  /// Where the geotag comes from.
  package enum LocationChoice: Equatable {
    /// The seed's simulated step (with `--simulate`).
    case simulated
    /// gpsd at the endpoint.
    case gpsd(GPSDEndpoint)
    /// A fixed position (`--location LAT,LON`).
    case manual(ManualLocation)
    /// No location at all (`--no-location`): no socket, nothing written.
    case off
  }

  /// How the run is shown.
  package enum OutputMode: Equatable {
    /// The live view (stdout is a terminal).
    case live
    /// One plain line per event (stdout is not a terminal).
    case plain
    /// One JSON object per event (`--json`).
    case json
  }

  /// What a run is asked to do.
  package struct RunOptions: Equatable {
    /// The defaults: what a run does when the command line says nothing.
    package init() {}

    package var seconds = 5
    package var location = LocationChoice.gpsd(.standard)
    /// `--gps-max-error`: the hard limit on a fix's horizontal error, in metres.
    package var gpsMaxError = Int(FixPolicy.defaultMaximumHorizontalError)
    package var camera = CameraChoice.auto
    /// `--resolution`: which of a webcam's modes.
    package var resolution = ModeRequest.best
    package var burst = 1
    /// Time-lapse: the time between shots, and how many.
    package var interval: Duration?
    package var count = 1
    package var output: String?
    package var filter = FilterChoice.auto
    package var keepOriginal = false
    /// Whether the people step looks for faces (`--no-people` turns it off).
    package var people = true
    /// How long after zero the photo may come from, for everyone's eyes open
    /// (`--blink-window`; zero: the frame nearest zero).
    package var blinkWindow = Duration.seconds(1)
    package var quality = 92
    /// `--camera-wait`: how long the shutter waits at zero for the camera, in seconds.
    package var cameraWait = 10
    package var width = 1920
    package var height = 1080
    package var sequential = false
    package var json = false
    /// Whether the camera's program's own words (ffmpeg's) go to standard error.
    package var verbose = false
    package var beep: Bool?
    package var color = true
    /// `--frame`: the preview runs and each count waits for space.
    package var frame = false
    /// `--start-when-ready`: the count starts by itself once the people are in and still.
    package var startWhenReady = false
    /// `--start-when-ready=N`: how many people it waits for (`nil`: at least one, steady).
    package var readyPeople: Int?
    /// Where the phone's remote listens, or `nil` for none.
    package var remote: RemoteAddress?
    /// Whether the live view may show the live picture (`--no-preview` turns it off).
    package var preview = true
    /// `--mirror` or `--no-mirror`; `nil` mirrors webcams only.
    package var mirror: Bool?
    /// `phototimer booth`: each start is a session of shots with a collage.
    package var booth = false
    /// The booth's session: `--shots`, `--between`, `--review`, `--retakes`.
    package var boothPlan = BoothPlan()
    /// `--layout`: the collage's layout, a built-in's name or a JSON file.
    package var layout = BoothLayout.strip.name
    /// `--event`: the event's name, its folder inside the photo folder.
    package var event: String?
    /// Whether a booth's collage gets a guest link (`--no-guest-links` turns them off).
    package var guestLinks = true
    /// `--fullscreen` (the window's): the window fills the screen.
    package var fullscreen = false
    /// `--print`: whether the program prints.
    package var printing = false
    /// How it prints: `--print=PRINTER`, `--copies`, `--auto-print`, `--max-prints`,
    /// `--max-queue`.
    package var print = PrintDesk.Rules()
    /// `--idle` (the window's booth): seconds without a press before the live picture and the
    /// last collages take turns; 0 never.
    package var idle = 30
  }

  package enum Action: Equatable {
    case run(RunOptions)
    case doctor(RunOptions)
    case help
    case version
  }

  /// Bad usage: every problem found, one per line.
  package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var problems: [String]
    package var description: String { problems.joined(separator: "\n") }

    package init(problems: [String]) {
      self.problems = problems
    }
  }

  package static let usageLine =
    "usage: phototimer [options] | phototimer booth [options] | phototimer doctor   (see --help)"

  package static var help: String {
    let program = ProgramHelp.Program.command
    return
      ([
        "phototimer — \(program.summary)", "",
        "usage:",
        "  phototimer [options]            take a photo with the self-timer",
      ]
      + program.commands.map {
        "  phototimer \($0.term.padding(toLength: 21, withPad: " ", startingAt: 0))\($0.text)"
      }
      + ["", "options:"] + CommandOption.helpLines + [""] + program.helpFooter).joined(
        separator: "\n")
  }

  package static let parser = ArgumentParser(
    options: CommandOption.allCases, commands: ProgramHelp.Program.command.commands.map(\.term))

  package var action: Action

  /// Interprets the command line.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the program name.
  ///   - environment: For `NO_COLOR`.
  ///   - program: The program reading them: the command refuses the window's own options.
  /// - Throws: ``UsageError`` with every problem found.
  package init(
    arguments: [String], environment: [String: String] = [:],
    program: ProgramHelp.Program = .command
  ) throws(UsageError) {
    let (parsed, parseProblems) = Self.parser.parse(arguments)
    var problems = parseProblems
    if program == .command {
      for option in CommandOption.windowOnly where parsed.has(option) {
        problems.append("\(option.name) is for the window; run phototimer-gtk \(option.name)")
      }
    }
    if parsed.has(.help) {
      action = .help
      return
    }
    if parsed.has(.version) {
      action = .version
      return
    }
    for positional in parsed.positionals {
      let near = ["doctor", "booth"].first { ArgumentParser.distance(positional, $0) <= 2 }
      let suggestion = near.map { "; did you mean '\($0)'?" } ?? ""
      problems.append("unexpected argument '\(positional)'\(suggestion)")
    }
    var run = RunOptions()
    // Each option given, in declaration order (so a camera is known before its format), with
    // its last value: its declared setter parses it into its field.
    for option in CommandOption.allCases where parsed.has(option) {
      if case .integer? = option.declaration.value,
        parsed.integer(option, problems: &problems) == nil
      {
        continue
      }
      problems += option.declaration.set.apply(&run, parsed.value(option) ?? "")
    }
    if !(environment["NO_COLOR"] ?? "").isEmpty { run.color = false }
    // The options that exclude or need each other, as declared.
    problems += CommandOption.problems(of: parsed.order)
    // What depends on the values given together.
    let locationOptions = parsed.order.filter { [.location, .noLocation, .gpsd].contains($0) }
    if parsed.has(.simulate), locationOptions.isEmpty { run.location = .simulated }
    if parsed.has(.gpsMaxError), !run.location.isGPSD {
      problems.append("--gps-max-error applies to gpsd's fixes, not to --location or --no-location")
    }
    run.booth = parsed.command == "booth"
    let boothOptions = parsed.order.filter(CommandOption.boothOptions.contains)
    if !run.booth, let first = boothOptions.first {
      problems.append("\(first.name) applies to a booth: phototimer booth \(first.name) …")
    }
    if run.booth {
      for option in parsed.order where CommandOption.notInBooth.contains(option) {
        problems.append(
          "phototimer booth cannot take \(option.name): \(CommandOption.whyNotInBooth)")
      }
    }
    guard problems.isEmpty else { throw UsageError(problems: problems) }
    action = parsed.command == "doctor" ? .doctor(run) : .run(run)
  }
}
