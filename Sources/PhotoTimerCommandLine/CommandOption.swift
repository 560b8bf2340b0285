import PhotoTimer
import PhotoTimerImaging
import PhotoTimerLocation

/// Every option of `phototimer`, declared once.
///
/// Each case's declaration (names, value, help) is the one source for parsing, validating a
/// whole-number value, the `--help` text and the suggestion for a misspelling; code reads
/// an option by its case, so a misspelt lookup does not compile.
package enum CommandOption: CaseIterable, Hashable, Sendable {
  case seconds, camera, resolution, ffmpegFormat, output, location, noLocation, gpsd, gpsMaxError,
    filter, noPeople, blinkWindow
  case keepOriginal
  case simulate, sequential, json, verbose, beep, noBeep, noColor, burst, interval, count, size
  case quality, cameraWait
  case frame, startWhenReady, noPreview, mirror, noMirror
  case remote
  case shots, between, review, retakes, layout, event, noGuestLinks, fullscreen, idle
  case print, copies, autoPrint, maxPrints, maxQueue
  case help, version

  /// The values an option left out takes: the help shows them from here.
  var defaults: CommandOptions.RunOptions { CommandOptions.RunOptions() }

  /// The names, the value and the help of this option.
  package var declaration: Declaration {
    switch self {
    case .seconds:
      Declaration(
        names: ["-s", "--seconds"],
        value: .integer(name: "N", range: 0...3600, unit: "seconds", example: "5"),
        help: ["countdown, 0…3600 (default \(defaults.seconds))"],
        set: .integer(\.seconds))
    case .camera:
      Declaration(
        names: ["--camera"], value: .text(name: "SOURCE", example: "scene"),
        help: [
          CameraKinds.usages.joined(separator: " | ") + " (auto is the default)",
          "presets: " + ScenePreset.all.map(\.name).joined(separator: ", "),
          "auto: the first webcam (V4L2, through GStreamer), else a gphoto2 camera, else the"
            + " scene camera",
        ],
        set: .parse { run, text in
          do throws(CommandOptions.UsageError) {
            run.camera = try CameraKinds.parse(text)
            return []
          } catch {
            return error.problems
          }
        },
        completion: .cameras)
    case .resolution:
      Declaration(
        names: ["--resolution"], value: .text(name: "WxH|max", example: "1280x720"),
        help: [
          "a webcam's mode: this size at its highest rate, or max (the largest, whatever "
            + "its rate); default: the largest at 24 fps or more (`phototimer doctor` lists the "
            + "modes)"
        ],
        set: .parse { run, text in
          guard let request = CommandOptions.resolution(text) else {
            return ["--resolution needs WxH or max, for example '--resolution 1280x720'"]
          }
          run.resolution = request
          return []
        },
        completion: .cameraSizes)
    case .ffmpegFormat:
      Declaration(
        names: ["--ffmpeg-format"], value: .text(name: "FORMAT", example: "v4l2"),
        help: ["ffmpeg input format for ffmpeg:INPUT (e.g. v4l2, lavfi)"],
        set: .parse { run, format in
          guard run.camera.kind is FFmpegKind else {
            return ["--ffmpeg-format applies only to --camera ffmpeg:INPUT"]
          }
          run.camera.format = format
          return []
        },
        completion: .words([
          Word("v4l2", "a webcam through ffmpeg"), Word("lavfi", "a test source"),
          Word("rtsp", "an RTSP stream"), Word("mjpeg", "an MJPEG stream"),
        ]))
    case .output:
      Declaration(
        names: ["-o", "--output"], value: .text(name: "DIR", example: "~/Pictures"),
        help: [
          "folder for photos (default: XDG Pictures dir/phototimer); created when its "
            + "parent exists"
        ],
        set: .parse { run, text in
          guard !text.isEmpty else {
            return ["--output needs a folder, for example '--output ~/Pictures'"]
          }
          run.output = text
          return []
        },
        completion: .folders)
    case .location:
      Declaration(
        names: ["--location"], value: .text(name: "LAT,LON", example: "37.7694,-122.4862"),
        help: ["fixed location instead of gpsd"],
        set: .parse { run, text in
          do {
            run.location = .manual(try ManualLocation(parsing: text))
            return []
          } catch {
            return ["--location: \(error)"]
          }
        })
    case .noLocation:
      Declaration(
        names: ["--no-location"], value: nil,
        help: ["no location at all: gpsd is not asked, nothing is written"],
        set: .flag { $0.location = .off })
    case .gpsd:
      Declaration(
        names: ["--gpsd"], value: .text(name: "HOST:PORT", example: "127.0.0.1:2947"),
        help: ["gpsd to ask (default \(GPSDEndpoint.standard))"],
        set: .parse { run, text in
          guard let endpoint = GPSDEndpoint(text) else {
            return ["--gpsd takes HOST:PORT with a port from 1 to 65535, not '\(text)'"]
          }
          run.location = .gpsd(endpoint)
          return []
        },
        completion: .words([Word(GPSDEndpoint.standard.description, "gpsd on this machine")]))
    case .gpsMaxError:
      Declaration(
        names: ["--gps-max-error"],
        value: .integer(name: "METRES", range: 100...100_000, unit: "metres", example: "2000"),
        help: [
          "the largest GPS error a fix may have to geotag, used when no fix within 100 m "
            + "comes before the shutter, 100…100000 (default \(defaults.gpsMaxError))"
        ],
        set: .integer(\.gpsMaxError))
    case .filter:
      Declaration(
        names: ["--filter"], value: .text(name: "NAME", example: "vivid"),
        help: [
          "force a look (\(PhotoFilter.all.map { $0.rawValue.lowercased() }.joined(separator: ", "))),"
            + " auto to let the analysis choose (default), or none"
        ],
        set: .parse { run, text in
          do throws(CommandOptions.UsageError) {
            run.filter = try CommandOptions.filter(text)
            return []
          } catch {
            return error.problems
          }
        },
        completion: .words(
          [Word("auto", "the analysis chooses"), Word("none", "no look")]
            + PhotoFilter.all.map { Word($0.rawValue.lowercased(), "a look") }))
    case .noPeople:
      Declaration(
        names: ["--no-people"], value: nil,
        help: ["do not look for the people in the picture (the face model is not loaded)"],
        set: .flag { $0.people = false })
    case .blinkWindow:
      Declaration(
        names: ["--blink-window"], value: .text(name: "SECONDS", example: "1"),
        help: [
          "with people in the picture, the photo is the first frame from a quarter second"
            + " before zero to SECONDS after it where every eye is open, 0…5 (default 1; 0: the"
            + " frame nearest zero)"
        ],
        set: .parse { run, text in
          guard let seconds = Double(text), seconds.isFinite, (0...5).contains(seconds) else {
            return ["--blink-window takes seconds from 0 to 5, not '\(text)'"]
          }
          run.blinkWindow = .milliseconds(Int64((seconds * 1000).rounded()))
          return []
        })
    case .keepOriginal:
      Declaration(
        names: ["--keep-original"], value: nil, help: ["also save the unfiltered photo"],
        set: .flag { $0.keepOriginal = true })
    case .simulate:
      Declaration(
        names: ["--simulate"], value: nil,
        help: ["the built-in simulation (seed timings, no hardware, no file)"],
        set: .flag { $0.camera = .simulated })
    case .sequential:
      Declaration(
        names: ["--sequential"], value: nil,
        help: [
          "run the preparations one after another, then count (for comparison)"
        ],
        set: .flag { $0.sequential = true })
    case .json:
      Declaration(
        names: ["--json"], value: nil, help: ["JSON Lines events on stdout instead of the UI"],
        set: .flag { $0.json = true })
    case .verbose:
      Declaration(
        names: ["--verbose"], value: nil,
        help: [
          "what an ffmpeg: camera's ffmpeg says, on standard error (its address without user or"
            + " password)"
        ],
        set: .flag { $0.verbose = true })
    case .beep:
      Declaration(
        names: ["--beep"], value: nil,
        help: ["terminal bell each second, a distinct last one (default: on in the live view)"],
        set: .flag { $0.beep = true })
    case .noBeep:
      Declaration(
        names: ["--no-beep"], value: nil, help: ["no bell"],
        set: .flag { $0.beep = false })
    case .noColor:
      Declaration(
        names: ["--no-color"], value: nil, help: ["no colour (NO_COLOR is honoured too)"],
        set: .flag { $0.color = false })
    case .burst:
      Declaration(
        names: ["--burst"],
        value: .integer(name: "N", range: 1...100, unit: "photos", example: "5"),
        help: ["N photos at zero, one per frame (1…100)"],
        set: .integer(\.burst))
    case .interval:
      Declaration(
        names: ["--interval"], value: .text(name: "SECONDS", example: "10"),
        help: ["time-lapse: the time between shots, 1…86400 (with --count)"],
        set: .parse { run, text in
          guard let seconds = Double(text), seconds.isFinite, (1...86_400).contains(seconds) else {
            return ["--interval takes seconds from 1 to 86400, not '\(text)'"]
          }
          run.interval = .milliseconds(Int64((seconds * 1000).rounded()))
          return []
        })
    case .count:
      Declaration(
        names: ["--count"],
        value: .integer(name: "N", range: 1...100_000, unit: "shots", example: "5"),
        help: ["time-lapse: how many shots in all (with --interval)"],
        set: .integer(\.count))
    case .size:
      Declaration(
        names: ["--size"], value: .text(name: "WxH", example: "1920x1080"),
        help: ["the scene camera's photo size (default \(defaults.width)x\(defaults.height))"],
        set: .parse { run, text in
          let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
          guard parts.count == 2, (16...12_000).contains(parts[0]), (16...12_000).contains(parts[1])
          else { return ["--size takes WIDTHxHEIGHT from 16 to 12000 pixels, not '\(text)'"] }
          run.width = parts[0]
          run.height = parts[1]
          return []
        },
        completion: .words(["640x480", "1280x720", "1920x1080", "3840x2160"].map { Word($0) }))
    case .quality:
      Declaration(
        names: ["--quality"],
        value: .integer(name: "N", range: 1...100, unit: nil, example: "92"),
        help: ["JPEG quality, 1…100 (default \(defaults.quality))"],
        set: .integer(\.quality))
    case .cameraWait:
      Declaration(
        names: ["--camera-wait"],
        value: .integer(name: "SECONDS", range: 1...600, unit: "seconds", example: "30"),
        help: [
          "how long the shutter waits at zero for a camera that is not ready yet, 1…600 "
            + "(default \(defaults.cameraWait)): a slow camera, a busy machine"
        ],
        set: .integer(\.cameraWait))
    case .remote:
      Declaration(
        names: ["--remote"], value: .optional(name: "ADDR:PORT", example: "127.0.0.1:8470"),
        help: [
          "the phone as remote: serve a page with the live picture, the count and the "
            + "shutter (link and QR code shown); alone on the LAN addresses, port 8470; =PORT, "
            + "=ADDR:PORT (=127.0.0.1:PORT: this machine only); keeps framing after each photo, "
            + "like --frame"
        ],
        set: .parse { run, text in
          do {
            run.remote = try RemoteAddress(parsing: text)
            return []
          } catch {
            return ["--remote: \(error)"]
          }
        })
    case .frame:
      Declaration(
        names: ["--frame"], value: nil,
        help: [
          "frame first: the preview runs and nothing is counted until space; c during the "
            + "count goes back to framing, space after a photo takes the next one, q or Esc "
            + "quits"
        ],
        set: .flag { $0.frame = true })
    case .startWhenReady:
      Declaration(
        names: ["--start-when-ready"], value: .optional(name: "N", example: "4"),
        help: [
          "start the count by itself once the people are in the picture and hold still: =N "
            + "waits for N people, else for at least one and a number steady for 1.5 s; the "
            + "next count waits for the picture to empty; space still starts at once; keeps "
            + "framing after each photo, like --frame"
        ],
        set: .parse { run, text in
          run.startWhenReady = true
          guard !text.isEmpty else { return [] }
          guard let people = Int(text), (1...50).contains(people) else {
            return ["--start-when-ready=N takes a number of people from 1 to 50, not '\(text)'"]
          }
          run.readyPeople = people
          return []
        })
    case .noPreview:
      Declaration(
        names: ["--no-preview"], value: nil,
        help: [
          "no live picture in the live view (it is on when the terminal takes 24-bit "
            + "colour)"
        ],
        set: .flag { $0.preview = false })
    case .mirror:
      Declaration(
        names: ["--mirror"], value: nil,
        help: ["mirror the preview (default for webcams); the photo never is"],
        set: .flag { $0.mirror = true })
    case .noMirror:
      Declaration(
        names: ["--no-mirror"], value: nil, help: ["do not mirror the preview"],
        set: .flag { $0.mirror = false })
    case .shots, .between, .review, .retakes, .layout, .event, .noGuestLinks, .fullscreen, .idle:
      boothDeclaration
    case .print, .copies, .autoPrint, .maxPrints, .maxQueue:
      printDeclaration
    case .help:
      Declaration(
        names: ["-h", "--help"], value: nil, help: ["show this help"],
        set: .flag { _ in })
    case .version:
      Declaration(
        names: ["--version"], value: nil, help: ["show the version"],
        set: .flag { _ in })
    }
  }

  /// The long name, as messages show it.
  package var name: String { declaration.names.last ?? "" }
}
