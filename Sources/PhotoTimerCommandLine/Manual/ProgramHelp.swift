/// What each program says about itself beyond its options, declared once: its keys and its
/// exit statuses, for `--help` and the manual pages alike.
package enum ProgramHelp {
  /// One row: the key or status (`c, Esc, q`; `130`) and what it does or means.
  package struct Entry: Equatable, Sendable {
    package var term: String
    package var text: String

    package init(_ term: String, _ text: String) {
      self.term = term
      self.text = text
    }
  }

  /// A program and the words that are its own.
  package enum Program: CaseIterable, Sendable {
    /// `phototimer`, in a terminal, a pipe or a script.
    case command
    /// `phototimer-gtk`, the window.
    case window

    /// The executable's name.
    package var name: String {
      switch self {
      case .command: "phototimer"
      case .window: "phototimer-gtk"
      }
    }

    /// What it is, in a line.
    package var summary: String {
      switch self {
      case .command: "a photo self-timer that prepares the shot while it counts"
      case .window: "the photo self-timer in a window: live preview, count, photo"
      }
    }

    /// The options it takes, in `--help` order.
    package var options: [CommandOption] {
      switch self {
      case .command: CommandOption.allCases.filter { !CommandOption.windowOnly.contains($0) }
      case .window: CommandOption.windowOptions
      }
    }

    /// Its subcommands.
    package var commands: [Entry] {
      switch self {
      case .command:
        [
          Entry("booth", "a photo booth: shots, retakes, a collage"),
          Entry("doctor", "say what is available and what is wrong"),
        ]
      case .window: []
      }
    }

    /// Its keys, in the order a user needs them.
    package var keys: [Entry] {
      switch self {
      case .command:
        [
          Entry("c, Esc, q", "cancel the count (exit 130); Ctrl-C does the same"),
          Entry("space, Enter", "take it now: the count ends and the shutter fires at once"),
          Entry("r", "restart the count"),
          Entry(
            "w",
            "while framing: the count that starts by itself once the group is in, on or off"),
          Entry(
            "with --frame",
            "space starts, c goes back to framing, q or Esc quits while framing"),
          Entry("p, u", "with --print: print the last photo or collage; resume a stopped printer"),
        ]
      case .window:
        [
          Entry("space", "start, or take it now while counting"),
          Entry("Enter", "take it now"),
          Entry("Esc", "cancel (or go back from the photo to the preview)"),
          Entry("r", "restart the count"),
          Entry("w", "the count that starts by itself once the group is in, on or off"),
          Entry("--booth", "space keeps the shot under review, r takes it again"),
          Entry("p, u", "with --print: print the last photo or collage; resume a stopped printer"),
          Entry("Ctrl+Q", "close the window"),
        ]
      }
    }

    /// Its exit statuses.
    package var exitStatuses: [Entry] {
      switch self {
      case .command:
        [
          Entry("\(ExitCode.success.rawValue)", "the photo was taken (--frame: at least one)"),
          Entry("\(ExitCode.failure.rawValue)", "the run failed; the message says what to do"),
          Entry("\(ExitCode.usage.rawValue)", "bad usage: the command line was wrong"),
          Entry("\(ExitCode.cancelled.rawValue)", "cancelled (a key or Ctrl-C)"),
          Entry("\(ExitCode.terminated.rawValue)", "terminated (SIGTERM)"),
          Entry("\(ExitCode.hangUp.rawValue)", "hung up (SIGHUP)"),
        ]
      case .window:
        [
          Entry("\(ExitCode.success.rawValue)", "closed"),
          Entry("\(ExitCode.failure.rawValue)", "no display, or the window failed"),
          Entry("\(ExitCode.usage.rawValue)", "bad usage"),
          Entry("\(ExitCode.cancelled.rawValue)", "interrupted (SIGINT)"),
          Entry("\(ExitCode.terminated.rawValue)", "terminated (SIGTERM)"),
        ]
      }
    }

    /// The lines `--help` ends with: the keys, then the exit statuses, one to a line beside
    /// its term, wrapped to a terminal.
    package var helpFooter: [String] {
      ["keys:"] + Self.table(keys, column: 16) + ["", "exit status:"]
        + Self.table(exitStatuses, column: 5)
    }

    /// `entries` as help lines: each term in a column of `column` characters, its text beside
    /// it, wrapped under itself.
    static func table(_ entries: [Entry], column: Int) -> [String] {
      let indent = String(repeating: " ", count: column + 2)
      return entries.flatMap { entry -> [String] in
        let text = CommandOption.wrap(entry.text, width: CommandOption.helpWidth - indent.count)
        let first =
          entry.term.count < column
          ? ["  " + entry.term.padding(toLength: column, withPad: " ", startingAt: 0) + text[0]]
          : ["  " + entry.term, indent + text[0]]
        return first + text.dropFirst().map { indent + $0 }
      }
    }
  }
}
