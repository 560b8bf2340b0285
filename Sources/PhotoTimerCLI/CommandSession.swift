import Foundation
import PhotoTimer
import PhotoTimerPOSIX

/// One invocation: the library's session, shown on a display, driven by keys and signals.
///
/// The runs, restarts and time-lapse belong to ``PhotoTimerSession``; this type only wires
/// the terminal to it and turns its result into an exit status.
final class CommandSession: Sendable {
  private struct State {
    var task: Task<PhotoTimerResult, Never>?
    var signal: Int32?
    var stopped = false
  }

  let options: CommandOptions.RunOptions
  let services: PhotoTimerServices
  private let state = Locked(State())

  init(options: CommandOptions.RunOptions, services: PhotoTimerServices) {
    self.options = options
    self.services = services
  }

  /// Runs until a photo is taken, the run fails, or it is cancelled; returns the exit status.
  func run() async -> ExitCode {
    let mode: CommandOptions.OutputMode =
      options.json ? .json : (Terminal.isInteractive ? .live : .plain)
    let display = makeDisplay(mode)
    let session = PhotoTimerSession(
      configuration: PhotoTimerConfiguration(
        countdownSeconds: options.seconds,
        preparation: options.sequential ? .sequential : .concurrent),
      services: services, clock: ContinuousClock(),
      timeLapse: options.interval.map { TimeLapse(interval: $0, count: options.count) })
    // NB: signals and keys are handled before the session starts, so one that arrives at any
    // instant cancels it; one that comes before the task exists is remembered.
    let watched = [
      SignalWatcher.Signal.interrupt, SignalWatcher.Signal.terminate, SignalWatcher.Signal.hangUp,
    ]
    let signals = try? SignalWatcher(signals: watched) { [self] number in
      cancel(signal: number)
    }
    let keys =
      mode == .live
      ? try? KeyReader { [self] key in
        switch key {
        case .cancel: cancel(signal: nil)
        case .takeNow: session.takeNow()
        case .restart: session.restart()
        }
      } : nil
    if options.sequential {
      display.note("--sequential: one preparation after another, then the count")
    }
    let timeline = Locked(Timeline(sequential: options.sequential))
    let task = Task {
      await session.run { event in
        switch event {
        case .run(let event, let runStart):
          timeline.withLock { $0.record(event, runStart: runStart) }
          display.show(event, base: runStart)
        case .restarted(let count):
          display.note("restarted (\(count))")
        case .timeLapseShot(let number, let total):
          timeline.withLock { $0.freeze() }
          display.note("time-lapse: shot \(number) of \(total)")
        case .timeLapseSkipped(let shots):
          let names =
            shots.count == 1
            ? "shot \(shots.lowerBound)" : "shots \(shots.lowerBound)–\(shots.upperBound)"
          display.note("time-lapse: \(names) skipped: the shot before ran past their time")
        }
      }
    }
    let cancelledAlready = state.withLock { state -> Bool in
      state.task = task
      return state.stopped
    }
    if cancelledAlready { task.cancel() }
    let result = await task.value
    await display.finish(result, timeline: timeline.withLock { $0 })
    if case .failed(let failure) = result {
      StandardStream.error.write("error: \(failure.message)\n")
    }
    await keys?.stop()
    await signals?.stop()
    await display.close()
    return ExitCode(result, signal: state.withLock { $0.signal })
  }

  private func makeDisplay(_ mode: CommandOptions.OutputMode) -> any RunDisplay {
    let services = services
    switch mode {
    case .json: return JSONDisplay()
    case .plain: return PlainDisplay()
    case .live:
      return LiveDisplay(
        title: title, color: options.color, beep: options.beep ?? true, terminal: Terminal(),
        status: { step in
          switch step {
          case .camera: nil
          case .location: services.location.status()
          case .filter: services.filter.status()
          }
        })
    }
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

  /// Cancels the session; `signal` is the signal that asked for it, if any.
  private func cancel(signal: Int32?) {
    state.withLock { state -> Task<PhotoTimerResult, Never>? in
      if let signal, state.signal == nil { state.signal = signal }
      state.stopped = true
      return state.task
    }?.cancel()
  }
}
