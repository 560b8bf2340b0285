import PhotoTimerCommandLine
import PhotoTimerRemote
import Testing

/// The one set of rules by which both programs answer a phone's intent.
@Suite struct RemoteAnswerTests {
  /// The intent, whether a count runs, why nothing can be done; the answer and what was done.
  static let cases: [(RemoteIntent, Bool, String?, RemoteReply, String?)] = [
    (.start(seconds: nil), false, nil, .accepted, "start nil"),
    (.start(seconds: 10), false, nil, .accepted, "start 10"),
    (.start(seconds: 10), true, nil, .refused("a count is already running"), nil),
    (.takeNow, true, nil, .accepted, "take-now"),
    (.takeNow, false, nil, .refused("no count is running"), nil),
    (.cancel, true, nil, .accepted, "cancel"),
    (.cancel, false, nil, .refused("no count is running"), nil),
    (.restart, true, nil, .accepted, "restart"),
    (.restart, false, nil, .refused("no count is running"), nil),
    (.start(seconds: 3), false, "the program is closing", .refused("the program is closing"), nil),
    (.cancel, true, "the camera is not ready", .refused("the camera is not ready"), nil),
  ]

  @Test("Each intent is done or refused in words, the same in both programs", arguments: cases)
  func answer(
    intent: RemoteIntent, running: Bool, unavailable: String?, expected: RemoteReply,
    done: String?
  ) {
    var performed: [String] = []
    let reply = RemoteLink.answer(
      intent, running: running, unavailable: unavailable,
      start: { performed.append("start \($0.map(String.init) ?? "nil")") },
      takeNow: { performed.append("take-now") }, cancel: { performed.append("cancel") },
      restart: { performed.append("restart") })
    #expect(reply == expected)
    #expect(performed == (done.map { [$0] } ?? []))
  }
}
