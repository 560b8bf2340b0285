/// The `--help` text of the options, from their declarations, wrapped to a terminal's width.
extension CommandOption {
  /// The options section of `--help`, one declaration after another.
  package static var helpLines: [String] { helpLines(for: ProgramHelp.Program.command.options) }

  /// The options only the window takes.
  package static let windowOnly: [CommandOption] = [.fullscreen, .idle]

  /// The options the window (`phototimer-gtk`) takes, in `--help` order; it refuses the ones
  /// that only make sense in a terminal.
  package static let windowOptions: [CommandOption] = [
    .seconds, .camera, .ffmpegFormat, .output, .location, .noLocation, .gpsd, .gpsMaxError,
    .cameraWait, .filter, .noPeople, .keepOriginal, .burst, .size, .quality, .beep, .noBeep,
    .mirror,
    .noMirror, .remote, .startWhenReady, .shots, .between, .review, .retakes, .layout, .event,
    .noGuestLinks, .fullscreen, .idle, .print, .copies, .autoPrint, .maxPrints, .maxQueue,
    .help, .version,
  ]

  /// The widest `--help` line, in columns: a terminal's default width.
  package static let helpWidth = 80

  /// `text` broken at spaces into lines of at most `width` characters (a word longer than
  /// that stays whole on its own line).
  package static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// The `--help` lines of `options` only, each help line wrapped to fit ``helpWidth``.
  package static func helpLines(for options: [CommandOption]) -> [String] {
    let column = 30
    return options.flatMap { option -> [String] in
      let declaration = option.declaration
      var left = declaration.names.joined(separator: ", ")
      if case .optional(let name, _)? = declaration.value {
        left += "[=\(name)]"
      } else if let value = declaration.value {
        left += " \(value.name)"
      }
      let indent = String(repeating: " ", count: column + 2)
      // NB: each declared line is a line of its own (a list of sources, a list of presets),
      // wrapped when it is wider than the room beside the names.
      let help = declaration.help.flatMap { wrap($0, width: helpWidth - indent.count) }
      var lines: [String]
      if left.count < column {
        lines = ["  " + left.padding(toLength: column, withPad: " ", startingAt: 0) + help[0]]
      } else {
        lines = ["  " + left, indent + help[0]]
      }
      lines += help.dropFirst().map { indent + $0 }
      return lines
    }
  }
}
