import PhotoTimer
import PhotoTimerTesting
import Testing

@testable import PhotoTimerCLI

/// The terminal's live view and the plain lines draw the presentation: for every moment of
/// the table their words are the presentation's, so they are each other's (the window's test
/// holds it to the same table).
@Suite("The terminal draws the presentation's words")
struct FrontEndWordsTests {
  private func text(_ example: PresentationExample) -> ScreenText {
    ScreenText(
      presentation: example.presentation, title: "scene camera", color: false, spinner: "⠋")
  }

  @Test(
    "The live view's status and checklist are the presentation's words",
    arguments: PresentationExample.all)
  func liveView(_ example: PresentationExample) {
    let shown = example.presentation
    let words = text(example)
    if let count = shown.count {
      #expect(words.statusLine() == "  \(count) …")
    } else {
      let mark =
        switch shown.status.tone {
        case .plain: ""
        case .busy: "⠋ "
        case .success: "✓ "
        case .failure: "✗ "
        }
      #expect(words.statusLine() == "  " + mark + shown.status.text)
      #expect(words.bigStatus(width: 80) == ["", "", words.statusLine(), "", ""])
    }
    #expect(
      words.checklist()
        == shown.checklist.map { row in
          let name = row.label.padding(toLength: 9, withPad: " ", startingAt: 0)
          let line =
            "  \(row.mark.symbol ?? "⠋") \(name) \(row.detail)" + (row.time.map { "  \($0)" } ?? "")
          return String(line.trimmingSuffixSpaces)
        })
    let hints = shown.actions.map { "\($0.key) \(shown.label(of: $0))" }.joined(
      separator: " · ")
    #expect(words.header().hasSuffix(hints))
    #expect(words.header().contains(shown.note ?? "scene camera"))
    #expect(
      words.summary().dropFirst().map { $0.trimmingPrefixSpaces }
        == shown.summary.map { row in
          row.label.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + row.value
            + (row.note.map { " (\($0))" } ?? "")
        })
  }

  @Test(
    "The plain lines are the presentation's words, as the live view's",
    arguments: PresentationExample.all)
  func plainLines(_ example: PresentationExample) {
    let shown = example.presentation
    let words = text(example)
    for (row, live) in zip(shown.checklist, words.checklist()) {
      let plain = PlainDisplay.line(for: row)
      #expect(plain.hasPrefix(row.label))
      if !row.detail.isEmpty { #expect(plain.contains(row.detail) && live.contains(row.detail)) }
      if let time = row.time { #expect(plain.contains(time) && live.contains(time)) }
    }
    // A status change prints the status line itself.
    let before = PhotoTimerPresentation(state: PhotoTimerState(status: .counting(remaining: 99)))
    let lines = PlainDisplay.lines(
      from: before, to: shown, event: PhotoTimerEvent(offset: .zero, kind: .shutter))
    #expect(lines.first == shown.status.text)
    #expect(words.statusLine().hasSuffix(shown.count.map { "\($0) …" } ?? shown.status.text))
  }

  @Test("A time-lapse between shots can only be cancelled, in the live view's hints too")
  func betweenShots() throws {
    let example = try #require(
      PresentationExample.all.first { $0.name == "time-lapse between shots" })
    #expect(text(example).header().hasSuffix("c cancel"))
  }
}

extension String {
  fileprivate var trimmingSuffixSpaces: Substring {
    var text = self[...]
    while text.last == " " { text = text.dropLast() }
    return text
  }

  fileprivate var trimmingPrefixSpaces: String {
    String(drop { $0 == " " })
  }

  @Test("At 80 columns the header keeps its key hints whole, the least important dropped first")
  func headerFits() throws {
    let counting = try #require(
      PresentationExample.all.first { $0.name == "counting, steps running" })
    var words = ScreenText(
      presentation: counting.presentation, title: "", color: false, spinner: "⠋")
    words.title =
      "Scene camera (golden-hour) · scene · 1920×1080 · remote http://192.168.1.20:8470/"
    for width in [60, 80, 100, 200] {
      let header = words.header(width: width)
      #expect(header.count <= width - 1, "\(width): \(header)")
      #expect(header.contains("   space take it now"), "\(width): \(header)")
      // A hint is whole or absent, never cut to a key alone.
      #expect(!header.hasSuffix(" r") && !header.hasSuffix(" c"), "\(width): \(header)")
    }
    #expect(words.header(width: 200).hasSuffix("space take it now · c cancel · r restart"))
    #expect(words.header(width: 80).contains("…"))
    // The latest news stays whole; the camera's name gives way.
    words.presentation.note = "restarted (1)"
    for width in [40, 60, 80] {
      let header = words.header(width: width)
      #expect(header.count <= width - 1, "\(width): \(header)")
      if width >= 80 { #expect(header.contains("restarted (1)"), "\(width): \(header)") }
    }
  }
}
