import PhotoTimer
import PhotoTimerPOSIX
import PhotoTimerRemote
import PhotoTimerSetup
import PhotoTimerTerminal

/// What the command's loop reacts to, in the order it happened.
enum CommandInput: Sendable {
  /// Adds to `group` a task for each stream the loop hears besides the listeners
  /// (``CommandListeners``): the model's changes, the keys a test sends, the phones' intents.
  static func forward(
    updates: AsyncStream<PhotoTimerViewModel.Update>, keys: AsyncStream<Key>?,
    intents: AsyncStream<RemoteHub.Command>?, into input: AsyncStream<CommandInput>.Continuation,
    in group: inout TaskGroup<Void>
  ) {
    group.addTask {
      for await update in updates { input.yield(.update(update)) }
    }
    if let keys {
      group.addTask {
        for await key in keys { input.yield(.key(key)) }
      }
    }
    if let intents {
      group.addTask {
        for await command in intents { input.yield(.remote(command)) }
      }
    }
  }

  case key(Key)
  case signal(Int32)
  case update(PhotoTimerViewModel.Update)
  /// The screen's camera opened, or could not (why).
  case cameraOpened(problem: String?)
  /// The preview stopped (why); the run goes on without it.
  case previewStopped(String)
  /// A phone asked for something.
  case remote(RemoteHub.Command)
  /// The count that starts itself says what it waits for, or that everyone is ready.
  case ready(ScreenStage.ReadyReport)
  /// The faces followed in the picture now, to outline over the previews.
  case faces([FaceMark])
  /// A booth's shot has been shown for its review's time.
  case reviewEnded(Int)
  /// What the booth or printing reported.
  case reported(FrontEndRunners.Report)

  /// What the screen's stage says, as an input; `nil` for what the command does not hear (a
  /// rebuild: the command builds its camera once).
  init?(_ report: ScreenStage.Report) {
    switch report {
    case .opened: self = .cameraOpened(problem: nil)
    case .cameraFailed(let error): self = .cameraOpened(problem: "\(CommandAdvice.advise(error))")
    case .previewStopped(let error): self = .previewStopped("\(CommandAdvice.advise(error))")
    case .faces(let marks): self = .faces(marks)
    case .building, .buildFailed, .built: return nil
    }
  }
}

/// The inputs from outside the program: the signals that end it and the terminal's keys,
/// watched from before anything starts, so that one arriving at any instant is an input like
/// the others.
struct CommandListeners {
  private let signals: SignalWatcher?
  private let reader: KeyReader?

  /// Watches SIGINT, SIGTERM and SIGHUP, and the terminal's keys when `readsKeys`, into
  /// `input`.
  init(readsKeys: Bool, into input: AsyncStream<CommandInput>.Continuation) {
    let watched = [
      SignalWatcher.Signal.interrupt, SignalWatcher.Signal.terminate, SignalWatcher.Signal.hangUp,
    ]
    signals = try? SignalWatcher(signals: watched) { input.yield(.signal($0)) }
    reader = readsKeys ? try? KeyReader { input.yield(.key($0)) } : nil
  }

  /// Stops listening; the terminal's mode is given back.
  func stop() async {
    await reader?.stop()
    await signals?.stop()
  }
}
