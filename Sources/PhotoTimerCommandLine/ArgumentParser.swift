/// A small command-line parser with the conventions people know: `--opt value` and
/// `--opt=value`, `-s 5` and `-s5`, flags, one optional subcommand, `--` to end options, every
/// problem reported at once, and a suggestion for a misspelled option.
///
/// swift-argument-parser cannot be fetched here; this is the part of it phototimer needs.
package struct ArgumentParser {
  /// What the command line said, before the values are interpreted.
  package struct Parsed: Equatable {
    /// The subcommand, when one was given.
    package var command: String?
    /// Each option given, with its values in order (empty for a flag).
    package var options: [CommandOption: [String]] = [:]
    /// The order options were given in (for "cannot be combined" messages).
    package var order: [CommandOption] = []
    /// Arguments that are neither options nor the subcommand.
    package var positionals: [String] = []

    /// Whether `option` was given.
    package func has(_ option: CommandOption) -> Bool { options[option] != nil }

    /// The last value given for `option`.
    package func value(_ option: CommandOption) -> String? { options[option]?.last }

    /// The last value given for a whole-number option, checked against its declared range;
    /// a value out of range or not a number adds a problem and gives `nil`.
    package func integer(_ option: CommandOption, problems: inout [String]) -> Int? {
      guard let text = value(option) else { return nil }
      guard case .integer(_, let range, let unit, _)? = option.declaration.value else {
        preconditionFailure("Internal inconsistency: \(option.name) is not a whole number")
      }
      if let number = Int(text), range.contains(number) { return number }
      let what = unit.map { "a whole number of \($0)" } ?? "a whole number"
      problems.append(
        "\(option.name) takes \(what) from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
      return nil
    }
  }

  package let options: [CommandOption]
  package let commands: [String]
  /// Each option by each of its names, built once: a lookup no longer builds every option's
  /// declaration (help text included) for every argument.
  private let byName: [String: CommandOption]

  package init(options: [CommandOption], commands: [String]) {
    self.options = options
    self.commands = commands
    var byName: [String: CommandOption] = [:]
    for option in options {
      for name in option.declaration.names { byName[name] = option }
    }
    self.byName = byName
    longNames = byName.keys.filter { $0.hasPrefix("--") }.sorted()
  }

  /// Every long name, for suggestions.
  private let longNames: [String]

  /// Parses `arguments`.
  ///
  /// - Returns: What was given, and every problem found (empty when none).
  package func parse(_ arguments: [String]) -> (Parsed, [String]) {
    var parsed = Parsed()
    var problems: [String] = []
    var index = 0
    var optionsEnded = false
    func record(_ option: CommandOption, _ value: String?) {
      parsed.options[option, default: []].append(contentsOf: value.map { [$0] } ?? [])
      if !parsed.order.contains(option) { parsed.order.append(option) }
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        if parsed.command == nil, parsed.positionals.isEmpty, commands.contains(argument) {
          parsed.command = argument
        } else {
          parsed.positionals.append(argument)
        }
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      } else if !argument.hasPrefix("--"), argument.count > 2 {
        // -s5: a short option with its value attached.
        name = String(argument.prefix(2))
        inline = String(argument.dropFirst(2))
      }
      guard let option = byName[name] else {
        let shown = argument.hasPrefix("--") ? name : argument
        problems.append(unknown(shown))
        // A misspelling of an option that takes a value: its value is not a stray argument.
        if inline == nil, let likely = suggestion(for: shown),
          byName[likely]?.declaration.value != nil,
          index < arguments.count, !arguments[index].hasPrefix("-")
        {
          index += 1
        }
        continue
      }
      if case .optional? = option.declaration.value {
        record(option, inline ?? "")
      } else if let value = option.declaration.value {
        if let inline {
          record(option, inline)
        } else if index < arguments.count {
          record(option, arguments[index])
          index += 1
        } else {
          problems.append(
            "\(name) needs a value (\(value.name)), for example '\(name) \(value.example)'")
        }
      } else if let inline {
        if argument.hasPrefix("--") {
          problems.append("\(name) takes no value, but was given '\(inline)'")
        } else {
          problems.append(unknown(argument))
        }
      } else {
        record(option, nil)
      }
    }
    return (parsed, problems)
  }

  /// "unknown option '--secnds'; did you mean '--seconds'?"
  private func unknown(_ name: String) -> String {
    if let suggestion = suggestion(for: name) {
      return "unknown option '\(name)'; did you mean '\(suggestion)'?"
    }
    return "unknown option '\(name)'; see 'phototimer --help'"
  }

  /// The known option closest to a misspelled one, when it is close enough.
  private func suggestion(for name: String) -> String? {
    // NB: every one-letter option is one edit from every other: no guesses for those.
    guard name.hasPrefix("--") else { return nil }
    // NB: no typo is 40 characters long; the edit distance of a long argument to every option
    // costs its length times theirs (the fuzzer's slowest inputs).
    guard name.count <= 40 else { return nil }
    return longNames.map { ($0, Self.distance($0, name)) }
      .filter { $0.1 <= max(1, name.count / 4) || ($0.0.hasPrefix(name) && name.count > 3) }
      .min { $0.1 < $1.1 }?.0
  }

  /// The edit distance between two strings (insertions, deletions, substitutions).
  package static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
