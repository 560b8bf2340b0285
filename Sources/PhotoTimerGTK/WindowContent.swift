import PhotoTimer

/// What the window's widgets say for a presentation: the text of each label, pure, so a test
/// compares it with the terminal's words without a display.
struct WindowContent: Equatable {
  /// One checklist row's widgets.
  struct Row: Equatable {
    var step: PreparationStep
    /// The mark label, empty while the spinner turns.
    var mark: String
    var spinning: Bool
    var text: String
  }

  /// The count plate over the preview, or `nil` when hidden.
  var count: String?
  /// The line under the picture.
  var status: String
  /// Whether the status reads as an error.
  var isError: Bool
  var rows: [Row]
  /// What can be done now: the presentation's actions, the one gate.
  var allowed: [PhotoTimerPresentation.Action]
  /// The switch for a count that starts by itself: on, off, or `nil` (hidden).
  var autoStart: Bool?
  /// Printing: Print, Resume and where printing is; `nil` without `--print`.
  var printing: PrintControls?

  init(_ shown: PhotoTimerPresentation) {
    count = shown.count.map(String.init)
    status = shown.status.text
    isError = shown.status.tone == .failure
    rows = shown.checklist.map { row in
      Row(
        step: row.step, mark: row.mark.symbol ?? "", spinning: row.mark == .working,
        text: row.detail + (row.time.map { " · \($0)" } ?? ""))
    }
    allowed = shown.actions
    autoStart = shown.autoStart
    printing = shown.printing
    // NB: a printer's trouble is the most pressing news: it takes the status line, in red.
    if let words = shown.printing?.words,
      words.hasPrefix("the printer stopped") || words.hasPrefix("no printer")
    {
      status = words
      isError = true
    } else if let words = shown.printing?.words, shown.count == nil {
      status += " · " + words
    }
    // NB: a refused press is answered on the line, the printer's trouble kept beside it.
    if let note = shown.note, note.hasPrefix("not now: ") {
      status = isError && shown.printing != nil ? "\(note) · \(status)" : note
      isError = true
    }
  }
}
