import Dispatch
import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerImaging
import PhotoTimerJPEG
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
      let services: PhotoTimerServices
      do {
        services = try makeServices(run)
      } catch {
        writeError("error: \(error)\n")
        exit(ExitCode.failure.rawValue)
      }
      let result = await runTimer(run, services: services)
      exit(ExitCode(result).rawValue)
    }
  }

  /// Runs the built-in simulation, printing each status change; SIGINT and SIGTERM cancel.
  /// The services the options ask for; checks the output folder before any counting.
  static func makeServices(_ options: CommandOptions.RunOptions) throws -> PhotoTimerServices {
    let clock = ContinuousClock()
    var services: PhotoTimerServices = .simulated()
    switch options.camera {
    case .simulated: break
    case .scene(let preset):
      let source = SceneCamera(
        preset: preset, width: options.size.width, height: options.size.height, clock: clock)
      services = try pipeline(source, options).services(location: services.location)
    case .file(let path):
      let source = ImageFileCamera(path: path, clock: clock)
      services = try pipeline(source, options).services(location: services.location)
    }
    switch options.location {
    case .simulated: break
    case .gpsd(let endpoint):
      services.location = GPSDLocationSource(endpoint: endpoint, clock: clock).preparation()
    case .manual(let location): services.location = location.preparation()
    case .off: services.location = .disabled(reason: "location off (--no-location)")
    }
    return services
  }

  private static func pipeline(
    _ source: any CameraSource, _ options: CommandOptions.RunOptions
  )
    throws -> CameraPipeline<ContinuousClock>
  {
    let store =
      if let output = options.output {
        PhotoStore(
          folder: URL(fileURLWithPath: (output as NSString).expandingTildeInPath),
          quality: options.quality)
      } else {
        PhotoStore(
          folder: PhotoStore.defaultFolder(), quality: options.quality, createsFolder: true)
      }
    try store.checkFolder()
    return CameraPipeline(
      source: source, sink: store, clock: ContinuousClock(), filter: options.filter,
      keepOriginal: options.keepOriginal)
  }

  static func runTimer(
    _ options: CommandOptions.RunOptions, services: PhotoTimerServices
  ) async
    -> PhotoTimerResult
  {
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
