/// A small command-line parser with the conventions people know: `--opt value` and
/// `--opt=value`, `-s 5` and `-s5`, flags, one optional subcommand, `--` to end options, every
/// problem reported at once, and a suggestion for a misspelled option.
///
/// swift-argument-parser cannot be fetched here; this is the part of it phototimer needs.
struct ArgumentParser {
  /// One option: its names (`-s`, `--seconds`) and whether it takes a value.
  struct Option: Equatable {
    var names: [String]
    var valueName: String?
    /// The option's canonical name: its long name.
    var key: String { names.last ?? "" }
    var takesValue: Bool { valueName != nil }
  }

  /// What the command line said, before the values are interpreted.
  struct Parsed: Equatable {
    /// The subcommand, when one was given.
    var command: String?
    /// Each option given, by key, with its values in order (empty for a flag).
    var options: [String: [String]] = [:]
    /// The order options were given in, by key (for "cannot be combined" messages).
    var order: [String] = []
    /// Arguments that are neither options nor the subcommand.
    var positionals: [String] = []

    /// Whether `key` was given.
    func has(_ key: String) -> Bool { options[key] != nil }

    /// The last value given for `key`.
    func value(_ key: String) -> String? { options[key]?.last }
  }

  var options: [Option]
  var commands: [String]

  /// Parses `arguments`.
  ///
  /// - Returns: What was given, and every problem found (empty when none).
  func parse(_ arguments: [String]) -> (Parsed, [String]) {
    var parsed = Parsed()
    var problems: [String] = []
    var index = 0
    var optionsEnded = false
    func record(_ option: Option, _ value: String?) {
      parsed.options[option.key, default: []].append(contentsOf: value.map { [$0] } ?? [])
      if !parsed.order.contains(option.key) { parsed.order.append(option.key) }
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
      guard let option = options.first(where: { $0.names.contains(name) }) else {
        let shown = argument.hasPrefix("--") ? name : argument
        problems.append(unknown(shown))
        // A misspelling of an option that takes a value: its value is not a stray argument.
        if inline == nil, let likely = suggestion(for: shown),
          options.first(where: { $0.names.contains(likely) })?.takesValue == true,
          index < arguments.count, !arguments[index].hasPrefix("-")
        {
          index += 1
        }
        continue
      }
      if option.takesValue {
        if let inline {
          record(option, inline)
        } else if index < arguments.count {
          record(option, arguments[index])
          index += 1
        } else {
          problems.append(
            "\(name) needs a value (\(option.valueName ?? "VALUE")), for example "
              + "'\(name) \(example(option))'")
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

  private func example(_ option: Option) -> String {
    switch option.valueName {
    case "N": "5"
    case "DIR": "~/Pictures"
    case "HOST:PORT": "127.0.0.1:2947"
    case "LAT,LON": "37.7694,-122.4862"
    case "SECONDS": "10"
    default: option.valueName ?? "VALUE"
    }
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
    return options.flatMap(\.names).filter { $0.hasPrefix("--") == name.hasPrefix("--") }
      .map { ($0, Self.distance($0, name)) }
      .filter { $0.1 <= max(1, name.count / 4) || ($0.0.hasPrefix(name) && name.count > 3) }
      .min { $0.1 < $1.1 }?.0
  }

  /// The edit distance between two strings (insertions, deletions, substitutions).
  static func distance(_ a: String, _ b: String) -> Int {
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
