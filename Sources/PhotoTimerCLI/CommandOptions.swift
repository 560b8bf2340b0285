/// The command line, parsed.
struct CommandOptions: Equatable {
  enum Action: Equatable {
    case run(seconds: Int)
    case help
    case version
  }

  /// A command line that cannot be run, with what to change.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  static let usageLine = "usage: phototimer [-s N] [--simulate] [-h] [--version]"

  static let help = """
    phototimer — a photo self-timer that prepares the shot while it counts

    \(usageLine)

      -s, --seconds N   countdown, 0…3600 (default 5)
      --simulate        the built-in simulation (seed timings, no hardware, no file)
      -h, --help        show this help
      --version         show the version

    Exit status: 0 photo taken, 1 the run failed, 64 bad usage, 130 cancelled.
    """

  var action: Action

  init(arguments: [String]) throws(UsageError) {
    var seconds = 5
    var index = 0
    func value(of option: String, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      index += 1
      guard index < arguments.count else {
        throw UsageError(description: "\(option) needs a value, for example '\(option) 5'")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
      let name = argument.hasPrefix("--") ? parts[0] : argument
      let inline = argument.hasPrefix("--") && parts.count == 2 ? parts[1] : nil
      switch name {
      case "-h", "--help":
        action = .help
        return
      case "--version":
        action = .version
        return
      case "-s", "--seconds":
        let text = try value(of: name, inline: inline)
        guard let number = Int(text), (0...3600).contains(number) else {
          throw UsageError(
            description: "\(name) takes a whole number of seconds from 0 to 3600, not '\(text)'")
        }
        seconds = number
      case "--simulate":
        break
      default:
        throw UsageError(description: "unknown option '\(argument)'; see 'phototimer --help'")
      }
      index += 1
    }
    action = .run(seconds: seconds)
  }
}
