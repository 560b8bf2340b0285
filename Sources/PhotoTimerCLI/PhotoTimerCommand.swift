import Dispatch
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerLocation

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
    case .run(let run):
      let result = await runSimulation(run)
      exit(ExitCode(result).rawValue)
    }
  }

  /// Runs the built-in simulation, printing each status change; SIGINT and SIGTERM cancel.
  static func runSimulation(_ options: CommandOptions.RunOptions) async -> PhotoTimerResult {
    var services = PhotoTimerServices.simulated()
    switch options.location {
    case .simulated: break
    case .gpsd(let endpoint):
      services.location = GPSDLocationSource(endpoint: endpoint, clock: ContinuousClock())
        .preparation()
    case .manual(let location): services.location = location.preparation()
    case .off: services.location = .disabled(reason: "location off (--no-location)")
    }
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: options.seconds),
      services: services, clock: ContinuousClock())
    let printer = StatusPrinter()
    // NB: signals are handled before the run starts, so a Ctrl-C at any instant cancels it;
    // one that arrives before the task exists is remembered and applied at once.
    let pending = Locked<(cancelled: Bool, run: Task<PhotoTimerResult, Never>?)>((false, nil))
    let signals = SignalCancellation(signals: [SIGINT, SIGTERM]) {
      pending.withLock { state in
        state.cancelled = true
        state.run?.cancel()
      }
    }
    defer { signals.stop() }
    let run = Task { await engine.run { printer.show($0) } }
    pending.withLock { state in
      state.run = run
      if state.cancelled { run.cancel() }
    }
    return await run.value
  }

  static func writeError(_ text: String) {
    StandardStream.error.write(text)
  }
}
