import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging

/// A screen that shows a camera's previews: the terminal's live view, the window's preview.
package protocol PreviewTarget: AnyObject, Sendable {
  /// The room the picture has now, in pixels, or `nil` when there is none (a terminal too
  /// small for a picture).
  var previewRoom: PreviewSize? { get async }
  /// Whether previews are mirrored now.
  var previewMirrored: Bool { get async }
  /// Shows a newer preview.
  func show(preview frame: Frame) async
}

/// The screen's camera and its life, in one owner for every front end: the camera the screen
/// holds and the model over services built on it; opening it; feeding its previews to the
/// screen and to the phone; rebuilding it all when the camera, its mode or an option changes;
/// and tearing it down. Every task it starts is its own and has ended when ``close()``
/// returns.
///
/// The terminal builds one stage and opens it; the window rebuilds it on each choice:
///
/// ```swift
/// let stage = ScreenStage(screen: preview)
/// stage.report = { report in … }        // opened, failed, preview stopped, rebuilt
/// stage.rebuild(options, fallback: nil)  // tear down, build off the main thread, open
/// …
/// await stage.close()
/// ```
@MainActor
package final class ScreenStage {
  /// What one choice of camera and options builds, off the main thread.
  package struct Parts: Sendable {
    /// The camera the screen holds, or `nil` when each run opens its own (or for the
    /// simulation).
    package var camera: LiveCamera?
    /// The camera, location and filter.
    package var services: PhotoTimerServices
    /// The camera as every output names it.
    package var identity: CameraIdentity
    /// Whether the options open a camera (held by the screen or not); `false` for the
    /// simulation.
    package var hasCamera: Bool
    /// The count that starts itself (`--start-when-ready`) on the camera the screen holds,
    /// or `nil`.
    package var ready: ReadyWatch?

    /// Parts made elsewhere (a test's services).
    package init(
      camera: LiveCamera?, services: PhotoTimerServices, identity: CameraIdentity,
      hasCamera: Bool? = nil, ready: ReadyWatch? = nil
    ) {
      self.camera = camera
      self.services = services
      self.identity = identity
      self.hasCamera = hasCamera ?? (camera != nil)
      self.ready = ready
    }

    /// Builds the camera, the services and the camera's name from `options`.
    ///
    /// - Parameters:
    ///   - options: The run's options, `auto` already resolved.
    ///   - fallback: Why the camera stands in for the one asked for, if it does.
    ///   - holds: Whether the screen holds the camera, given whether there is one to hold.
    /// - Throws: ``CameraOpenError/usage(_:)`` when the camera lacks what the options ask
    ///   for; another error when it cannot be opened or the output folder is not usable.
    package static func build(
      _ options: CommandOptions.RunOptions, fallback: String?,
      holds: @Sendable (_ hasCamera: Bool) -> Bool
    ) async throws -> Parts {
      let source = try await ProgramSetup.cameraSource(options)
      let camera = source.flatMap { holds(true) ? LiveCamera($0) : nil }
      let services = try ProgramSetup.makeServices(options, camera: camera ?? source)
      return Parts(
        camera: camera, services: services.mapErrors(CommandAdvice.advise),
        identity: ProgramSetup.identity(options, source: source, fallback: fallback),
        hasCamera: source != nil, ready: ProgramSetup.readyWatch(options, camera: camera))
    }
  }

  /// What happened to the stage, for the front end to show.
  package enum Report {
    /// The old camera is closed and the new one is being built (the window clears its
    /// picture).
    case building
    /// The camera and the options could not be built into a stage.
    case buildFailed(any Error)
    /// A new model is in place (the front end observes it).
    case built(PhotoTimerViewModel)
    /// The camera gives frames: a count may start.
    case opened
    /// The camera did not open.
    case cameraFailed(any Error)
    /// The preview stopped; the run goes on without it.
    case previewStopped(any Error)
    /// The faces followed in the picture now (empty: none, or no one follows them): the
    /// front end outlines them over its preview, through its presentation.
    case faces([FaceMark])
  }

  /// What the count that starts itself says, for the front end to show.
  package enum ReadyReport: Sendable, Equatable {
    /// What it waits for, or that everyone is ready (then start the count).
    case state(ReadyRule.State)
    /// It cannot watch (no face model): why, in words; counts start by hand.
    case unavailable(String)

    /// The report as the front-end machine hears it.
    package var word: FrontEndSession.ReadyWord {
      switch self {
      case .state(.ready): .ready
      case .state(.waiting(let words)): .waiting(words)
      case .unavailable(let problem): .unavailable(problem)
      }
    }
  }

  /// The camera the screen holds now, or `nil`.
  package private(set) var camera: LiveCamera?
  /// The count that starts itself on the current camera, or `nil`.
  package private(set) var ready: ReadyWatch?
  /// The model over the current services, or `nil` before the first build.
  package private(set) var model: PhotoTimerViewModel?
  /// The current camera as every output names it.
  package private(set) var identity: CameraIdentity?
  /// Whether ``close()`` was called: nothing starts after it.
  package private(set) var isClosed = false
  /// Where the stage says what happened.
  package var report: @MainActor (Report) -> Void = { _ in }

  /// Where the previews go (none: no picture to feed); the stage does not keep it alive.
  package weak var screen: (any PreviewTarget)?
  private let clock: any Clock<Duration>
  /// The tasks that live as long as the current camera (opening and feeding the screen, the
  /// front end's own), and the phone's feed, which moves to each new camera.
  private var tasks: [Task<Void, Never>] = []
  private var remote: (link: RemoteLink, feed: Task<Void, Never>)?
  private var rebuilding: Task<Void, Never>?
  /// The wait for the people before the next count, while one runs.
  private var readyWait: Task<Void, Never>?

  /// A stage that shows its previews on `screen` (none: no picture to feed).
  ///
  /// - Parameters:
  ///   - screen: Where the previews go; it may be set later, before ``open()``.
  ///   - clock: The clock the runs keep time on; tests pass a `TestClock`.
  package init(screen: (any PreviewTarget)? = nil, clock: any Clock<Duration> = ContinuousClock()) {
    self.screen = screen
    self.clock = clock
  }

  /// Makes `parts` the stage's, under a new model; call ``open()`` to open the camera.
  ///
  /// - Returns: The model.
  @discardableResult
  package func adopt(_ parts: Parts, options: CommandOptions.RunOptions) -> PhotoTimerViewModel {
    // NB: a local opens the existential for the model's generic initializer; the stored
    // property does not.
    let clock = clock
    let model = PhotoTimerViewModel(
      countdownSeconds: options.seconds, services: parts.services, clock: clock,
      cameraWaitLimit: .seconds(options.cameraWait))
    camera = parts.camera
    ready = parts.ready
    self.model = model
    identity = parts.identity
    if let remote { show(on: remote.link) }
    return model
  }

  /// Opens the camera the screen holds, reports ``Report/opened`` or why not, then feeds the
  /// screen its previews until the camera closes. Without a camera it reports `opened` at once.
  package func open() {
    guard let camera else { return report(.opened) }
    let screen = screen
    keep { [weak self] _ in
      do {
        try await camera.start()
        // NB: opened means it gives frames: an ffmpeg or an IP camera opens before its
        // stream has a picture, and a stream that fails at once is a camera that failed.
        try await camera.firstFrame()
      } catch {
        if !(error is CancellationError), !camera.isClosed { self?.report(.cameraFailed(error)) }
        return
      }
      self?.report(.opened)
      guard let screen else { return }
      if let problem = await Self.feed(camera, to: screen) {
        self?.report(.previewStopped(problem))
      }
    }
    // NB: the phone draws the faces too, so they are followed with or without a screen.
    keep { [weak self] _ in
      do {
        for try await marks in camera.faces.changes() { self?.report(.faces(marks)) }
      } catch {}
    }
  }

  /// Runs `work` for as long as the current model lives: it is cancelled and waited for when
  /// the stage is torn down or rebuilt.
  package func keep(_ work: @escaping @MainActor (PhotoTimerViewModel) async -> Void) {
    guard let model, !isClosed else { return }
    tasks.append(Task { await work(model) })
  }

  /// With a count that starts itself: watches the camera the screen holds until the people
  /// are in and still, and says what it waits for through `report`, the last time
  /// `.state(.ready)` (the front end starts the count, if its gate allows it now). A wait
  /// under way starts over; ``stopWatchingForPeople()``, a rebuild and ``close()`` end it.
  ///
  /// - Parameters:
  ///   - afterCount: A count has just ended: the picture must empty first.
  ///   - report: Called on the main actor with each new state.
  package func watchForPeople(
    afterCount: Bool, report: @escaping @MainActor (ReadyReport) -> Void
  ) {
    readyWait?.cancel()
    guard let ready, !isClosed else { return }
    let previous = readyWait
    readyWait = Task {
      await previous?.value
      let (reports, input) = AsyncStream.makeStream(of: ReadyReport.self)
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          do {
            try await ready.wait(afterCount: afterCount) { input.yield(.state($0)) }
          } catch is CancellationError {
          } catch {
            input.yield(.unavailable("\(CommandAdvice.advise(error))"))
          }
          input.finish()
        }
        for await next in reports where !Task.isCancelled { report(next) }
      }
    }
  }

  /// Stops watching for the people (a count started); returns at once, the wait ends soon
  /// after and is awaited by the next wait or the tear-down.
  package func stopWatchingForPeople() {
    readyWait?.cancel()
  }

  /// Feeds the phone's remote the previews of the camera the screen holds, now and after each
  /// rebuild.
  package func show(on link: RemoteLink) {
    remote?.feed.cancel()
    let camera = camera
    remote = (link, Task { if let camera { await link.feed(camera) } })
  }

  /// Stops feeding the phone's remote, and waits until the feed has ended.
  package func stopShowingOnRemote() async {
    let feed = remote?.feed
    remote = nil
    feed?.cancel()
    await feed?.value
  }

  /// Stops the current run and closes the camera, then builds a stage for `options` off the
  /// main thread and opens it; rebuilds queue behind each other.
  ///
  /// - Parameters:
  ///   - options: The options to build from, `auto` already resolved.
  ///   - fallback: Why the camera stands in for the one asked for, if it does.
  package func rebuild(_ options: CommandOptions.RunOptions, fallback: String?) {
    let previous = rebuilding
    rebuilding = Task {
      await previous?.value
      await tearDown()
      guard !isClosed else { return }
      report(.building)
      let built = await Task.detached {
        try await Parts.build(options, fallback: fallback) { _ in true }
      }.result
      switch built {
      case .failure(let error):
        report(.buildFailed(error))
      case .success(let parts):
        guard !isClosed else {
          await parts.camera?.close()
          return
        }
        report(.built(adopt(parts, options: options)))
        open()
      }
    }
  }

  /// Stops the run and the feeds, and closes the camera: no process, socket or partial file
  /// is left.
  package func tearDown() async {
    let model = model
    let camera = camera
    let tasks = tasks
    self.model = nil
    self.camera = nil
    ready = nil
    self.tasks = []
    model?.cancel()
    await model?.waitForRun()
    await endReadyWait()
    let feed = remote?.feed
    feed?.cancel()
    for task in tasks { task.cancel() }
    await camera?.close()
    for task in tasks { await task.value }
    await feed?.value
  }

  /// Cancels the feeds and the front end's tasks and waits until each has ended; the camera
  /// stays open (the terminal's last screen is drawn before it closes).
  package func stopFeeding() async {
    await endReadyWait()
    let tasks = tasks
    self.tasks = []
    for task in tasks { task.cancel() }
    await stopShowingOnRemote()
    for task in tasks { await task.value }
  }

  /// Ends the stage: waits for a rebuild under way, tears down, stops feeding the phone.
  /// Nothing the stage started runs when it returns.
  package func close() async {
    isClosed = true
    await rebuilding?.value
    await tearDown()
    await stopShowingOnRemote()
  }

  /// Cancels the wait for the people and waits until it has ended.
  private func endReadyWait() async {
    let wait = readyWait
    readyWait = nil
    wait?.cancel()
    await wait?.value
  }

  /// Shows `camera`'s previews on `screen`, the newest each time, asking again for the room
  /// after a resize; returns when the camera closes or the task is cancelled, or the error
  /// that stopped the preview.
  private nonisolated static func feed(
    _ camera: LiveCamera, to screen: any PreviewTarget
  ) async -> (any Error)? {
    while !Task.isCancelled {
      guard let room = await screen.previewRoom else {
        // Too small for a picture: look again at the next frame.
        let tiny = PreviewSize(width: 1, height: 1)
        guard (try? await camera.previews(fitting: tiny).first { _ in true }) != nil else {
          return nil
        }
        continue
      }
      let mirrored = await screen.previewMirrored
      do {
        for try await frame in camera.previews(fitting: room, mirrored: mirrored) {
          await screen.show(preview: frame)
          if Task.isCancelled { return nil }
          let roomNow = await screen.previewRoom
          let mirroredNow = await screen.previewMirrored
          if roomNow != room || mirroredNow != mirrored { break }
        }
        if camera.isClosed { return nil }
      } catch {
        if error is CancellationError || camera.isClosed { return nil }
        return error
      }
    }
    return nil
  }
}
