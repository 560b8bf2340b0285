import CGTK
import Foundation
import PhotoTimer
import PhotoTimerImaging

/// What the window's trace records for the benchmark (`PHOTOTIMER_GTK_TRACE`), and the little
/// it remembers to do so: each tick's lateness as its label is set, each new status once the
/// camera is open, each frame's latency and the first frame's instant, where the photo is
/// drawn, the main actor's probe. The window calls it at each of those moments; nothing here
/// changes what the window does.
@MainActor
final class WindowTracer {
  let trace: Trace
  private var runStart: ContinuousClock.Instant?
  private var countShown: Int?
  private var firstFrameTraced = false
  /// When the current camera began to open (for the frame latency).
  private var openingStarted = ContinuousClock.now
  private var statusTraced: String?

  init(_ trace: Trace) {
    self.trace = trace
  }

  /// A main-actor task started from GTK's callback runs on the GTK thread, and its sleep
  /// wakes on time, before anything else keeps the loop busy.
  func probeMainActor(_ chores: Chores) {
    let trace = trace
    chores.start {
      trace.record("main-thread", Thread.isMainThread ? 1 : 0)
      let before = ContinuousClock.now
      try? await Task.sleep(for: .milliseconds(100))
      trace.record("main-sleep", before.advanced(by: .milliseconds(100)).duration(to: .now))
      trace.record("main-thread", Thread.isMainThread ? 1 : 0)
    }
  }

  /// A camera begins to open.
  func cameraOpening() { openingStarted = .now }

  /// A count starts now (for the ticks' lateness).
  func countStarts() { runStart = .now }

  /// The faces followed now: how many.
  func faces(_ count: Int) { trace.record("faces", Int64(count)) }

  /// The remote's popover opened or closed.
  func popover(_ shown: Bool) { trace.record("popover", shown ? 1 : 0) }

  /// The problem shown instead of the status (`problem camera: …`), or `problem -` once gone.
  func problem(_ text: String?) { trace.record("problem", text ?? "-") }

  /// A booth's screen: `idle live`, `idle collage 0`, `confirm`, `stay`.
  func booth(_ what: String) { trace.record("booth", what) }

  /// An intent refused, and why (`refused this photo is printing already`).
  func refused(_ reason: String) { trace.record("refused", reason) }

  /// Writes what is recorded.
  func flush() { trace.flush() }

  /// A render: a tick's lateness as its label is set, and a new status once the camera is
  /// open ("status idle" means ready for space).
  func rendered(_ status: PhotoTimerStatus, countdownSeconds: Int?, ready: Bool) {
    if case .counting(let remaining) = status, remaining > 0 {
      if countShown != remaining, let runStart, let countdownSeconds {
        let deadline = runStart.advanced(by: .seconds(countdownSeconds - remaining))
        if deadline <= .now { trace.record("tick", deadline.duration(to: .now)) }
      }
      countShown = remaining
    } else {
      countShown = nil
    }
    if ready, statusTraced != status.description {
      statusTraced = status.description
      trace.record("status", status.description)
    }
  }

  /// A frame handed to GTK: its latency from its arrival, and the first one's instant.
  func shown(_ frame: Frame) {
    trace.record("frame", openingStarted.advanced(by: frame.timestamp).duration(to: .now))
    if !firstFrameTraced {
      firstFrameTraced = true
      trace.record("first-frame", Trace.monotonicNanoseconds)
    }
  }

  /// Where the photo is drawn in `window` once laid out: the `picture`'s box, with the photo
  /// fitted inside it keeping its proportions (as GtkPicture draws it). Looked at on each of
  /// the window's frames while `showing` says the page is still up and not changing (at most
  /// 5 s: the frame clock runs then anyway).
  func photoBounds(
    in window: Widget, picture: Widget, width: Int, height: Int,
    showing: @escaping @MainActor () -> (up: Bool, changing: Bool)
  ) {
    let trace = trace
    FrameClock.animate(window) { elapsed in
      let state = showing()
      guard state.up, elapsed < .seconds(5) else { return false }
      var bounds = graphene_rect_t()
      guard gtk_widget_get_mapped(picture) != 0, !state.changing,
        gtk_widget_compute_bounds(picture, window, &bounds) != 0, bounds.size.width > 1
      else { return true }
      let box = (
        x: Double(bounds.origin.x), y: Double(bounds.origin.y), width: Double(bounds.size.width),
        height: Double(bounds.size.height)
      )
      let scale = min(box.width / Double(width), box.height / Double(height))
      let shown = (width: Double(width) * scale, height: Double(height) * scale)
      let x = box.x + (box.width - shown.width) / 2
      let y = box.y + (box.height - shown.height) / 2
      trace.record(
        "photo-bounds",
        [x, y, shown.width, shown.height].map { String(Int($0.rounded())) }.joined(separator: " "))
      return false
    }
  }
}
