import PhotoTimer
import PhotoTimerTesting
import Testing

/// The presentation every front end draws, for each moment of the table
/// (`PresentationExample.all`): the words are decided here once.
@Suite("The presentation: one set of words for every front end")
struct PresentationTests {
  /// Each moment as lines: count, status (tone), rows, actions, note, summary.
  static func dump(_ shown: PhotoTimerPresentation) -> [String] {
    var lines = ["count \(shown.count.map(String.init) ?? "-")"]
    lines.append("status [\(shown.status.tone)] \(shown.status.text)")
    for row in shown.checklist {
      lines.append(
        "row \(row.label) [\(row.mark)] \(row.detail)" + (row.time.map { " @ \($0)" } ?? ""))
    }
    lines.append("actions " + shown.actions.map(shown.label(of:)).joined(separator: ", "))
    if let note = shown.note { lines.append("note \(note)") }
    for row in shown.summary {
      lines.append("summary \(row.label): \(row.value)" + (row.note.map { " (\($0))" } ?? ""))
    }
    lines.append("animating \(shown.isAnimating)")
    return lines
  }

  @Test("Every moment of the table reads as specified", arguments: PresentationExample.all)
  func table(_ example: PresentationExample) {
    let expected = Self.expected[example.name]
    #expect(expected != nil, "no expectation for \(example.name)")
    #expect(Self.dump(example.presentation) == expected ?? [], "\(example.name)")
  }

  static let expected: [String: [String]] = [
    "ready to frame": [
      "count -",
      "status [plain] Frame the shot, then press space to count",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions start, quit",
      "animating false",
    ],
    "camera starting, the count starts itself": [
      "count -",
      "status [busy] Starting the camera…",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions take it now, quit",
      "animating true",
    ],
    "camera did not open": [
      "count -",
      "status [failure] camera failed: no image file at /nowhere.jpg",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions quit",
      "animating false",
    ],
    "framing, the count waiting for the people": [
      "count -",
      "status [plain] Waiting for everyone: 4 of 6 · or press space to start now"
        + " · ✓ 1 taken, last IMG_1.jpg",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions start, start by hand, quit",
      "animating false",
    ],
    "framing after a cancel": [
      "count -",
      "status [plain] Cancelled: press space to count again",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions start, quit",
      "animating false",
    ],
    "camera starting": [
      "count -",
      "status [busy] Starting the camera…",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions quit",
      "animating true",
    ],
    "counting, steps running": [
      "count 3",
      "status [plain] Counting down: 3",
      "row camera [working] working…",
      "row location [working] no fix yet: no satellites",
      "row filter [working] working…",
      "row people [working] 2 people · 1 blinking",
      "actions take it now, cancel, restart",
      "animating true",
    ],
    "waiting for the camera": [
      "count -",
      "status [busy] Waiting for camera…",
      "row camera [working] working…",
      "row location [done] Paris 16 Passy, Paris, France @ 0.1 s",
      "row filter [working] working…",
      "row people [working] working…",
      "actions cancel, restart",
      "animating true",
    ],
    "counting, each step ended its own way": [
      "count 1",
      "status [plain] Counting down: 1",
      "row camera [done] f/2.8 · 1/60s · ISO 400 @ 1.4 s",
      "row location [off] location off (--no-location)",
      "row filter [done] Natural (balanced light) @ 1.4 s",
      "row people [off] people off (--no-people)",
      "actions take it now, cancel, restart",
      "animating false",
    ],
    "waiting for the camera's hand-over": [
      "count -",
      "status [busy] Waiting for the camera to end its live view…",
      "row camera [done] f/2.8 · 1/60s · ISO 400 @ 1.4 s",
      "row location [working] working…",
      "row filter [working] working…",
      "row people [working] working…",
      "actions cancel, restart",
      "animating true",
    ],
    "taking the photo": [
      "count -",
      "status [busy] Taking the photo…",
      "row camera [done] f/2.8 · 1/60s · ISO 400 @ 1.4 s",
      "row location [leftOut] left out: no fix before the shutter @ 3.0 s",
      "row filter [done] Natural (balanced light) @ 1.4 s",
      "row people [done] 2 people · eyes open @ 3.0 s",
      "actions cancel, restart",
      "animating true",
    ],
    "captured": [
      "count -",
      "status [success] Saved /tmp/photos/IMG_1.jpg",
      "row camera [done] f/2.8 · 1/60s · ISO 400 @ 1.4 s",
      "row location [done] Paris 16 Passy, Paris, France @ 0.1 s",
      "row filter [done] Natural (balanced light) @ 1.4 s",
      "row people [done] 2 people · eyes open @ 3.0 s",
      "actions start, quit",
      "summary file: /tmp/photos/IMG_1.jpg",
      "summary settings: f/2.8 · 1/60s · ISO 400",
      "summary place: Paris 16 Passy, Paris, France",
      "summary look: Natural (balanced light)",
      "summary people: 2 people, all eyes open",
      "summary shutter: 3.00 s after the start",
      "animating false",
    ],
    "cancelled": [
      "count -",
      "status [plain] Cancelled: press space to count again",
      "row camera [stopped] stopped",
      "row location [stopped] stopped",
      "row filter [stopped] stopped",
      "row people [stopped] stopped",
      "actions start, quit",
      "animating false",
    ],
    "failed": [
      "count -",
      "status [failure] Camera failed: no image file at /nowhere.jpg",
      "row camera [failed] no image file at /nowhere.jpg @ 0.0 s",
      "row location [stopped] stopped",
      "row filter [stopped] stopped",
      "row people [stopped] stopped",
      "actions start, quit",
      "animating false",
    ],
    "cancelled, the command ending": [
      "count -",
      "status [plain] Cancelled",
      "row camera [stopped] stopped",
      "row location [stopped] stopped",
      "row filter [stopped] stopped",
      "row people [stopped] stopped",
      "actions ",
      "animating false",
    ],
    "time-lapse between shots": [
      "count -",
      "status [success] Saved /tmp/photos/IMG_1.jpg",
      "row camera [done] f/2.8 · 1/60s · ISO 400 @ 1.4 s",
      "row location [done] Paris 16 Passy, Paris, France @ 0.1 s",
      "row filter [done] Natural (balanced light) @ 1.4 s",
      "row people [done] 2 people · eyes open @ 3.0 s",
      "actions cancel",
      "note time-lapse: shot 2 of 5",
      "summary file: /tmp/photos/IMG_1.jpg",
      "summary settings: f/2.8 · 1/60s · ISO 400",
      "summary place: Paris 16 Passy, Paris, France",
      "summary look: Natural (balanced light)",
      "summary people: 2 people, all eyes open",
      "summary shutter: 3.00 s after the start",
      "animating false",
    ],
    "framing after two photos": [
      "count -",
      "status [plain] Framing: press space to start the count · ✓ 2 taken, last IMG_2.jpg",
      "row camera [pending] ",
      "row location [pending] ",
      "row filter [pending] ",
      "row people [pending] ",
      "actions start, start when ready, quit",
      "animating false",
    ],
  ]
}

