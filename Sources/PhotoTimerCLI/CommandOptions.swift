import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerImaging
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

  /// Which camera takes the photo.
  enum CameraChoice: Equatable {
    /// The seed's simulated camera: no pixels, no file (`--simulate`).
    case simulated
    /// The built-in scene camera under a lighting preset.
    case scene(ScenePreset)
    /// A JPEG or PNG file as the sensor.
    case file(String)
  }

  /// What a run is asked to do.
  struct RunOptions: Equatable {
    var seconds = 5
    var location = LocationChoice.gpsd(.standard)
    var camera = CameraChoice.scene(.daylight)
    var output: String?
    var filter = FilterChoice.auto
    var keepOriginal = false
    var quality = 92
    var size = (width: 1920, height: 1080)

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.seconds == rhs.seconds && lhs.location == rhs.location && lhs.camera == rhs.camera
        && lhs.output == rhs.output && lhs.filter == rhs.filter
        && lhs.keepOriginal == rhs.keepOriginal && lhs.quality == rhs.quality
        && lhs.size == rhs.size
    }
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
    "usage: phototimer [-s N] [--camera SOURCE] [-o DIR] [--filter NAME|auto|none]"
    + " [--location LAT,LON | --no-location | --gpsd HOST:PORT] [--simulate] [-h] [--version]"

  static let help = """
    phototimer — a photo self-timer that prepares the shot while it counts

    \(usageLine)

      -s, --seconds N      countdown, 0…3600 (default 5)
      --camera SOURCE      auto (default: the scene camera) | scene[:PRESET] | file:PATH
                           presets: daylight, overcast, golden-hour, indoor, night
      --size WxH           the scene camera's photo size (default 1920x1080)
      -o, --output DIR     folder for photos (default: XDG Pictures dir/phototimer)
      --filter NAME        a look (natural, vivid, warm, cool, mono, dramatic, fade),
                           auto (default: chosen from the preview) or none
      --keep-original      also save the unfiltered photo
      --quality N          JPEG quality, 1…100 (default 92)
      --location LAT,LON   fixed location instead of gpsd (decimal degrees)
      --no-location        no location at all: gpsd is not asked, nothing is written
      --gpsd HOST:PORT     gpsd to ask (default 127.0.0.1:2947)
      --simulate           the seed's simulation (timings only: no pixels, no file)
      -h, --help           show this help
      --version            show the version

    Exit status: 0 photo taken, 1 the run failed (camera, file or folder: the message says
    what to do), 64 bad usage, 130 cancelled.
    """

  var action: Action

  init(arguments: [String]) throws(UsageError) {
    var run = RunOptions()
    var simulate = false
    var cameraGiven = false
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
      case "--camera":
        let text = try value(of: name, inline: inline)
        run.camera = try Self.camera(text)
        cameraGiven = true
      case "-o", "--output":
        let text = try value(of: name, inline: inline)
        guard !text.isEmpty else {
          throw UsageError(description: "\(name) needs a folder, for example '\(name) ~/Pictures'")
        }
        run.output = text
      case "--filter":
        let text = try value(of: name, inline: inline)
        run.filter = try Self.filter(text)
      case "--keep-original":
        run.keepOriginal = true
      case "--quality":
        let text = try value(of: name, inline: inline)
        guard let number = Int(text), (1...100).contains(number) else {
          throw UsageError(
            description: "--quality takes a whole number from 1 to 100, not '\(text)'")
        }
        run.quality = number
      case "--size":
        let text = try value(of: name, inline: inline)
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...12_000).contains(parts[0]), (16...12_000).contains(parts[1])
        else {
          throw UsageError(
            description: "--size takes WIDTHxHEIGHT from 16 to 12000 pixels, not '\(text)'")
        }
        run.size = (parts[0], parts[1])
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
    if simulate {
      guard !cameraGiven else {
        throw UsageError(description: "--simulate and --camera cannot be combined")
      }
      run.camera = .simulated
      if locationOptions.isEmpty { run.location = .simulated }
    }
    action = .run(run)
  }

  private static func camera(_ text: String) throws(UsageError) -> CameraChoice {
    if text == "auto" || text == "scene" { return .scene(.daylight) }
    if text.hasPrefix("scene:") {
      let name = String(text.dropFirst("scene:".count))
      guard let preset = ScenePreset.named(name) else {
        let names = ScenePreset.all.map(\.name).joined(separator: ", ")
        throw UsageError(description: "no scene preset '\(name)'; choose one of \(names)")
      }
      return .scene(preset)
    }
    if text.hasPrefix("file:") {
      let path = String(text.dropFirst("file:".count))
      guard !path.isEmpty else {
        throw UsageError(description: "--camera file: needs a path, for example file:photo.jpg")
      }
      return .file(path)
    }
    throw UsageError(
      description: "unknown camera '\(text)'; use auto, scene[:PRESET] or file:PATH")
  }

  private static func filter(_ text: String) throws(UsageError) -> FilterChoice {
    switch text.lowercased() {
    case "auto": return .auto
    case "none": return .none
    default:
      let looks: [PhotoFilter] = [.natural, .vivid, .warm, .cool, .mono, .dramatic, .fade]
      guard let look = looks.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
        throw UsageError(
          description: "no look '\(text)'; choose one of "
            + looks.map { $0.rawValue.lowercased() }.joined(separator: ", ") + ", auto or none")
      }
      return .fixed(look)
    }
  }
}
