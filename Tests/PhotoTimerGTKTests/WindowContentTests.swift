import PhotoTimer
import PhotoTimerTesting
import Testing

@testable import PhotoTimerGTK

/// The window draws the presentation: for every moment of the table its labels say the
/// presentation's words (the terminal's test holds it to the same table).
@Suite("The window draws the presentation's words")
struct WindowContentTests {
  @Test(
    "Status, count, checklist and buttons come from the presentation",
    arguments: PresentationExample.all)
  func words(_ example: PresentationExample) {
    let shown = example.presentation
    let content = WindowContent(shown)
    #expect(content.status == shown.status.text)
    #expect(content.isError == (shown.status.tone == .failure))
    #expect(content.count == shown.count.map(String.init))
    #expect(content.rows.map(\.step) == PreparationStep.allCases)
    for (row, item) in zip(shown.checklist, content.rows) {
      #expect(item.text == row.detail + (row.time.map { " · \($0)" } ?? ""))
      #expect(item.spinning == (row.mark == .working))
      #expect(item.mark == (row.mark.symbol ?? ""))
    }
    #expect(content.allowed == shown.actions)
  }
}

@Suite("The window's camera menu")
struct CameraMenuNameTests {
  @Test("A stream's name in the menu shows its address without user or password")
  @MainActor func redacted() {
    let name = CameraMenu.name(.ffmpeg("rtsp://bob:s3cret@10.0.0.5/cam?password=x", format: nil))
    #expect(name == "Stream rtsp://10.0.0.5/cam")
  }
}

@Suite("The window's --help")
struct WindowHelpTests {
  @Test("Fits an 80-column terminal, every line")
  func width() {
    for line in WindowOptions.help.split(separator: "\n") {
      #expect(line.count <= 80, "\(line.count): \(line)")
    }
  }
}
