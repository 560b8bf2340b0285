/// What an option is declared with: its value, its completion, its parser.
extension CommandOption {
  /// What an option's value is.
  package enum Value: Hashable {
    /// Free text, checked by the code that uses it; `name` is shown in help (`DIR`).
    case text(name: String, example: String)
    /// A whole number within `range`; `unit` names what it counts ("seconds").
    case integer(name: String, range: ClosedRange<Int>, unit: String?, example: String)
    /// Free text that may be left out, given only as `--name=VALUE` (`--remote`).
    case optional(name: String, example: String)

    /// The placeholder shown in help and messages.
    package var name: String {
      switch self {
      case .text(let name, _), .integer(let name, _, _, _), .optional(let name, _): name
      }
    }

    /// A value to show in "needs a value, for example …".
    package var example: String {
      switch self {
      case .text(_, let example), .integer(_, _, _, let example), .optional(_, let example):
        example
      }
    }
  }

  /// The values shell completion offers for an option.
  package enum Completion: Equatable, Sendable {
    /// Nothing to offer but what the user types: a number, a place, an address.
    case typed
    /// These words, each with what it means.
    case words([Word])
    /// A folder.
    case folders
    /// The camera kinds as `--camera` writes them, the cameras present and the scene's
    /// presets; after `file:`, a path.
    case cameras
    /// `max` and the sizes of the camera the command line names.
    case cameraSizes
  }

  /// A value completion offers, with what it means.
  package typealias Word = ShellCompletion.Candidate

  /// The option's declaration.
  package struct Declaration {
    package var names: [String]
    package var value: Value?
    package var help: [String]
    /// What giving the option does: its value parsed and stored in the run's options, or the
    /// problems with it.
    package var set: Setter
    /// What shell completion offers for the value.
    package var completion: Completion = .typed
  }

  /// An option's typed parser and destination: the value given (empty for a flag) into the
  /// field of ``CommandOptions/RunOptions`` it sets; the problems with it, if any.
  package struct Setter {
    package var apply: (inout CommandOptions.RunOptions, String) -> [String]

    /// A value parsed by `parse`, which stores it and returns the problems.
    static func parse(
      _ parse: @escaping (inout CommandOptions.RunOptions, String) -> [String]
    )
      -> Setter
    {
      Setter(apply: parse)
    }

    /// A flag: `set` stores what giving it means.
    static func flag(_ set: @escaping (inout CommandOptions.RunOptions) -> Void) -> Setter {
      Setter { run, _ in
        set(&run)
        return []
      }
    }

    /// A whole number into `field` (its declared range is checked before any setter runs).
    static func integer(_ field: WritableKeyPath<CommandOptions.RunOptions, Int>) -> Setter {
      Setter { run, text in
        if let number = Int(text) { run[keyPath: field] = number }
        return []
      }
    }

    /// A whole number into an optional `field` (a limit that is off unless given).
    static func integer(_ field: WritableKeyPath<CommandOptions.RunOptions, Int?>) -> Setter {
      Setter { run, text in
        if let number = Int(text) { run[keyPath: field] = number }
        return []
      }
    }
  }
}