/// The phone's page reads the same moments in a phone's words: taps, not keys, and a photo's
/// name, never a path of the computer that took it.
@Suite("The presentation in a phone's words")
struct PhoneWordsTests {
  @Test(
    "No moment mentions a key or the computer's photo folder", arguments: PresentationExample.all)
  func phone(_ example: PresentationExample) {
    var context = example.context
    context.audience = .phone
    let shown = PhotoTimerPresentation(state: example.state, context: context)
    let words = [shown.status.text] + shown.summary.map(\.value)
    for line in words {
      for key in ["press", "space", "key"] {
        #expect(!line.localizedCaseInsensitiveContains(key), "\(example.name): \(line)")
      }
      #expect(!line.contains("/tmp/photos"), "\(example.name): \(line)")
    }
    // The same moment, the same state of things: only the words differ.
    #expect(shown.actions == example.presentation.actions)
    #expect(shown.checklist == example.presentation.checklist)
  }

  @Test("The phone is told to tap, and sees the photo's name")
  func words() {
    let ready = PhotoTimerPresentation(state: PhotoTimerState(), context: .init(audience: .phone))
    #expect(ready.status.text == "Frame the shot, then tap Start to count")
    let waiting = PhotoTimerPresentation(
      state: PhotoTimerState(),
      context: .init(
        hasRun: true, framing: .init(waiting: "hold still"), audience: .phone))
    #expect(waiting.status.text == "Hold still · or tap Start to start now")
    let captured = PresentationExample.all.first { $0.name == "captured" }
    var context = captured?.context ?? .init()
    context.audience = .phone
    let shown = PhotoTimerPresentation(state: captured?.state ?? .init(), context: context)
    #expect(shown.status.text == "Saved IMG_1.jpg")
    #expect(shown.summary.first?.value == "IMG_1.jpg")
  }
}

/// The faces followed in the picture are outlined only over the live picture.
@Suite("The faces the presentation carries")
struct PresentationFacesTests {
  private let faces = [FaceMark(x: 0.4, y: 0.2, width: 0.1, height: 0.2, eyes: .closed)]

  @Test(
    "Over the live picture (framing, counting, waiting), never over the photo, a failure or the end",
    arguments: PresentationExample.all)
  func shown(_ example: PresentationExample) {
    var context = example.context
    context.faces = faces
    let shown = PhotoTimerPresentation(state: example.state, context: context)
    var live: Bool
    switch example.state.status {
    case .idle, .counting, .waiting: live = true
    case .capturing, .captured, .failed: live = false
    }
    if context.framing != nil { live = true }
    if context.problem != nil || context.isOver || context.cameraStarting { live = false }
    #expect(shown.faces == (live ? faces : []), "\(example.name)")
    // Nothing else of the moment changes with them.
    #expect(shown.status == example.presentation.status)
    #expect(shown.checklist == example.presentation.checklist)
  }
}
