import PhotoTimerConcurrency

extension PhotoTimerEvent {
  /// The event as one JSON object: the schema of `phototimer --json` and of the remote's
  /// event stream (`docs/reference.md`).
  ///
  /// - Parameters:
  ///   - time: When it happened, in seconds from the first count (`"t"`).
  ///   - activity: What each running step waits for (the `waiting` event's text).
  ///   - camera: The camera the run uses, named in the `started` and `captured` events.
  /// - Returns: One line of JSON, without its newline.
  package func jsonLine(
    time: Duration, activity: [PreparationStep: String] = [:], camera: CameraIdentity? = nil
  ) -> String {
    let event = self
    var object = JSONObject()
    let t = time.secondsValue
    switch event.kind {
    case .started(let seconds):
      object.add("event", "started")
      object.add("t", t)
      object.add("seconds", seconds)
      if let camera { object.addRaw("camera", camera.jsonObject) }
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
      object.add("elapsed", report.elapsed.secondsValue)
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
      if let people = photo.people {
        var who = JSONObject()
        who.add("count", people.count)
        who.add("eyesClosed", people.eyesClosed)
        who.add("lookingAway", people.lookingAway)
        if let frame = people.frame {
          who.add("frameOffset", frame.offset.secondsValue)
          who.add("frameReason", frame.reason)
        }
        object.addRaw("people", who.text)
      }
      if let camera { object.addRaw("camera", camera.jsonObject) }
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

extension PhotoTimerViewModel.Update {
  /// The `--json` line for this change, or `nil` when it is not an event of the schema: a
  /// run's event, or the cancel the front end asked for (written when it was asked: the
  /// run's own `cancelled` belongs to a run the model has let go).
  ///
  /// - Parameters:
  ///   - time: When it happened, in seconds from the first count.
  ///   - camera: The camera the run uses, named in the `started` and `captured` events.
  package func jsonLine(time: Duration, camera: CameraIdentity? = nil) -> String? {
    switch cause {
    case .event(.run(let event, _)):
      event.jsonLine(time: time, activity: snapshot.state.activity, camera: camera)
    case .cancelled:
      PhotoTimerEvent(offset: .zero, kind: .cancelled).jsonLine(time: time)
    default:
      nil
    }
  }
}
