import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerSetup

/// What the window shows and says: the presentation drawn into the views and the buttons, the
/// previews (with the suggested look and the faces), the phone's page, the pages, the
/// shutter's flash and sound. It decides nothing: the controller hands it what to draw.
@MainActor
final class WindowScreen {
  let views: WindowViews
  /// The previews, with the look and the faces the last drawing chose.
  let feed: PreviewFeed
  /// The phone as remote.
  let remote: WindowRemote
  /// The preview or the photo page.
  let pages: WindowPages
  /// What the trace records, when there is one.
  let tracer: WindowTracer?
  /// The booth's screen (`--booth`): its big Start, its idle turn, its way out.
  var booth: BoothScreen?
  private let sound: ShutterSound
  /// The problem the trace last recorded.
  private var tracedProblem: String?

  /// The screen of `views`.
  ///
  /// - Parameters:
  ///   - mirrored: Whether the previews start mirrored.
  ///   - beeps: Whether the shutter sounds.
  ///   - stage: The screen's camera, whose previews go to the phone too.
  ///   - chores: The window's own tasks (decoding a photo).
  init(
    views: WindowViews, mirrored: Bool, beeps: Bool, stage: ScreenStage, chores: Chores,
    tracer: WindowTracer?
  ) {
    self.views = views
    self.tracer = tracer
    sound = ShutterSound(enabled: beeps)
    feed = PreviewFeed(area: views.preview, mirrored: mirrored, tracer: tracer)
    remote = WindowRemote(panel: views.remote, stage: stage)
    pages = WindowPages(views: views, chores: chores, tracer: tracer)
  }

  /// Draws `shown` (the phone's page `phone`): the status, the controls, the actions it
  /// allows, the faces over the preview, and while `model` runs the look its filter step
  /// suggested, live on the preview.
  ///
  /// - Parameter ready: Whether the camera is open (for the trace).
  func draw(
    _ shown: PhotoTimerPresentation, phone: PhotoTimerPresentation, model: PhotoTimerViewModel?,
    ready: Bool
  ) {
    let status = model?.status ?? .idle
    let running = status.isRunning
    remote.publish(phone)
    let content = WindowContent(shown)
    feed.faces = pages.page == .preview ? shown.faces : []
    views.preview.render(content)
    views.controls.render(content, running: running)
    views.actions.enable(
      allowed: content.allowed, back: pages.page == .photo && !running,
      openFolder: views.photo.photo?.file != nil)
    views.actions.printing = content.printing != nil
    if running, case .succeeded(.filter(let suggestion))? = model?.reports[.filter]?.outcome {
      if feed.look?.filter != suggestion.filter { feed.look = Look(suggestion.filter) }
    } else if !running {
      feed.look = nil
    }
    tracer?.rendered(status, countdownSeconds: model?.countdownSeconds, ready: ready)
  }

  /// What the booth or printing reported, once passed on: a line on standard output each (for
  /// a window started from a terminal, and its tests), the booth's notices in the status, its
  /// problems in red, each collage shown with the guests' QR code.
  func show(_ passed: FrontEndRunners.Passed) {
    for problem in passed.problems { views.controls.showStatus(problem, isError: true) }
    for event in passed.events {
      try? FileHandle.standardOutput.write(contentsOf: Data((event.line + "\n").utf8))
      guard event is BoothEvent else { continue }
      if let notice = event.notice { views.controls.showStatus(notice, isError: false) }
      booth?.activity()
    }
    for (file, guest) in passed.collages {
      pages.showCollage(URL(fileURLWithPath: file), guest: guest)
      booth?.collageMade(URL(fileURLWithPath: file), guest: guest)
    }
  }

  /// What the model of the screen's camera said: on the phones, the shutter's flash and
  /// sound, the photo on its page.
  ///
  /// - Returns: The photo's file, when the event saved one.
  func show(
    _ event: PhotoTimerEvent, of model: PhotoTimerViewModel, camera: CameraIdentity?
  ) -> URL? {
    remote.publish(event, of: model, camera: camera)
    if case .shutter = event.kind { shutter() }
    guard case .captured(let photo) = event.kind else { return nil }
    pages.showPhoto(photo)
    return photo.file
  }

  /// Shows the booth's screen over the preview (``BoothScreen``: `kiosk` fills the screen,
  /// `idle` seconds without a press start the idle turn, `leave` closes the window).
  func openBooth(kiosk: Bool, idle: Int, leave: @escaping @MainActor () -> Void) {
    booth = BoothScreen(
      preview: views.preview, actions: views.actions, pages: pages, tracer: tracer, kiosk: kiosk,
      idle: idle, leave: leave)
  }

  /// Records `problem` in the trace when it changed.
  func trace(problem: String?) {
    guard problem != tracedProblem else { return }
    tracedProblem = problem
    tracer?.problem(problem)
  }

  /// The shutter fired: the preview flashes and the shutter sounds.
  func shutter() {
    views.preview.flash()
    sound.play()
  }
}
