import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerRemote

/// The phone as remote for a front end: the server, what the front end publishes to it, and
/// the preview it feeds while someone watches.
///
/// Both programs hold one: they publish each presentation and each change of their view
/// model (the page draws the same presentation, the event stream carries the `--json`
/// events), hand their photos over, and read the intents from ``intents`` into the same path
/// as their keys, so a count started on the phone is the count on the screen.
package final class RemoteLink: Sendable {
  /// The longest side of a preview sent to a phone.
  package static let previewSide = 1280
  /// The preview's JPEG quality: about 1 MB/s at 720p and 15–30 frames a second.
  package static let previewQuality = 60

  package let hub: RemoteHub
  package let server: RemoteServer

  /// Starts the server on `address`.
  ///
  /// - Parameters:
  ///   - address: Where to listen.
  ///   - camera: What the page calls the camera.
  ///   - mirrored: Whether the page mirrors the preview.
  ///   - seconds: The count's length the page offers first.
  ///   - guests: Whether a booth's sessions get guest links (a token of their own).
  /// - Throws: `RemoteError`.
  package init(
    address: RemoteAddress, camera: String, mirrored: Bool, seconds: Int, guests: Bool = false
  )
    throws(RemoteError)
  {
    hub = RemoteHub(camera: camera, mirrored: mirrored, seconds: seconds)
    server = try RemoteServer(
      hub: hub, address: address, guestToken: guests ? RemoteToken() : nil)
  }

  /// Publishes a booth session's collage and shots for its guests, and the booth's event
  /// line to the phones; returns the guests' link to it (`nil` when guest links are off).
  package func publishSession(
    _ session: Int, collage: String, shots: [String], event: String?
  ) -> String? {
    guard let link = server.guestLink(session: session) else { return nil }
    hub.publishSession(number: session, collage: collage, shots: shots, event: event, link: link)
    return link
  }

  /// The page's links, the first the one to show as a QR code.
  package var links: [String] { server.links }

  /// The intents from the phones.
  package var intents: AsyncStream<RemoteHub.Command> { hub.intents }

  /// The remote in one line, for the plain output and the live view's header.
  package var line: String {
    "remote: \(links.joined(separator: " · ")) (open it on a phone on the same network)"
  }

  /// The `--json` event that announces the links.
  package var jsonLine: String {
    var object = JSONObject()
    object.add("event", "remote")
    object.add("t", 0.0)
    object.addRaw("links", "[" + links.map(JSONObject.quote).joined(separator: ",") + "]")
    return object.text
  }

  /// The first link as a QR code in half blocks, light on dark, with a quiet zone.
  package var qrLines: [String] {
    guard let first = links.first, let code = QRCode(encoding: first) else { return [] }
    return code.halfBlockLines()
  }

  /// Publishes a change of the front end's model: the presentation, the `--json` event,
  /// and the photo when one was taken.
  package func publish(
    _ presentation: PhotoTimerPresentation, after update: PhotoTimerViewModel.Update?,
    time: Duration, camera: CameraIdentity? = nil
  ) {
    hub.publish(presentation)
    guard let update else { return }
    if let line = update.jsonLine(time: time, camera: camera) { hub.publish(eventLine: line) }
    if case .event(.run(let event, _)) = update.cause, case .captured(let photo) = event.kind,
      let file = photo.file
    {
      hub.addPhoto(path: file.path, summary: presentation.summary)
    }
  }

  /// Feeds the camera's previews to the viewers, encoded once for all of them, only while
  /// someone watches; returns when the camera closes or the task is cancelled.
  package func feed(_ camera: LiveCamera) async {
    let room = PreviewSize(width: Self.previewSide, height: Self.previewSide)
    while !Task.isCancelled, !camera.isClosed {
      await hub.waitForViewers()
      if Task.isCancelled || hub.isClosed { return }
      do {
        for try await frame in camera.previews(fitting: room) {
          let arrived = ContinuousClock.now
          let jpeg = try await OffPool.run { _ in
            try JPEGCodec.encode(frame, quality: Self.previewQuality)
          }
          hub.publish(jpeg: jpeg, width: frame.width, height: frame.height, captured: arrived)
          if !hub.hasViewers { break }
        }
        if camera.isClosed { return }
      } catch {
        // NB: the screen says why the camera stopped; the page shows the last frame and the
        // presentation's words.
        return
      }
    }
  }

  /// A phone's intent, answered by the one gate every front end asks: the presentation's
  /// actions. An intent that is not one of them now is refused with the presentation's
  /// reason (a second Start while counting never starts a second run; take it now after the
  /// count ended is refused, not silently dropped); the others are done by the front end's
  /// own path for the action (its keys, its buttons).
  ///
  /// - Parameters:
  ///   - intent: What the phone asks.
  ///   - shown: What the front end shows now.
  ///   - perform: Does an allowed action, with what the phone chose: a start's length in
  ///     seconds, the switch's state.
  /// - Returns: The answer for the phone.
  package static func answer(
    _ intent: RemoteIntent, shown: PhotoTimerPresentation,
    perform: (PhotoTimerPresentation.Action, _ choice: IntentChoice) -> Void
  ) -> RemoteReply {
    if let refusal = shown.refusal(of: intent.action) { return .refused(refusal) }
    var choice = IntentChoice()
    switch intent {
    case .start(let seconds): choice.seconds = seconds
    case .autoStart(let on): choice.on = on
    case .takeNow, .cancel, .restart, .keep, .retake, .print, .resume: break
    }
    perform(intent.action, choice)
    return .accepted
  }

  /// Stops the server: every page is told the program closed, every connection ends.
  package func stop() async {
    let server = server
    _ = try? await OffPool.blocking { _ in server.stop() }
  }
}

/// What comes with an intent besides its action: a start's length (the phone's choice), the
/// switch's state (a phone sets it; a key flips it): the front-end machine's own.
package typealias IntentChoice = FrontEndSession.Choice
