import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import Testing

@testable import PhotoTimerRemote

@Suite struct RemoteHubTests {
  @Test("An intent the remote gave up waiting for is dropped, never done behind its back")
  func abandonedIntent() async throws {
    let hub = RemoteHub(camera: "test", mirrored: false)
    let reply = try await OffPool.blocking { _ in
      hub.ask(.start(seconds: nil), timeout: .milliseconds(1))
    }
    #expect(reply == .refused("the program did not answer in time"))
    var performed = false
    for await command in hub.intents {
      command.answer { _ in
        performed = true
        return .accepted
      }
      break
    }
    #expect(!performed)
    hub.close()
  }

  @Test("A claimed intent's answer reaches the remote")
  func answeredIntent() async throws {
    let hub = RemoteHub(camera: "test", mirrored: false)
    let answering = Task {
      for await command in hub.intents {
        command.answer { $0 == .takeNow ? .accepted : .refused("no") }
      }
    }
    let reply = try await OffPool.blocking { _ in hub.ask(.takeNow, timeout: .seconds(60)) }
    #expect(reply == .accepted)
    hub.close()
    await answering.value
    #expect(
      try await OffPool.blocking { _ in hub.ask(.cancel, timeout: .seconds(60)) }
        == .refused("the program is closing"))
  }

  @Test("A stream that fell behind the kept events gets the presentation now")
  func fallingBehind() {
    let hub = RemoteHub(camera: "test", mirrored: false)
    hub.publish(PhotoTimerPresentation(state: PhotoTimerState()))
    for index in 0..<(RemoteHub.keptEvents + 10) { hub.publish(eventLine: "{\"n\":\(index)}") }
    let events = hub.waitForEvents(after: 1, timeout: .zero)
    #expect(events.count == 1 && events[0].name == "presentation")
    #expect(hub.waitForEvents(after: hub.newestEvent - 1, timeout: .zero).count == 1)
    hub.close()
  }

  @Test("The page reads the faces as fractions of the picture, with the eyes' state")
  func faces() throws {
    let shown = PhotoTimerPresentation(
      state: PhotoTimerState(status: .counting(remaining: 3)),
      context: .init(
        hasRun: true,
        faces: [
          FaceMark(x: 0.25, y: 0.125, width: 0.5, height: 0.25, eyes: .open),
          FaceMark(x: 0, y: 0.5, width: 0.125, height: 0.25, eyes: .closed),
        ]))
    #expect(
      shown.remoteJSON.hasSuffix(
        #""faces":[{"x":0.25,"y":0.125,"width":0.5,"height":0.25,"eyes":"open"},"#
          + #"{"x":0,"y":0.5,"width":0.125,"height":0.25,"eyes":"closed"}],"autoStart":null,"#
          + #""printing":null}"#))
    let captured = PhotoTimerPresentation(
      state: PhotoTimerState(status: .capturing), context: .init(hasRun: true, autoStart: true))
    #expect(captured.remoteJSON.hasSuffix(#""faces":[],"autoStart":true,"printing":null}"#))
    // Where the program prints: where printing is, in words.
    var context = PhotoTimerPresentation.Context(hasRun: true)
    context.printing = PrintControls(
      printRefusal: nil, resumeRefusal: "not stopped", words: "printed")
    let printing = PhotoTimerPresentation(state: PhotoTimerState(status: .idle), context: context)
    #expect(printing.remoteJSON.hasSuffix(#""printing":{"words":"printed"}}"#))
    #expect(
      printing.remoteJSON.contains(#""actions":["start","quit","print"]"#), "\(printing.remoteJSON)"
    )
  }
}
