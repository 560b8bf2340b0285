import PhotoTimer
import PhotoTimerCUPS
import PhotoTimerCommandLine

extension PrintRunner {
  /// `doctor`'s lines for printing: each CUPS destination with its state (its troubles in
  /// words) and paper, the one `--print` names first; a warning when there is no print
  /// server, a problem when `--print` names a printer CUPS does not have.
  package nonisolated static func doctorLines(
    _ options: CommandOptions.RunOptions
  ) async -> [DoctorLine] {
    let found: [CUPSDestination]
    do throws(PrintError) {
      found = try await CUPSPrinter.destinations()
    } catch {
      return [DoctorLine(options.printing ? .problem : .warning, "printing", error.description)]
    }
    var lines: [DoctorLine] = []
    if found.isEmpty {
      lines.append(
        DoctorLine(
          options.printing ? .problem : .warning, "printing",
          "CUPS has no printer: add one (lpadmin, or the desktop's printer settings)"))
    }
    if options.printing, let asked = options.print.destination,
      !found.contains(where: { $0.name == asked })
    {
      lines.append(
        DoctorLine(
          .problem, "printing", "no printer named '\(asked)' in CUPS: `lpstat -p` lists them"))
    }
    for destination in found {
      let troubles = destination.status.troubles
      let state =
        troubles.first.map(\.description)
        ?? (destination.status.state == .processing ? "printing" : "ready")
      let mark: DoctorLine.Mark = troubles.contains(where: \.stopsPrinting) ? .warning : .ok
      let name = destination.name + (destination.isDefault ? " (default)" : "")
      let model = destination.model.isEmpty ? "" : ", \(destination.model)"
      lines.append(
        DoctorLine(
          mark, "printer", "\(name)\(model): \(state)",
          details: destination.media.isEmpty
            ? [] : ["                 paper: " + paper(destination.media)]))
    }
    return lines
  }

  /// `4 x 6 in (+ borderless), A4, … and 12 more`: each size once.
  private nonisolated static func paper(_ names: [String]) -> String {
    let suffix = " (Borderless)"
    let sizes = names.filter { !$0.hasSuffix(suffix) }.map {
      names.contains($0 + suffix) ? $0 + " (+ borderless)" : $0
    }
    let more = sizes.count > 8 ? ", and \(sizes.count - 8) more" : ""
    return sizes.prefix(8).joined(separator: ", ") + more
  }
}
