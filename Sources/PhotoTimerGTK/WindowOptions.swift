import Foundation
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The window's command line: `phototimer`'s options for the camera, the count, the folder,
/// the location and the look; the ones that only make sense in a terminal are refused.
struct WindowOptions {
  enum Action {
    case run(CommandOptions.RunOptions, given: Set<CommandOption>)
    case help
    case version
  }

  static let usageLine = "usage: phototimer-gtk [options]   (see --help)"

  static var help: String {
    let program = ProgramHelp.Program.window
    return
      ([
        "phototimer-gtk — \(program.summary)",
        "", "usage:", "  phototimer-gtk [options]",
        "  phototimer-gtk --booth [options]   a photo booth: shots, retakes, a collage", "",
        "options:",
      ] + CommandOption.helpLines(for: program.options) + [""] + program.helpFooter + [
        "",
        "The last countdown, camera and look chosen in the window are remembered in",
        "$XDG_CONFIG_HOME/phototimer/window.json; options given here win over them.",
      ]).joined(separator: "\n")
  }

  let action: Action

  /// Interprets the command line.
  ///
  /// - Throws: ``CommandOptions/UsageError`` with every problem found.
  init(arguments given: [String]) throws(CommandOptions.UsageError) {
    // NB: `phototimer-gtk --booth` is the window's spelling of `phototimer booth`.
    let arguments = given.map { $0 == "--booth" ? "booth" : $0 }
    let parsed = CommandOptions.parser.parse(arguments).0
    var problems: [String] = []
    for option in parsed.order where !CommandOption.windowOptions.contains(option) {
      problems.append("\(option.name) is for the terminal program; run phototimer \(option.name)")
    }
    if parsed.command == "doctor" {
      problems.append("the window has no doctor; run 'phototimer doctor'")
    }
    let options: CommandOptions
    do throws(CommandOptions.UsageError) {
      options = try CommandOptions(arguments: arguments, program: .window)
    } catch {
      // NB: a refused option explains itself better than what the parser makes of it.
      throw CommandOptions.UsageError(problems: problems.isEmpty ? error.problems : problems)
    }
    guard problems.isEmpty else { throw CommandOptions.UsageError(problems: problems) }
    switch options.action {
    case .help: action = .help
    case .version: action = .version
    case .run(let run), .doctor(let run): action = .run(run, given: Set(parsed.order))
    }
  }
}
