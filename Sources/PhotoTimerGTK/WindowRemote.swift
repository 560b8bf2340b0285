import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup

/// The phone as the window's remote: the server while it serves, the intents that come from
/// it (answered by the window, through the same front-end machine as its keys and buttons),
/// and what the window publishes to it.
@MainActor
final class WindowRemote {
  private let panel: RemotePanel
  private let stage: ScreenStage
  /// The server, while it serves.
  private(set) var link: RemoteLink?
  private var intents: Task<Void, Never>?

  /// A remote shown in `panel`, fed the previews of `stage`'s camera.
  init(panel: RemotePanel, stage: ScreenStage) {
    self.panel = panel
    self.stage = stage
  }

  /// Serves the remote for `options` (at `--remote`'s address, else the LAN's, port 8470)
  /// unless it already serves; `answer` answers each phone's intent. When it cannot start, the
  /// panel says why.
  ///
  /// - Parameters:
  ///   - mirrored: Whether the picture is mirrored.
  ///   - booth: Whether the window is a booth (its collages get guest links unless
  ///     `--no-guest-links`).
  func start(
    for options: CommandOptions.RunOptions, mirrored: Bool, booth: Bool,
    answer: @escaping @MainActor (RemoteIntent) -> RemoteReply
  ) {
    guard link == nil else { return }
    do {
      let link = try RemoteLink(
        address: options.remote ?? RemoteAddress(), camera: CameraMenu.name(options.camera),
        mirrored: mirrored, seconds: options.seconds, guests: booth && options.guestLinks)
      self.link = link
      panel.show(links: link.links)
      // NB: for a window started from a terminal (and its tests): the link, on stdout.
      // NB: the throwing write: a closed pipe is not worth a crash.
      try? FileHandle.standardOutput.write(contentsOf: Data((link.line + "\n").utf8))
      intents = Task {
        for await command in link.intents { command.answer { answer($0) } }
      }
      stage.show(on: link)
    } catch {
      panel.showOff(problem: "The remote could not start: \(error)")
      // NB: for a window started from a terminal (and its tests).
      try? FileHandle.standardError.write(
        contentsOf: Data("note: the remote could not start: \(error)\n".utf8))
    }
  }

  /// Stops serving (every page is told, every connection closes); the panel shows it off
  /// when `shown`.
  func stop(shown: Bool = false) async {
    if let link {
      self.link = nil
      await stage.stopShowingOnRemote()
      await link.stop()
      await intents?.value
      intents = nil
    }
    if shown { panel.showOff() }
  }

  /// Publishes what the window shows now, in the phone's words.
  func publish(_ presentation: PhotoTimerPresentation) {
    link?.hub.publish(presentation)
  }

  /// Publishes a run's event: its `--json` line, and the photo.
  func publish(_ event: PhotoTimerEvent, of model: PhotoTimerViewModel, camera: CameraIdentity?) {
    guard let link else { return }
    link.hub.publish(
      eventLine: event.jsonLine(time: event.offset, activity: model.activity, camera: camera))
    if case .captured(let photo) = event.kind, let file = photo.file {
      link.hub.addPhoto(path: file.path, summary: model.presentation(audience: .phone).summary)
    }
  }
}
