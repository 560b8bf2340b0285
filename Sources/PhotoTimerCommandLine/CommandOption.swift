import PhotoTimer
import PhotoTimerGPSD

/// Every option of `phototimer`, declared once.
///
/// Each case's declaration (names, value, help) is the one source for parsing, validating a
/// whole-number value, the `--help` text and the suggestion for a misspelling; code reads
/// an option by its case, so a misspelt lookup does not compile.
package enum CommandOption: CaseIterable, Hashable, Sendable {
  case seconds, camera, resolution, ffmpegFormat, output, location, noLocation, gpsd, gpsMaxError,
    filter
  case keepOriginal
  case simulate, sequential, json, beep, noBeep, noColor, burst, interval, count, size, quality
  case frame, noPreview, mirror, noMirror
  case help, version

  /// What an option's value is.
  package enum Value: Hashable {
    /// Free text, checked by the code that uses it; `name` is shown in help (`DIR`).
    case text(name: String, example: String)
    /// A whole number within `range`; `unit` names what it counts ("seconds").
    case integer(name: String, range: ClosedRange<Int>, unit: String?, example: String)

    /// The placeholder shown in help and messages.
    package var name: String {
      switch self {
      case .text(let name, _), .integer(let name, _, _, _): name
      }
    }

    /// A value to show in "needs a value, for example …".
    package var example: String {
      switch self {
      case .text(_, let example), .integer(_, _, _, let example): example
      }
    }
  }

  /// The option's declaration.
  package struct Declaration {
    package var names: [String]
    package var value: Value?
    package var help: [String]
  }

  /// The values an option left out takes: the help shows them from here.
  private var defaults: CommandOptions.RunOptions { CommandOptions.RunOptions() }

  /// The names, the value and the help of this option.
  package var declaration: Declaration {
    switch self {
    case .seconds:
      Declaration(
        names: ["-s", "--seconds"],
        value: .integer(name: "N", range: 0...3600, unit: "seconds", example: "5"),
        help: ["countdown, 0…3600 (default \(defaults.seconds))"])
    case .camera:
      Declaration(
        names: ["--camera"], value: .text(name: "SOURCE", example: "scene"),
        help: [
          "auto (default) | v4l2:/dev/videoN | pipewire[:NODE]",
          "| scene[:PRESET] | file:PATH | ffmpeg:INPUT | gphoto2",
          "presets: daylight, overcast, golden-hour, indoor, night",
          "auto: the first webcam (V4L2, through GStreamer), else a",
          "gphoto2 camera, else the scene camera",
        ])
    case .resolution:
      Declaration(
        names: ["--resolution"], value: .text(name: "WxH|max", example: "1280x720"),
        help: [
          "a webcam's mode: this size at its highest rate, or max (the",
          "largest, whatever its rate); default: the largest at 24 fps or",
          "more (`phototimer doctor` lists the modes)",
        ])
    case .ffmpegFormat:
      Declaration(
        names: ["--ffmpeg-format"], value: .text(name: "FORMAT", example: "v4l2"),
        help: ["ffmpeg input format for ffmpeg:INPUT (e.g. v4l2, lavfi)"])
    case .output:
      Declaration(
        names: ["-o", "--output"], value: .text(name: "DIR", example: "~/Pictures"),
        help: ["folder for photos (default: XDG Pictures dir/phototimer)"])
    case .location:
      Declaration(
        names: ["--location"], value: .text(name: "LAT,LON", example: "37.7694,-122.4862"),
        help: ["fixed location instead of gpsd"])
    case .noLocation:
      Declaration(
        names: ["--no-location"], value: nil,
        help: ["no location at all: gpsd is not asked, nothing is written"])
    case .gpsd:
      Declaration(
        names: ["--gpsd"], value: .text(name: "HOST:PORT", example: "127.0.0.1:2947"),
        help: ["gpsd to ask (default \(GPSDEndpoint.standard))"])
    case .gpsMaxError:
      Declaration(
        names: ["--gps-max-error"],
        value: .integer(name: "METRES", range: 100...100_000, unit: "metres", example: "2000"),
        help: [
          "the largest GPS error a fix may have to geotag, used when no fix within 100 m",
          "comes before the shutter (default \(defaults.gpsMaxError))",
        ])
    case .filter:
      Declaration(
        names: ["--filter"], value: .text(name: "NAME", example: "vivid"),
        help: [
          "force a look (\(PhotoFilter.all.map { $0.rawValue.lowercased() }.joined(separator: ", "))),",
          "auto to let the analysis choose (default), or none",
        ])
    case .keepOriginal:
      Declaration(names: ["--keep-original"], value: nil, help: ["also save the unfiltered photo"])
    case .simulate:
      Declaration(
        names: ["--simulate"], value: nil,
        help: ["the built-in simulation (seed timings, no hardware, no file)"])
    case .sequential:
      Declaration(
        names: ["--sequential"], value: nil,
        help: ["run the preparations one after another, then count", "(for comparison)"])
    case .json:
      Declaration(
        names: ["--json"], value: nil, help: ["JSON Lines events on stdout instead of the UI"])
    case .beep:
      Declaration(
        names: ["--beep"], value: nil,
        help: ["terminal bell each second, a distinct last one (default: on in the live view)"])
    case .noBeep:
      Declaration(names: ["--no-beep"], value: nil, help: ["no bell"])
    case .noColor:
      Declaration(
        names: ["--no-color"], value: nil, help: ["no colour (NO_COLOR is honoured too)"])
    case .burst:
      Declaration(
        names: ["--burst"],
        value: .integer(name: "N", range: 1...100, unit: "photos", example: "5"),
        help: ["N photos at zero, one per frame (1…100)"])
    case .interval:
      Declaration(
        names: ["--interval"], value: .text(name: "SECONDS", example: "10"),
        help: ["time-lapse: the time between shots, 1…86400 (with --count)"])
    case .count:
      Declaration(
        names: ["--count"],
        value: .integer(name: "N", range: 1...100_000, unit: "shots", example: "5"),
        help: ["time-lapse: how many shots in all (with --interval)"])
    case .size:
      Declaration(
        names: ["--size"], value: .text(name: "WxH", example: "1920x1080"),
        help: ["the scene camera's photo size (default \(defaults.width)x\(defaults.height))"])
    case .quality:
      Declaration(
        names: ["--quality"],
        value: .integer(name: "N", range: 1...100, unit: nil, example: "92"),
        help: ["JPEG quality, 1…100 (default \(defaults.quality))"])
    case .frame:
      Declaration(
        names: ["--frame"], value: nil,
        help: [
          "frame first: the preview runs and nothing is counted until",
          "space; c during the count goes back to framing, space after",
          "a photo takes the next one, q or Esc quits",
        ])
    case .noPreview:
      Declaration(
        names: ["--no-preview"], value: nil,
        help: [
          "no live picture in the live view (it is on when the terminal", "takes 24-bit colour)",
        ])
    case .mirror:
      Declaration(
        names: ["--mirror"], value: nil,
        help: ["mirror the preview (default for webcams); the photo never is"])
    case .noMirror:
      Declaration(names: ["--no-mirror"], value: nil, help: ["do not mirror the preview"])
    case .help:
      Declaration(names: ["-h", "--help"], value: nil, help: ["show this help"])
    case .version:
      Declaration(names: ["--version"], value: nil, help: ["show the version"])
    }
  }

  /// The long name, as messages show it.
  package var name: String { declaration.names.last ?? "" }

  /// The options section of `--help`, one declaration after another.
  package static var helpLines: [String] { helpLines(for: allCases) }

  /// The `--help` lines of `options` only.
  package static func helpLines(for options: [CommandOption]) -> [String] {
    let column = 30
    return options.flatMap { option -> [String] in
      let declaration = option.declaration
      var left = declaration.names.joined(separator: ", ")
      if let value = declaration.value { left += " \(value.name)" }
      let indent = String(repeating: " ", count: column + 2)
      var lines: [String]
      if left.count < column {
        lines = [
          "  " + left.padding(toLength: column, withPad: " ", startingAt: 0)
            + (declaration.help.first ?? "")
        ]
      } else {
        lines = ["  " + left, indent + (declaration.help.first ?? "")]
      }
      lines += declaration.help.dropFirst().map { indent + $0 }
      return lines
    }
  }
}

