import PhotoTimer

extension PhotoTimerPresentation {
  /// The presentation as the page reads it: the same count, status, checklist, actions, note
  /// and summary every front end draws, as one JSON object.
  ///
  /// ```json
  /// {"count":3,"status":{"text":"Counting down: 3","tone":"plain"},
  ///  "checklist":[{"step":"camera","mark":"done","symbol":"✓","detail":"f/4 · 1/125s",
  ///  "time":"0.5 s"},…],"actions":["take-now","cancel","restart"],"note":null,
  ///  "summary":[],"animating":true,
  ///  "faces":[{"x":0.41,"y":0.22,"width":0.09,"height":0.16,"eyes":"open"}],
  ///  "autoStart":false,"printing":{"words":"printed"}}
  /// ```
  ///
  /// `faces` are the presentation's ``PhotoTimerPresentation/faces``, as fractions of the
  /// picture in the camera's own orientation: the page draws them on the preview's canvas,
  /// which its style mirrors with the picture. `autoStart` is the switch for a count that
  /// starts by itself (`null`: none here). `printing` is there where the program prints
  /// (`null` elsewhere), with where printing is in words (`words`, or `null`).
  package var remoteJSON: String {
    var object = JSONObject()
    if let count { object.add("count", count) } else { object.addRaw("count", "null") }
    var line = JSONObject()
    line.add("text", status.text)
    line.add("tone", Self.name(status.tone))
    object.addRaw("status", line.text)
    let rows = checklist.map { row -> String in
      var item = JSONObject()
      item.add("step", row.step.rawValue)
      item.add("label", row.label)
      item.add("mark", Self.name(row.mark))
      if let symbol = row.mark.symbol { item.add("symbol", symbol) }
      item.add("tone", Self.name(row.mark.tone))
      item.add("detail", row.detail)
      if let time = row.time { item.add("time", time) }
      return item.text
    }
    object.addRaw("checklist", "[" + rows.joined(separator: ",") + "]")
    let names = actions.map { JSONObject.quote($0.rawValue) }
    object.addRaw("actions", "[" + names.joined(separator: ",") + "]")
    if let note { object.add("note", note) } else { object.addRaw("note", "null") }
    object.addRaw("summary", Self.remoteJSON(summary))
    object.addRaw("animating", isAnimating ? "true" : "false")
    let marks = faces.map { mark -> String in
      var item = JSONObject()
      item.add("x", mark.x)
      item.add("y", mark.y)
      item.add("width", mark.width)
      item.add("height", mark.height)
      item.add("eyes", mark.eyes.rawValue)
      return item.text
    }
    object.addRaw("faces", "[" + marks.joined(separator: ",") + "]")
    object.addRaw("autoStart", autoStart.map { $0 ? "true" : "false" } ?? "null")
    if let printing {
      var item = JSONObject()
      if let words = printing.words {
        item.add("words", words)
      } else {
        item.addRaw("words", "null")
      }
      object.addRaw("printing", item.text)
    } else {
      object.addRaw("printing", "null")
    }
    return object.text
  }

  /// A photo's summary rows as a JSON array of `{label, value, note}`.
  package static func remoteJSON(_ summary: [SummaryRow]) -> String {
    let rows = summary.map { row -> String in
      var item = JSONObject()
      item.add("label", row.label)
      item.add("value", row.value)
      if let note = row.note { item.add("note", note) }
      return item.text
    }
    return "[" + rows.joined(separator: ",") + "]"
  }

  private static func name(_ tone: Tone) -> String {
    switch tone {
    case .plain: "plain"
    case .busy: "busy"
    case .success: "success"
    case .failure: "failure"
    }
  }

  private static func name(_ mark: Row.Mark) -> String {
    switch mark {
    case .pending: "pending"
    case .working: "working"
    case .done: "done"
    case .failed: "failed"
    case .leftOut: "left-out"
    case .off: "off"
    case .stopped: "stopped"
    }
  }
}
