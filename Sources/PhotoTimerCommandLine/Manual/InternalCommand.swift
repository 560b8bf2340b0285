/// The commands `phototimer` answers for its packaging and its shells, not for people: they
/// are not in `--help`.
///
/// - `phototimer __complete PROGRAM WORD…`: the words a shell offers next (``ShellCompletion``).
/// - `phototimer __generate man phototimer|phototimer-gtk`: a manual page (``ManualPage``).
/// - `phototimer __generate completion bash|zsh|fish`: a completion script
///   (``CompletionScript``); `completion-path` says where it is installed under the prefix.
package enum InternalCommand {
  /// What the command printed and its exit status, or `nil` when `arguments` (without the
  /// program's name) are not an internal command.
  package static func run(
    _ arguments: [String], completion: ShellCompletion
  ) async -> (output: String, status: ExitCode)? {
    guard let first = arguments.first, first.hasPrefix("__") else { return nil }
    let rest = Array(arguments.dropFirst())
    switch (first, rest.first, rest.dropFirst().first) {
    case ("__complete", let name?, _):
      guard let program = ProgramHelp.Program.named(name) else { return ("", .usage) }
      let answer = await completion.answer(program, words: Array(rest.dropFirst()))
      return (answer.lines.map { $0 + "\n" }.joined(), .success)
    case ("__generate", "man"?, let name?):
      guard let program = ProgramHelp.Program.named(name) else { break }
      return (ManualPage.of(program).roff, .success)
    case ("__generate", "completion"?, let shell?):
      guard let script = CompletionScript(rawValue: shell) else { break }
      return (script.text, .success)
    case ("__generate", "completion-path"?, let shell?):
      guard let script = CompletionScript(rawValue: shell) else { break }
      return (script.installPath + "\n", .success)
    default: break
    }
    return (
      "usage: phototimer __complete phototimer|phototimer-gtk WORD…\n"
        + "       phototimer __generate man phototimer|phototimer-gtk\n"
        + "       phototimer __generate completion|completion-path bash|zsh|fish\n",
      .usage
    )
  }
}

extension ProgramHelp.Program {
  /// The program whose executable is `name` (a path's last part counts).
  package static func named(_ name: String) -> Self? {
    let base = name.split(separator: "/").last.map(String.init) ?? name
    return allCases.first { $0.name == base }
  }
}
