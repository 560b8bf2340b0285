import Testing

@testable import PhotoTimerCommandLine

/// The booth's event and guest-link options: what they take, and the words for what they
/// refuse.
@Suite struct BoothOptionTests {
  func problems(_ arguments: [String]) -> [String] {
    do {
      _ = try CommandOptions(arguments: arguments)
      return []
    } catch {
      return error.problems
    }
  }

  @Test(
    "An event's name is one folder's, readable: each mistake refused with what to do",
    arguments: [
      ("", "give the event a name"),
      ("   ", "give the event a name"),
      ("a/b", "names a folder inside a folder"),
      ("..", "would be a hidden folder"),
      (".party", "would be a hidden folder"),
      (String(repeating: "x", count: 65), "at most 64"),
      ("tab\there", "control character"),
    ])
  func eventNames(name: String, words: String) {
    let found = problems(["booth", "--event", name])
    #expect(found.count == 1 && found[0].hasPrefix("--event: "), "\(found)")
    #expect(found.first?.contains(words) == true, "\(found)")
  }

  @Test("A good name is taken as it is; --event and --no-guest-links are the booth's")
  func taken() throws {
    let action = try CommandOptions(arguments: [
      "booth", "--event", "Anna & Ben 2026", "--remote", "--no-guest-links",
    ]).action
    guard case .run(let run) = action else {
      Issue.record("\(action)")
      return
    }
    #expect(run.event == "Anna & Ben 2026" && !run.guestLinks)
    #expect(
      problems(["--event", "party"]) == ["--event applies to a booth: phototimer booth --event …"])
    #expect(
      problems(["booth", "--no-guest-links"])
        == ["--no-guest-links turns off the remote's guest links: it needs --remote"])
  }
}
