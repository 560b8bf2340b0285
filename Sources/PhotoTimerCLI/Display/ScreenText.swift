import PhotoTimer

/// The live view's words, drawn from the presentation: pure functions from
/// ``PhotoTimerPresentation`` to lines of text with (optional) SGR colour codes, so a frame is
/// tested as text without a terminal.
struct ScreenText {
  var presentation: PhotoTimerPresentation
  /// What the camera is, for the header.
  var title: String
  var color: Bool
  /// The spinner's frame now.
  var spinner: String

  /// The header: name, camera, the latest note, the key hints; within `width` columns when
  /// given. The hints are kept whole: when all do not fit beside the first 24 columns of the
  /// name, camera and note, the least important (the last) go first. Then the camera's name is
  /// cut with an ellipsis, and the note (the latest news) only when the camera's is gone.
  func header(width: Int? = nil) -> String {
    let keys = presentation.actions.map { "\($0.key) \(presentation.label(of: $0))" }
    let hints = { (count: Int) in
      count == 0 ? "" : "   " + keys.prefix(count).joined(separator: " · ")
    }
    let name = "phototimer"
    let note = presentation.note.map { "  ·  \($0)" } ?? ""
    let line = { (title: String, note: String, hint: String) in
      paint(name, "1") + "  ·  " + title + note + paint(hint, "2")
    }
    guard let width else { return line(title, note, hints(keys.count)) }
    // NB: the clip of a line keeps one column free (no wrap at the last column).
    let room = width - 1
    let left = name.count + 5 + title.count + note.count
    var shown = keys.count
    while shown > 0, min(left, 24) + hints(shown).count > room { shown -= 1 }
    let hint = hints(shown)
    var free = room - hint.count - name.count - 5
    guard left + hint.count > room else { return line(title, note, hint) }
    // The camera's name gives way first, down to a few letters and its ellipsis.
    let titleRoom = free - note.count
    if titleRoom >= 4 { return line(Self.cut(title, to: titleRoom), note, hint) }
    free = max(0, free - 2)
    return line(Self.cut(title, to: 2), Self.cut(note, to: free), hint)
  }

  /// `text` in at most `width` characters, its end replaced by `…` when cut.
  static func cut(_ text: String, to width: Int) -> String {
    guard text.count > width else { return text }
    return width <= 0 ? "" : String(text.prefix(width - 1)) + "…"
  }

  /// The status line under the count: the count itself while counting.
  func statusLine() -> String {
    if let count = presentation.count { return "  " + paint("\(count)", "1;36") + " …" }
    return "  " + status()
  }

  /// The status with its mark: a spinner while busy, `✓` or `✗` at the end.
  func status() -> String {
    let status = presentation.status
    switch status.tone {
    case .plain: return status.text
    case .busy: return "\(spinner) \(status.text)"
    case .success: return paint("✓ \(status.text)", "1;32")
    case .failure: return paint("✗ \(status.text)", "1;31")
    }
  }

  /// The count in big digits, or the status, five lines centred in `width`.
  func bigStatus(width: Int) -> [String] {
    guard let count = presentation.count else { return ["", "", "  " + status(), "", ""] }
    return BigDigits.rows(count).map { row in
      String(repeating: " ", count: max(0, (width - row.count) / 2)) + paint(row, "1;36")
    }
  }

  /// The three preparations, one line each.
  func checklist() -> [String] {
    presentation.checklist.map { row in
      let name = row.label.padding(toLength: 9, withPad: " ", startingAt: 0)
      let mark = paint(row.mark.symbol ?? spinner, Self.code(for: row.mark))
      // NB: a value or a reason reads plainly; what a step waits for, or why it is off, dimmed.
      let plain = row.mark == .done || row.mark == .failed || row.mark == .leftOut
      let detail = plain ? row.detail : paint(row.detail, "2")
      let time = row.time.map { "  " + paint($0, "2") } ?? ""
      return "  \(mark) \(name) \(detail)\(time)".trimmingTrailingSpaces
    }
  }

  /// The photo's summary, after the run.
  func summary() -> [String] {
    guard !presentation.summary.isEmpty else { return [] }
    return [""]
      + presentation.summary.map { row in
        "  " + row.label.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + row.value
          + (row.note.map { paint(" (\($0))", "2") } ?? "")
      }
  }

  private static func code(for mark: PhotoTimerPresentation.Row.Mark) -> String {
    switch mark {
    case .done: "32"
    case .failed: "31"
    case .leftOut, .stopped: "33"
    case .working: "36"
    case .pending, .off: "2"
    }
  }

  func paint(_ text: String, _ code: String) -> String {
    color && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The spinner's frame `tenths` tenths of a second into its turn.
  static func spinner(tenths: Int64) -> String {
    let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    return frames[Int(abs(tenths) % Int64(frames.count))]
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
