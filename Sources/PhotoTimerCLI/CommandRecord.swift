import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// What the command keeps of its runs for its screen and its end: the chart of each session,
/// the photos saved, what framing says between counts, the outcome and its exit status. A
/// value the loop updates from the model's changes; it decides nothing about what may happen
/// next (the front-end machine does).
struct CommandRecord {
  /// Whether the command frames between counts and goes on after each photo.
  let frames: Bool
  /// Whether the preparations run one after another (the chart's layout).
  let sequential: Bool
  /// With framing: between counts, what to say.
  var framing: PhotoTimerPresentation.Framing?
  /// The first signal that asked the command to end.
  var signal: Int32?
  var result = PhotoTimerResult.cancelled
  /// Photos taken while framing.
  var photos = 0
  /// Every file saved, in order.
  var saved: [URL] = []
  /// The current session's runs, for the chart, and the one of the last photo.
  var timeline: Timeline
  var photoTimeline = Timeline()
  /// When the first session started, and when the current one did, from it.
  var origin: ContinuousClock.Instant?
  var sessionStart = Duration.zero

  init(frames: Bool, sequential: Bool) {
    self.frames = frames
    self.sequential = sequential
    framing = frames ? PhotoTimerPresentation.Framing() : nil
    timeline = Timeline(sequential: sequential)
  }

  /// Now, on the command's time axis.
  var now: Duration { origin.map { $0.duration(to: .now) } ?? .zero }

  /// A count starts: framing's last words are cleared.
  mutating func countStarts() {
    framing?.problem = nil
    framing?.cancelled = false
  }

  /// Records a change of the model; returns when it happened on the command's time axis.
  mutating func record(_ update: PhotoTimerViewModel.Update) -> Duration {
    let origin = origin ?? update.published
    self.origin = origin
    var time = origin.duration(to: update.published)
    switch update.cause {
    case .started:
      sessionStart = time
      timeline = Timeline(sequential: sequential)
    case .event(.run(let event, let runStart)):
      time = sessionStart + runStart + event.offset
      timeline.record(event, runStart: runStart)
      if case .captured(let photo) = event.kind { taken(photo) }
    case .event(.timeLapseShot):
      timeline.freeze()
    case .event, .note:
      break
    case .cancelled:
      framing?.cancelled = true
    case .ended(let result):
      ended(result)
    }
    return time
  }

  /// A photo is taken: counted at its `captured` event, not at the run's end. A Ctrl-C or a
  /// `q` that ends the loop as the run ends (its `captured` shown, its end still queued, or a
  /// cancel that overtook it) must not turn a saved photo into exit 130.
  private mutating func taken(_ photo: CapturedPhoto) {
    if let file = photo.file { saved.append(file) }
    result = .captured(photo)
    photoTimeline = timeline
    guard frames else { return }
    photos += 1
    // NB: an optional chain's assignment holds its access while the value is evaluated.
    let photos = photos
    framing?.photos = photos
    framing?.lastFile = photo.file.map { $0.lastPathComponent } ?? "none"
  }

  /// The session ended on its own: what framing says of it.
  private mutating func ended(_ result: PhotoTimerResult) {
    // NB: the photo was counted at its event (``taken(_:)``); its chart now has the run's last
    // events.
    switch result {
    case .captured: photoTimeline = timeline
    case .cancelled: framing?.cancelled = true
    case .failed(let failure): framing?.problem = failure.message
    }
  }

  /// The exit status: with framing, success once a photo was taken, else how the last run
  /// ended; without it, the run's own (a signal's status when one ended it).
  var exitCode: ExitCode {
    if frames, signal == nil {
      if photos > 0 { return .success }
      if case .failed = result { return .failure }
      return .cancelled
    }
    return ExitCode(result, signal: signal)
  }
}

/// The command loop's own state: what may happen next, and what is drawn.
struct CommandProgress {
  /// What may happen next: the one front-end machine the window runs too.
  var session: FrontEndSession
  /// The runs' chart, the photos, framing's words and the outcome.
  var record: CommandRecord
  /// The model as of the last change the loop has handled, which is what is drawn: the
  /// model itself may be ahead (a cancel from a key is in it at once, its update still
  /// queued), and the screen must never show a change beside the command's state from
  /// before it (no "tap Start" between a cancel and its "Cancelled").
  var shown: PhotoTimerViewModel.Snapshot
  /// The faces followed in the picture now.
  var faces: [FaceMark] = []
}

extension CommandProgress {
  /// A change of the model, handled: drawn from now on, recorded for the chart and the
  /// outcome, and told to the front-end machine (`cameraGone`: the screen's camera stopped).
  ///
  /// - Returns: When it happened on the command's time axis, the file it saved if one, and
  ///   what the machine decided.
  mutating func handle(
    _ update: PhotoTimerViewModel.Update, cameraGone: Bool
  ) -> (time: Duration, saved: URL?, effects: [FrontEndSession.Effect]) {
    shown = update.snapshot
    let before = record.saved.count
    let time = record.record(update)
    let effects = session.modelChanged(update.snapshot, cameraGone: cameraGone)
    if session.isOver, case .ended(let result) = update.cause { record.result = result }
    return (time, record.saved.count > before ? record.saved.last : nil, effects)
  }

  /// The screen's camera did not open (`problem` says why): the command's outcome, worded as
  /// the engine words a camera step that failed, and what the machine decided.
  mutating func cameraFailed(_ problem: String) -> [FrontEndSession.Effect] {
    record.result = .failed(
      PhotoTimerFailure(cause: .stepFailed(.camera), message: "camera failed: \(problem)"))
    return session.cameraFailed(problem)
  }

  /// What the screen shows of `snapshot` in the words of `audience`, with what the print
  /// desk allows now.
  mutating func presentation(
    _ snapshot: PhotoTimerViewModel.Snapshot, for audience: PhotoTimerPresentation.Audience,
    printing: PrintControls?
  ) -> PhotoTimerPresentation {
    session.printing = printing
    return session.presentation(
      of: snapshot, audience: audience, framing: record.framing, faces: faces)
  }
}
