import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerSetup

/// The user's intents and choices.
extension WindowController {
  // MARK: - Intents

  /// Performs the window's action `name` (a button, a key).
  func perform(_ name: WindowActions.Name) {
    switch name {
    // NB: the window closes itself (it owns the controller).
    case .intent(.quit): break
    case .intent(let action): ask(action)
    case .back: pages.showPreview()
    case .openFolder: views.photo.openFolder()
    }
  }

  /// Asks the front-end machine for an intent (a button, a key, the phone, the switch) and
  /// carries out its effects.
  ///
  /// - Returns: The machine's reply (a refusal says why: the phone is told).
  @discardableResult
  func ask(
    _ action: PhotoTimerPresentation.Action,
    choice: FrontEndSession.Choice = FrontEndSession.Choice()
  ) -> FrontEndSession.Reply {
    session.printing = printer?.desk.controls
    let reply = session.ask(action, choice: choice, model: snapshot)
    if case .refused(let reason) = reply { tracer?.refused(reason) }
    apply(reply.effects)
    render()
    return reply
  }

  /// Carries out what the front-end machine decided; the window ends when it is closed
  /// (``close()``).
  func apply(_ effects: [FrontEndSession.Effect]) {
    let model = model
    stage.carryOut(
      effects, on: model,
      // NB: a count that starts closes the Remote popover: a count started from the phone is
      // never hidden under it.
      counted: { [self] _ in
        pages.showPreview()
        views.remote.closePopover()
        tracer?.countStarts()
      },
      heard: { [weak self] report in
        guard let self, let model, self.model === model else { return }
        self.apply(self.session.heard(report.word, model: model.snapshot))
        self.render()
      },
      booth: { [self] effect in
        booth?.carryOut(
          effect, photo: snapshot.photo, faces: faces, controls: .init(stage)
        ) { [weak self] shot in
          guard let self else { return }
          apply(session.reviewEnded(shot: shot, model: snapshot))
          render()
        }
      },
      reopen: { [self] delay in
        reopening?.cancel()
        reopening = Task { [weak self] in
          guard (try? await Task.sleep(for: delay)) != nil, let self, !closing else { return }
          rebuild()
        }
      }, printer: printer)
  }

  /// What the booth reports: passed on (the guests' link, the phones, the event's log), the
  /// collage shown with the guests' QR code, and a line on standard output each.
  func boothHappened(_ events: [BoothEvent]) {
    guard let booth else { return }
    let (passed, problems) = booth.pass(
      events, remote: remote.link, time: started.duration(to: .now))
    for problem in problems { views.controls.showStatus(problem, isError: true) }
    for event in passed {
      // NB: for a window started from a terminal (and its tests).
      try? FileHandle.standardOutput.write(contentsOf: Data((event.line + "\n").utf8))
      if let notice = event.notice { views.controls.showStatus(notice, isError: false) }
      boothScreen?.activity()
      if case .collage(_, let file, _, let guest) = event {
        printer?.offer(file)
        pages.showCollage(URL(fileURLWithPath: file), guest: guest)
        boothScreen?.collageMade(URL(fileURLWithPath: file), guest: guest)
      }
    }
  }

  /// What printing reports: passed on (the phones, the event's log), a line on standard
  /// output each, and the screen drawn again (the status says where printing is).
  func printHappened(_ events: [PrintEvent]) {
    guard let printer else { return }
    let problems = printer.pass(events, remote: remote.link, time: started.duration(to: .now))
    for problem in problems { views.controls.showStatus(problem, isError: true) }
    for event in events {
      // NB: for a window started from a terminal (and its tests).
      try? FileHandle.standardOutput.write(contentsOf: Data((event.line + "\n").utf8))
    }
    render()
  }

  // MARK: - Choices

  /// The bar's choices, as the controller applies them.
  var choices: ControlBar.Choices {
    ControlBar.Choices(
      countdown: { [weak self] seconds in self?.follow { $0.countdown(seconds) } },
      size: { [weak self] request in self?.follow { $0.size(request) } },
      look: { [weak self] look in self?.follow { $0.look(look) } },
      location: { [weak self] on in self?.follow { $0.location(on) } },
      mirror: { [weak self] in self?.mirrored = $0 },
      autoStart: { [weak self] in self?.ask(.autoStart, choice: .init(on: $0)) })
  }

  /// Makes a choice and carries out what it asks.
  private func follow(_ choice: (WindowPreferences) -> WindowPreferences.Change) {
    switch choice(preferences) {
    case .none: break
    case .rebuild: rebuild()
    case .countdown(let seconds): model?.countdownSeconds = seconds
    }
  }

  /// The camera menu's choice.
  func chooseCamera(_ camera: CameraChoice) {
    let change = preferences.camera(camera)
    guard change != .none else { return }
    cameraChanged()
    follow { _ in change }
  }

  /// A new camera is in use: mirrored when it faces the user, unless asked otherwise.
  func cameraChanged() {
    if options.mirror == nil { mirrored = options.camera.driver.mirrored(options.camera) }
    views.controls.setMirror(mirrored)
  }
}
