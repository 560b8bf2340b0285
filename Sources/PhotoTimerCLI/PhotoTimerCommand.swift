import Foundation
import PhotoTimer
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGPhoto2
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `phototimer`: the self-timer with a live terminal view, plain lines or JSON Lines.
@main
struct PhotoTimerCommand {
  static func main() async {
    // NB: a closed pipe downstream (phototimer --json | head -1) is an error to handle, not a
    // reason to die without restoring the terminal.
    signal(SIGPIPE, SIG_IGN)
    let environment = ProcessInfo.processInfo.environment
    let options: CommandOptions
    do {
      options = try CommandOptions(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
    } catch {
      writeError(error.problems.map { "error: \($0)\n" }.joined() + CommandOptions.usageLine + "\n")
      exit(ExitCode.usage.rawValue)
    }
    switch options.action {
    case .help:
      StandardStream.output.write(CommandOptions.help + "\n")
      exit(ExitCode.success.rawValue)
    case .version:
      StandardStream.output.write("phototimer \(PhotoTimerVersion.current)\n")
      exit(ExitCode.success.rawValue)
    case .doctor(let run):
      exit(await Doctor(options: run).report())
    case .run(var run):
      if run.camera == .auto { run.camera = await resolveAuto() }
      let services: PhotoTimerServices
      do {
        services = try makeServices(run)
      } catch {
        writeError("error: \(error)\n")
        exit(ExitCode.failure.rawValue)
      }
      exit(await Session(options: run, services: services).run().rawValue)
    }
  }

  /// `auto`: the first V4L2 device through ffmpeg, else a camera gphoto2 detects, else the
  /// scene camera.
  ///
  /// NB: gphoto2 is asked only when a USB still-image (PTP) interface is present: starting it
  /// costs about 100 ms, which would delay the first frame of every run without a DSLR.
  static func resolveAuto() async -> CommandOptions.CameraChoice {
    let video = CommandOptions.autoCamera()
    if video != .scene(.daylight) { return video }
    guard stillImageInterfacePresent() else { return .scene(.daylight) }
    let gphoto2 = GPhoto2Camera(store: nil, clock: ContinuousClock())
    if let cameras = try? await gphoto2.detect(), !cameras.isEmpty { return .gphoto2 }
    return .scene(.daylight)
  }

  /// Whether a USB interface of class 6 (still image: PTP cameras) is connected.
  static func stillImageInterfacePresent(root: String = "/sys/bus/usb/devices") -> Bool {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return entries.contains { entry in
      let text = try? String(contentsOfFile: "\(root)/\(entry)/bInterfaceClass", encoding: .utf8)
      return text?.trimmingCharacters(in: .whitespacesAndNewlines) == "06"
    }
  }

  /// The services the options ask for; checks the output folder before any counting.
  static func makeServices(_ options: CommandOptions.RunOptions) throws -> PhotoTimerServices {
    let clock = ContinuousClock()
    var services: PhotoTimerServices = .simulated()
    switch options.camera {
    case .simulated: break
    case .scene(let preset):
      let source = SceneCamera(
        preset: preset, width: options.width, height: options.height, clock: clock)
      services = try pipeline(source, options).services(location: services.location)
    case .file(let path):
      let source = ImageFileCamera(path: path, clock: clock)
      services = try pipeline(source, options).services(location: services.location)
    case .ffmpeg(let input, let format):
      let source = FFmpegCamera(input: input, format: format, clock: clock)
      services = try pipeline(source, options).services(location: services.location)
    case .gphoto2:
      let store = store(options)
      try store.checkFolder()
      services = GPhoto2Camera(store: store, clock: clock).services(location: services.location)
    case .auto:
      let source = SceneCamera(
        preset: .daylight, width: options.width, height: options.height, clock: clock)
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

  /// The photo store the options ask for.
  static func store(_ options: CommandOptions.RunOptions) -> PhotoStore {
    if let output = options.output {
      return PhotoStore(
        folder: URL(fileURLWithPath: (output as NSString).expandingTildeInPath),
        quality: options.quality)
    }
    return PhotoStore(
      folder: PhotoStore.defaultFolder(), quality: options.quality, createsFolder: true)
  }

  private static func pipeline(
    _ source: any CameraSource, _ options: CommandOptions.RunOptions
  )
    throws -> CameraPipeline<ContinuousClock>
  {
    let store = store(options)
    try store.checkFolder()
    return CameraPipeline(
      source: source, sink: store, clock: ContinuousClock(), filter: options.filter,
      keepOriginal: options.keepOriginal, burst: options.burst)
  }

  static func writeError(_ text: String) {
    StandardStream.error.write(text)
  }
}

/// One invocation: the runs (more than one after a restart), the display, keys and signals.
final class Session: Sendable {
  private struct State {
    var cancelCurrent: (@Sendable () -> Void)?
    var button: AsyncStream<Void>.Continuation?
    var restart = false
    var signal: Int32?
    var stopped = false
  }

  let options: CommandOptions.RunOptions
  let services: PhotoTimerServices
  private let state = Locked(State())
  private let clock = ContinuousClock()

  init(options: CommandOptions.RunOptions, services: PhotoTimerServices) {
    self.options = options
    self.services = services
  }

  /// Runs until a photo is taken, the run fails, or it is cancelled; returns the exit status.
  func run() async -> ExitCode {
    let mode: CommandOptions.OutputMode =
      options.json ? .json : (Terminal.isInteractive ? .live : .plain)
    let services = services
    let display: any RunDisplay =
      switch mode {
      case .json: JSONDisplay()
      case .plain: PlainDisplay()
      case .live:
        LiveDisplay(
          title: title, color: options.color, beep: options.beep ?? true,
          terminal: Terminal(),
          status: { step in
            switch step {
            case .camera: nil
            case .location: services.location.status()
            case .filter: services.filter.status()
            }
          })
      }
    // NB: signals and keys are handled before the first run starts, so one that arrives at any
    // instant cancels it; one that comes before the task exists is remembered.
    let signals = try? SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP]) { [self] number in
      cancel(signal: number)
    }
    let keys =
      mode == .live
      ? try? KeyReader { [self] key in
        switch key {
        case .cancel: cancel(signal: nil)
        case .takeNow: state.withLock { _ = $0.button?.yield() }
        case .restart:
          let cancel = state.withLock { state -> (@Sendable () -> Void)? in
            state.restart = true
            return state.cancelCurrent
          }
          cancel?()
        }
      } : nil
    let code = await runs(display: display)
    await keys?.stop()
    await signals?.stop()
    await display.close()
    return code
  }

  private func runs(display: any RunDisplay) async -> ExitCode {
    var result = PhotoTimerResult.cancelled
    var base = Duration.zero
    var timeline = Timeline()
    let sessionStart = clock.now
    var restarts = 0
    var lastRunStart = clock.now
    while true {
      base = sessionStart.duration(to: clock.now)
      lastRunStart = clock.now
      timeline = Timeline()
      let (outcome, line) = await once(display: display, base: base, timeline: timeline)
      result = outcome
      timeline = line
      let again = state.withLock { state -> Bool in
        defer { state.restart = false }
        return state.restart && state.signal == nil && !state.stopped
      }
      guard again, result == .cancelled else { break }
      restarts += 1
      display.note("restarted (\(restarts))")
    }
    // Time-lapse: the further shots on a drift-free schedule: shot k fires at the first
    // shot's shutter + k × interval. Each run starts early by its preparation time (the last
    // one's camera time and a margin) and counts one tick of that length, so its shutter
    // lands on the deadline itself.
    if let interval = options.interval, options.count > 1, case .captured(let photo) = result {
      let firstShutter = lastRunStart.advanced(by: photo.shutterOffset)
      var preparation = photo.report(for: .camera)?.elapsed ?? .seconds(1)
      for shot in 1..<options.count {
        let lead = min(max(preparation + .milliseconds(500), .seconds(1)), interval)
        let deadline = firstShutter.advanced(by: interval * shot)
        guard await sleep(until: deadline.advanced(by: .zero - lead)) else {
          result = .cancelled
          break
        }
        display.note("time-lapse: shot \(shot + 1) of \(options.count)")
        lastRunStart = clock.now
        let (outcome, _) = await once(
          display: display, base: sessionStart.duration(to: clock.now), timeline: Timeline(),
          seconds: 1, tick: lead)
        result = outcome
        guard case .captured(let next) = outcome else { break }
        preparation = next.report(for: .camera)?.elapsed ?? preparation
      }
    }
    await display.finish(result, timeline: timeline)
    if case .failed(let failure) = result {
      PhotoTimerCommand.writeError("error: \(failure.message)\n")
    }
    return ExitCode(result, signal: state.withLock { $0.signal })
  }

  /// One run: sequential preparations first when asked, then the engine.
  private func once(
    display: any RunDisplay, base: Duration, timeline: Timeline, seconds: Int? = nil,
    tick: Duration = .seconds(1)
  ) async
    -> (PhotoTimerResult, Timeline)
  {
    let timelineBox = Locked(timeline)
    var services = services
    var countBase = base
    if options.sequential {
      switch await prepareSequentially(display: display, base: base, timeline: timelineBox) {
      case .ready(let ready, let end):
        services = ready
        countBase = end
      case .ended(let result):
        return (result, timelineBox.withLock { $0 })
      }
    }
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: seconds ?? options.seconds, tickInterval: tick),
      services: services, clock: clock)
    let (presses, button) = AsyncStream.makeStream(of: Void.self)
    let countStart = countBase
    let sequential = options.sequential
    let task = Task {
      await engine.run(shootNow: presses) { event in
        // NB: after --sequential the steps were shown as they ran; the count only repeats them.
        if sequential, case .stepFinished = event.kind { return }
        timelineBox.withLock { $0.record(event, base: countStart, countStart: countStart) }
        display.show(event, base: countStart)
      }
    }
    let cancelledAlready = state.withLock { state -> Bool in
      state.cancelCurrent = { task.cancel() }
      state.button = button
      return state.signal != nil || state.stopped || state.restart
    }
    if cancelledAlready { task.cancel() }
    let result = await task.value
    button.finish()
    state.withLock {
      $0.cancelCurrent = nil
      $0.button = nil
    }
    return (result, timelineBox.withLock { $0 })
  }

  private enum Sequential {
    case ready(PhotoTimerServices, end: Duration)
    case ended(PhotoTimerResult)
  }

  /// Sleeps until `deadline`, or until the session is cancelled; false when cancelled.
  private func sleep(until deadline: ContinuousClock.Instant) async -> Bool {
    let task = Task { try await clock.sleep(until: deadline, tolerance: nil) }
    let cancelled = state.withLock { state -> Bool in
      state.cancelCurrent = { task.cancel() }
      return state.signal != nil || state.stopped
    }
    if cancelled { task.cancel() }
    let finished = (try? await task.value) != nil
    state.withLock { $0.cancelCurrent = nil }
    return finished && state.withLock { $0.signal == nil && !$0.stopped }
  }

  /// `--sequential`: each preparation in turn, timed, then a count with the values ready.
  private func prepareSequentially(
    display: any RunDisplay, base: Duration, timeline: Locked<Timeline>
  ) async -> Sequential {
    let start = clock.now
    let services = services
    let clock = clock
    let task = Task { () -> Sequential in
      var ready = services
      func finished(_ step: PreparationStep, _ began: Duration, _ outcome: StepOutcome) {
        let end = start.duration(to: clock.now)
        let report = StepReport(step: step, outcome: outcome, elapsed: end)
        let event = PhotoTimerEvent(offset: end, kind: .stepFinished(report))
        timeline.withLock {
          $0.stepStarts[step] = base + began
          $0.record(event, base: base, countStart: base)
        }
        display.show(event, base: base)
      }
      display.note("--sequential: one preparation after another, then the count")
      var began = start.duration(to: clock.now)
      do {
        let settings = try await services.camera.prepare()
        finished(.camera, began, .succeeded(.camera(settings)))
        ready.camera.prepare = { settings }
      } catch {
        if Task.isCancelled { return .ended(.cancelled) }
        finished(.camera, began, .failed(reason: "\(error)"))
        return .ended(
          .failed(
            PhotoTimerFailure(cause: .stepFailed(.camera), message: "camera failed: \(error)")))
      }
      began = start.duration(to: clock.now)
      if let reason = services.location.disabledReason {
        finished(.location, began, .skipped(reason: reason))
      } else {
        do {
          let tag = try await services.location.perform()
          finished(.location, began, .succeeded(.location(tag)))
          ready.location = Preparation(isRequired: false) { tag }
        } catch {
          if Task.isCancelled { return .ended(.cancelled) }
          finished(.location, began, .failed(reason: "\(error)"))
          ready.location = .disabled(reason: "\(error)")
        }
      }
      began = start.duration(to: clock.now)
      if let reason = services.filter.disabledReason {
        finished(.filter, began, .skipped(reason: reason))
      } else {
        do {
          let suggestion = try await services.filter.perform()
          finished(.filter, began, .succeeded(.filter(suggestion)))
          ready.filter = Preparation(isRequired: false) { suggestion }
        } catch {
          if Task.isCancelled { return .ended(.cancelled) }
          finished(.filter, began, .failed(reason: "\(error)"))
        }
      }
      return .ready(ready, end: base + start.duration(to: clock.now))
    }
    let cancelledAlready = state.withLock { state -> Bool in
      state.cancelCurrent = { task.cancel() }
      return state.signal != nil || state.stopped || state.restart
    }
    if cancelledAlready { task.cancel() }
    let outcome = await task.value
    state.withLock { $0.cancelCurrent = nil }
    if case .ended = outcome { await services.camera.release() }
    return outcome
  }

  private var title: String {
    switch options.camera {
    case .simulated: "simulation"
    case .scene(let preset): "scene camera (\(preset.name))"
    case .file(let path): "image file \((path as NSString).lastPathComponent)"
    case .ffmpeg(let input, _): "ffmpeg \(input)"
    case .gphoto2: "gphoto2"
    case .auto: "scene camera (daylight)"
    }
  }

  /// Cancels the run; `signal` is the signal that asked for it, if any.
  private func cancel(signal: Int32?) {
    state.withLock { state -> (@Sendable () -> Void)? in
      if let signal, state.signal == nil { state.signal = signal }
      state.stopped = true
      return state.cancelCurrent
    }?()
  }
}
