import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup

/// The phone as remote in the window: the server, the intents that come from it (into the
/// same actions as the keys and buttons), and what the window publishes to it.
extension WindowController {
  /// Turns the remote on (at `--remote`'s address, else the LAN's, port 8470) or off.
  func setRemote(_ on: Bool) async {
    if !on {
      await stopRemote()
      views.remote.showOff()
      return
    }
    guard remote == nil, !closing else { return }
    let address = options.remote ?? RemoteAddress()
    do {
      let link = try RemoteLink(
        address: address, camera: CameraMenu.name(options.camera), mirrored: mirrored,
        seconds: options.seconds)
      remote = link
      views.remote.show(links: link.links)
      // NB: for a window started from a terminal (and its tests): the link, on stdout.
      FileHandle.standardOutput.write(Data((link.line + "\n").utf8))
      remoteIntents = Task { [weak self] in
        for await command in link.intents {
          command.answer { self?.asked($0) ?? .refused("the window is closing") }
        }
      }
      stage.show(on: link)
      render()
    } catch {
      views.remote.showOff(problem: "The remote could not start: \(error)")
    }
  }

  /// Stops the remote: every page is told, every connection closes.
  func stopRemote() async {
    guard let link = remote else { return }
    remote = nil
    await stage.stopShowingOnRemote()
    await link.stop()
    await remoteIntents?.value
    remoteIntents = nil
  }

  /// A phone's intent, through the window's own actions, when the window's presentation
  /// allows it now (the same gate as its buttons and keys); refused with its reason otherwise.
  private func asked(_ intent: RemoteIntent) -> RemoteReply {
    RemoteLink.answer(intent, shown: presentation(for: .phone)) { action, choice in
      ask(action, choice: choice)
    }
  }

  /// Publishes a run's event to the remote: its `--json` line, and the photo.
  func publishToRemote(_ event: PhotoTimerEvent, of model: PhotoTimerViewModel) {
    guard let remote else { return }
    let time = event.offset
    remote.hub.publish(
      eventLine: event.jsonLine(time: time, activity: model.activity, camera: identity))
    if case .captured(let photo) = event.kind, let file = photo.file {
      remote.hub.addPhoto(path: file.path, summary: model.presentation(audience: .phone).summary)
    }
  }
}
