import Dispatch
import PhotoTimer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `phototimer`: runs the self-timer and prints each change of state, one line each.
@main
struct PhotoTimerCommand {
  static func main() async {
    let options: CommandOptions
    do {
      options = try CommandOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      writeError("error: \(error)\n\(CommandOptions.usageLine)\n")
      exit(ExitCode.usage.rawValue)
    }
    switch options.action {
    case .help:
      print(CommandOptions.help)
      exit(ExitCode.success.rawValue)
    case .version:
      print("phototimer \(PhotoTimerVersion.current)")
      exit(ExitCode.success.rawValue)
    case .run(let seconds):
      let result = await runSimulation(seconds: seconds)
      exit(ExitCode(result).rawValue)
    }
  }

  /// Runs the built-in simulation, printing each status change; SIGINT and SIGTERM cancel.
  static func runSimulation(seconds: Int) async -> PhotoTimerResult {
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: seconds),
      services: .simulated(), clock: ContinuousClock())
    let printer = StatusPrinter()
    let run = Task { await engine.run { printer.show($0) } }
    let signals = SignalCancellation(signals: [SIGINT, SIGTERM]) { run.cancel() }
    defer { signals.stop() }
    return await run.value
  }

  static func writeError(_ text: String) {
    StandardStream.error.write(text)
  }
}
