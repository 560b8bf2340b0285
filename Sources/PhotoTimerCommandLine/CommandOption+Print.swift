import PhotoTimer

/// The printing options, declared beside the others' rules.
extension CommandOption {
  /// The options that print.
  package static let printOptions: [CommandOption] = [
    .print, .copies, .autoPrint, .maxPrints, .maxQueue,
  ]

  /// The names, the value and the help of a printing option.
  var printDeclaration: Declaration {
    switch self {
    case .print:
      Declaration(
        names: ["--print"], value: .optional(name: "PRINTER", example: "selphy"),
        help: [
          "print through CUPS: p (the window's Print) prints the last photo or collage on "
            + "the layout's paper; =PRINTER names the printer (default: CUPS's default); the "
            + "printer's state is shown, and u (Resume) lets a stopped one go on"
        ],
        set: .parse { run, text in
          run.print.destination = text.isEmpty ? nil : text
          run.printing = true
          return []
        })
    case .copies:
      Declaration(
        names: ["--copies"],
        value: .integer(name: "N", range: 1...10, unit: "copies", example: "2"),
        help: ["print: copies of each print, 1…10 (default \(defaults.print.copies))"],
        set: .integer(\.print.copies))
    case .autoPrint:
      Declaration(
        names: ["--auto-print"], value: nil,
        help: ["print: each photo (a booth: each collage) as soon as it is saved"],
        set: .flag { $0.print.autoPrint = true })
    case .maxPrints:
      Declaration(
        names: ["--max-prints"],
        value: .integer(name: "N", range: 1...99, unit: "prints", example: "2"),
        help: ["print: the most prints of one photo, 1…99 (default: no limit)"],
        set: .integer(\.print.maxPrints))
    case .maxQueue:
      Declaration(
        names: ["--max-queue"],
        value: .integer(name: "N", range: 1...20, unit: "prints", example: "2"),
        help: [
          "print: the most prints waiting or printing at once, 1…20 (default "
            + "\(defaults.print.maxQueue))"
        ],
        set: .integer(\.print.maxQueue))
    default:
      preconditionFailure("\(self) is not a printing option")
    }
  }

  /// Each printing option but `--print` needs it.
  static let printRequirements: [Requirement] = [copies, autoPrint, maxPrints, maxQueue].map {
    Requirement(
      option: $0, needs: .print,
      message: "\($0.name) applies to printing: add --print (CUPS's default printer) or "
        + "--print=PRINTER")
  }
}
