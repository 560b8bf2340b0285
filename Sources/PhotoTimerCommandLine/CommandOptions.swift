import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGStreamer
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

  /// Which camera takes the photo.
  package enum CameraChoice: Equatable {
    /// The seed's simulated camera: no pixels, no file (`--simulate`).
    case simulated
    /// The built-in scene camera under a lighting preset.
    case scene(ScenePreset)
    /// A JPEG or PNG file as the sensor.
    case file(String)
    /// A stream read through ffmpeg, with its input format.
    case ffmpeg(String, format: String?)
    /// A V4L2 webcam through GStreamer (`v4l2:/dev/video0`).
    case v4l2(String)
    /// A PipeWire camera through GStreamer, by node name, or the default one.
    case pipewire(String?)
    /// A DSLR through gphoto2.
    case gphoto2
    /// `auto`: a V4L2 device, else a gphoto2 camera, else the scene camera (decided at start).
    case auto
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
    package var quality = 92
    package var width = 1920
    package var height = 1080
    package var sequential = false
    package var json = false
    package var beep: Bool?
    package var color = true
    /// `--frame`: the preview runs and each count waits for space.
    package var frame = false
    /// Whether the live view may show the live picture (`--no-preview` turns it off).
    package var preview = true
    /// `--mirror` or `--no-mirror`; `nil` mirrors webcams only.
    package var mirror: Bool?
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

  package static let usageLine = "usage: phototimer [options] | phototimer doctor   (see --help)"

  package static var help: String {
    ([
      "phototimer — a photo self-timer that prepares the shot while it counts", "",
      "usage:",
      "  phototimer [options]            take a photo with the self-timer",
      "  phototimer doctor               say what is available and what is wrong", "",
      "options:",
    ] + CommandOption.helpLines + [
      "",
      "keys in the live view: c, Esc or q cancel · space or Enter take it now · r restart",
      "with --frame: space starts · c goes back to framing · q or Esc quits while framing", "",
      "exit status: 0 photo taken (--frame: at least one) · 1 the run failed (the message says",
      "what to do) · 2 bad usage",
      "· 130 cancelled (key or Ctrl-C) · 143 terminated (SIGTERM) · 129 hung up (SIGHUP)",
    ]).joined(separator: "\n")
  }

  package static let parser = ArgumentParser(options: CommandOption.allCases, commands: ["doctor"])

  package var action: Action

  /// Interprets the command line.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the program name.
  ///   - environment: For `NO_COLOR`.
  /// - Throws: ``UsageError`` with every problem found.
  package init(arguments: [String], environment: [String: String] = [:]) throws(UsageError) {
    let (parsed, parseProblems) = Self.parser.parse(arguments)
    var problems = parseProblems
    if parsed.has(.help) {
      action = .help
      return
    }
    if parsed.has(.version) {
      action = .version
      return
    }
    for positional in parsed.positionals {
      let suggestion =
        ArgumentParser.distance(positional, "doctor") <= 2 ? "; did you mean 'doctor'?" : ""
      problems.append("unexpected argument '\(positional)'\(suggestion)")
    }
    var run = RunOptions()
    if let seconds = parsed.integer(.seconds, problems: &problems) { run.seconds = seconds }
    if let text = parsed.value(.camera) {
      do throws(UsageError) {
        run.camera = try Self.camera(text)
      } catch {
        problems += error.problems
      }
    }
    if let format = parsed.value(.ffmpegFormat) {
      if case .ffmpeg(let input, _) = run.camera {
        run.camera = .ffmpeg(input, format: format)
      } else {
        problems.append("--ffmpeg-format applies only to --camera ffmpeg:INPUT")
      }
    }
    if let text = parsed.value(.resolution) {
      if let request = Self.resolution(text) {
        run.resolution = request
      } else {
        problems.append("--resolution needs WxH or max, for example '--resolution 1280x720'")
      }
    }
    if let burst = parsed.integer(.burst, problems: &problems) { run.burst = burst }
    if let text = parsed.value(.output) {
      if text.isEmpty {
        problems.append("--output needs a folder, for example '--output ~/Pictures'")
      } else {
        run.output = text
      }
    }
    if let text = parsed.value(.filter) {
      do throws(UsageError) {
        run.filter = try Self.filter(text)
      } catch {
        problems += error.problems
      }
    }
    run.keepOriginal = parsed.has(.keepOriginal)
    run.sequential = parsed.has(.sequential)
    run.json = parsed.has(.json)
    if let quality = parsed.integer(.quality, problems: &problems) { run.quality = quality }
    if let text = parsed.value(.size) {
      let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
      if parts.count == 2, (16...12_000).contains(parts[0]), (16...12_000).contains(parts[1]) {
        run.width = parts[0]
        run.height = parts[1]
      } else {
        problems.append("--size takes WIDTHxHEIGHT from 16 to 12000 pixels, not '\(text)'")
      }
    }
    // The options that exclude or need each other, as declared.
    problems += CommandOption.problems(of: parsed.order)
    let locationOptions = parsed.order.filter { [.location, .noLocation, .gpsd].contains($0) }
    if let text = parsed.value(.location) {
      do {
        run.location = .manual(try ManualLocation(parsing: text))
      } catch {
        problems.append("--location: \(error)")
      }
    }
    if parsed.has(.noLocation) { run.location = .off }
    if let text = parsed.value(.gpsd) {
      if let endpoint = GPSDEndpoint(text) {
        run.location = .gpsd(endpoint)
      } else {
        problems.append("--gpsd takes HOST:PORT with a port from 1 to 65535, not '\(text)'")
      }
    }
    if let metres = parsed.integer(.gpsMaxError, problems: &problems) { run.gpsMaxError = metres }
    if parsed.has(.gpsMaxError), !run.location.isGPSD {
      problems.append("--gps-max-error applies to gpsd's fixes, not to --location or --no-location")
    }
    if parsed.has(.beep) {
      run.beep = true
    } else if parsed.has(.noBeep) {
      run.beep = false
    }
    run.color = !parsed.has(.noColor) && (environment["NO_COLOR"] ?? "").isEmpty
    run.frame = parsed.has(.frame)
    run.preview = !parsed.has(.noPreview)
    if parsed.has(.mirror) {
      run.mirror = true
    } else if parsed.has(.noMirror) {
      run.mirror = false
    }
    if parsed.has(.simulate) {
      run.camera = .simulated
      if locationOptions.isEmpty { run.location = .simulated }
    }
    if let interval = parsed.value(.interval), parsed.has(.count) {
      if let seconds = Double(interval), seconds.isFinite, (1...86_400).contains(seconds) {
        run.interval = .milliseconds(Int64((seconds * 1000).rounded()))
      } else {
        problems.append("--interval takes seconds from 1 to 86400, not '\(interval)'")
      }
      if let count = parsed.integer(.count, problems: &problems) { run.count = count }
    }
    guard problems.isEmpty else { throw UsageError(problems: problems) }
    action = parsed.command == "doctor" ? .doctor(run) : .run(run)
  }
}
