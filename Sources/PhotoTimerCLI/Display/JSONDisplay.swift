import PhotoTimer

/// JSON Lines: one object per event, each with `"event"` and `"t"` (seconds since the start).
///
/// The schema is documented in the README.
actor JSONDisplay: CommandDisplay {
  private let sink: any OutputSink
  private var failure = DrawFailure()

  init(sink: any OutputSink) {
    self.sink = sink
  }

  func show(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration
  ) {
    let line: String
    switch update?.cause {
    case .event(.run(let event, _))?:
      line = Self.line(for: event, time: time, activity: update?.snapshot.state.activity ?? [:])
    case .cancelled?:
      // NB: the command cancelled the run: its own `cancelled` event belongs to a run the
      // model has let go, so the cancel is written here, when it was asked for.
      line = Self.line(for: PhotoTimerEvent(offset: .zero, kind: .cancelled), time: time)
    default:
      return
    }
    failure.attempt { try sink.write(line + "\n") }
  }

  func finish(
    _ presentation: PhotoTimerPresentation, result: PhotoTimerResult, timeline: Timeline
  ) {}

  func close() -> String? { failure.message }

  /// The JSON object for one event.
  static func line(
    for event: PhotoTimerEvent, time: Duration, activity: [PreparationStep: String] = [:]
  ) -> String {
    var object = JSONObject()
    let t = time.seconds
    switch event.kind {
    case .started(let seconds):
      object.add("event", "started")
      object.add("t", t)
      object.add("seconds", seconds)
    case .tick(let remaining):
      object.add("event", "tick")
      object.add("t", t)
      object.add("remaining", remaining)
    case .stepFinished(let report):
      object.add("event", "step")
      object.add("t", t)
      object.add("step", report.step.rawValue)
      let outcome =
        switch report.outcome {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .dropped: "dropped"
        case .skipped: "skipped"
        }
      object.add("outcome", outcome)
      object.add("elapsed", report.elapsed.seconds)
      switch report.outcome {
      case .succeeded(let value): object.add("value", value.description)
      case .failed(let reason), .dropped(let reason), .skipped(let reason):
        object.add("reason", reason)
      }
    case .waiting(let steps):
      object.add("event", "waiting")
      object.add("t", t)
      object.addRaw(
        "for", "[" + steps.map { JSONObject.quote($0.rawValue) }.joined(separator: ",") + "]")
      object.add("text", PhotoTimerStatus.waitingLine(for: steps, activity: activity))
    case .stepStatus(let step, let text):
      object.add("event", "status")
      object.add("t", t)
      object.add("step", step.rawValue)
      if let text { object.add("text", text) } else { object.addRaw("text", "null") }
    case .shutter:
      object.add("event", "shutter")
      object.add("t", t)
    case .captured(let photo):
      object.add("event", "captured")
      object.add("t", t)
      if let file = photo.file {
        object.add("file", file.path)
      } else {
        object.addRaw("file", "null")
      }
      var settings = JSONObject()
      // NB: only what is known: a webcam's settings carry no aperture and no ISO.
      if let aperture = photo.settings.aperture { settings.add("aperture", aperture) }
      if let shutter = photo.settings.shutterSpeed { settings.add("shutterSpeed", shutter) }
      if let iso = photo.settings.iso { settings.add("iso", iso) }
      if let time = photo.settings.exposureTime { settings.add("exposureTime", time) }
      if let mode = photo.settings.mode { settings.add("mode", mode) }
      if let gain = photo.settings.gain {
        settings.add("gain", gain.value)
        if let automatic = gain.isAutomatic {
          settings.addRaw("autoGain", automatic ? "true" : "false")
        }
      }
      settings.addRaw("cameraOwn", photo.settings.isCameraOwn ? "true" : "false")
      settings.add("text", photo.settings.description)
      object.addRaw("settings", settings.text)
      if let note = photo.settingsNote { object.add("settingsNote", note) }
      if let location = photo.location {
        var place = JSONObject()
        place.add("name", location.name)
        if let coordinate = location.coordinate {
          place.add("latitude", coordinate.latitude)
          place.add("longitude", coordinate.longitude)
        } else {
          place.addRaw("latitude", "null")
          place.addRaw("longitude", "null")
        }
        object.addRaw("location", place.text)
      } else {
        object.addRaw("location", "null")
      }
      object.add("filter", photo.filter.rawValue)
    case .cancelled:
      object.add("event", "cancelled")
      object.add("t", t)
    case .failed(let failure):
      object.add("event", "failed")
      object.add("t", t)
      object.add("message", failure.message)
    }
    return object.text
  }
}

/// A JSON object written in the order its members were added.
struct JSONObject {
  private var members: [String] = []

  mutating func add(_ key: String, _ value: String) { addRaw(key, Self.quote(value)) }
  mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
  mutating func add(_ key: String, _ value: Double) {
    addRaw(key, value.isFinite ? Self.number(value) : "null")
  }
  mutating func addRaw(_ key: String, _ json: String) {
    members.append("\(Self.quote(key)):\(json)")
  }

  var text: String { "{" + members.joined(separator: ",") + "}" }

  /// A number with at most six decimals and no exponent.
  static func number(_ value: Double) -> String {
    let scaled = (value * 1_000_000).rounded()
    let negative = scaled < 0
    let magnitude = Int64(abs(scaled))
    var fraction = String(magnitude % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let whole = "\(negative ? "-" : "")\(magnitude / 1_000_000)"
    return fraction.isEmpty ? whole : "\(whole).\(fraction)"
  }

  /// A JSON string literal.
  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
