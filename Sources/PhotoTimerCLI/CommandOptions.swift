import PhotoTimerGPSD
import PhotoTimerLocation

/// The command line, parsed.
struct CommandOptions: Equatable {
  /// Where the geotag comes from.
  enum LocationChoice: Equatable {
    /// The seed's simulated step (with `--simulate`).
    case simulated
    /// gpsd at the endpoint.
    case gpsd(GPSDEndpoint)
    /// A fixed position (`--location LAT,LON`).
    case manual(ManualLocation)
    /// No location at all (`--no-location`): no socket, nothing written.
    case off
  }

  /// What a run is asked to do.
  struct RunOptions: Equatable {
    var seconds = 5
    var location = LocationChoice.gpsd(.standard)
  }

  enum Action: Equatable {
    case run(RunOptions)
    case help
    case version
  }

  /// A command line that cannot be run, with what to change.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  static let usageLine =
    "usage: phototimer [-s N] [--location LAT,LON | --no-location | --gpsd HOST:PORT]"
    + " [--simulate] [-h] [--version]"

  static let help = """
    phototimer — a photo self-timer that prepares the shot while it counts

    \(usageLine)

      -s, --seconds N      countdown, 0…3600 (default 5)
      --location LAT,LON   fixed location instead of gpsd (decimal degrees)
      --no-location        no location at all: gpsd is not asked, nothing is written
      --gpsd HOST:PORT     gpsd to ask (default 127.0.0.1:2947)
      --simulate           the built-in simulation (seed timings, no hardware, no file)
      -h, --help           show this help
      --version            show the version

    Exit status: 0 photo taken, 1 the run failed, 64 bad usage, 130 cancelled.
    """

  var action: Action

  init(arguments: [String]) throws(UsageError) {
    var run = RunOptions()
    var simulate = false
    var locationOptions: [String] = []
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
        run.seconds = number
      case "--simulate":
        simulate = true
      case "--location":
        let text = try value(of: name, inline: inline)
        do {
          run.location = .manual(try ManualLocation(parsing: text))
        } catch {
          throw UsageError(description: "--location: \(error)")
        }
        locationOptions.append(name)
      case "--no-location":
        run.location = .off
        locationOptions.append(name)
      case "--gpsd":
        let text = try value(of: name, inline: inline)
        guard let endpoint = GPSDEndpoint(text) else {
          throw UsageError(
            description: "--gpsd takes HOST:PORT with a port from 1 to 65535, not '\(text)'")
        }
        run.location = .gpsd(endpoint)
        locationOptions.append(name)
      default:
        throw UsageError(description: "unknown option '\(argument)'; see 'phototimer --help'")
      }
      index += 1
    }
    guard locationOptions.count <= 1 else {
      throw UsageError(
        description: "\(locationOptions.joined(separator: " and ")) cannot be combined; "
          + "choose one source of location")
    }
    if simulate, locationOptions.isEmpty { run.location = .simulated }
    action = .run(run)
  }
}
