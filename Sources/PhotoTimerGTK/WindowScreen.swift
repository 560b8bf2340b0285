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
  private let sound: ShutterSound

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

  /// The shutter fired: the preview flashes and the shutter sounds.
  func shutter() {
    views.preview.flash()
    sound.play()
  }
}