extension CommandOption {
  /// Options that cannot be given together.
  package struct Conflict: Sendable {
    /// The options; two or more of them given is the problem.
    package var options: [CommandOption]
    /// The message, from the names of those given; by default "A and B cannot be combined".
    package var message: @Sendable ([String]) -> String

    init(_ options: [CommandOption], because reason: String = "") {
      self.options = options
      message = { "\($0.joined(separator: " and ")) cannot be combined\(reason)" }
    }

    init(_ options: [CommandOption], message: @escaping @Sendable ([String]) -> String) {
      self.options = options
      self.message = message
    }
  }

  /// An option that means nothing without another.
  package struct Requirement: Sendable {
    /// The option given.
    package var option: CommandOption
    /// The option it needs.
    package var needs: CommandOption
    /// What to say when it is missing.
    package var message: String
  }

  /// Every pair (or group) of options that exclude each other, declared once.
  package static let conflicts: [Conflict] = [
    Conflict([.location, .noLocation, .gpsd], because: "; choose one source of location"),
    Conflict([.beep, .noBeep]),
    Conflict([.mirror, .noMirror]),
    Conflict([.frame, .json]) { _ in
      "--frame needs the live view; it cannot be combined with --json"
    },
    Conflict([.frame, .interval], because: ": a time-lapse does not wait for keys"),
    Conflict([.simulate, .camera]),
    Conflict([.frame, .simulate]) { _ in
      "--frame needs a camera; it cannot be combined with --simulate"
    },
  ]

  /// Every option that needs another, declared once.
  package static let requirements: [Requirement] = [
    Requirement(
      option: .count, needs: .interval,
      message: "--count needs --interval SECONDS (the time between shots)"),
    Requirement(
      option: .interval, needs: .count, message: "--interval needs --count N (how many shots)"),
  ]

  /// The problems of `given` (in the order they were given) under the declared conflicts and
  /// requirements.
  package static func problems(of given: [CommandOption]) -> [String] {
    var problems: [String] = []
    for conflict in conflicts {
      let present = given.filter(conflict.options.contains)
      var seen: [CommandOption] = []
      for option in present where !seen.contains(option) { seen.append(option) }
      if seen.count > 1 { problems.append(conflict.message(seen.map(\.name))) }
    }
    let set = Set(given)
    for requirement in requirements where set.contains(requirement.option) {
      if !set.contains(requirement.needs) { problems.append(requirement.message) }
    }
    return problems
  }
}
