import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// The controlling terminal on standard input and output: keys without Enter and without
/// echo, the cursor hidden, and everything put back on every way out.
final class Terminal: Sendable {
  private let mode: TerminalMode
  private let restored = Locked(false)
  private let alternate = Locked(false)

  /// Whether standard output is a terminal.
  static var isInteractive: Bool { FileDescriptor.standardOutput.isTerminal }

  /// Switches standard input to key-at-a-time without echo (Ctrl-C still interrupts) and
  /// hides the cursor.
  init() {
    mode = TerminalMode()
    StandardStream.output.write("\u{1B}[?25l")
  }

  /// The terminal's width and height in characters (80 × 24 when unknown).
  static var size: (columns: Int, rows: Int) { TerminalMode.size ?? (80, 24) }

  /// Shows the cursor and puts the terminal's settings back. Safe to call more than once.
  func restore() {
    let first = restored.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    leaveAlternateScreen()
    StandardStream.output.write("\u{1B}[0m\u{1B}[?25h")
    mode.restore()
  }

  /// Switches to the alternate screen (a full-screen view that leaves the scrollback as it
  /// was), cleared.
  func enterAlternateScreen() {
    alternate.withLock { $0 = true }
    StandardStream.output.write("\u{1B}[?1049h\u{1B}[2J")
  }

  /// Back to the normal screen, if the alternate one is shown. Safe to call more than once.
  func leaveAlternateScreen() {
    let shown = alternate.withLock { shown -> Bool in
      defer { shown = false }
      return shown
    }
    if shown { StandardStream.output.write("\u{1B}[0m\u{1B}[?1049l") }
  }
}

/// Keys pressed in the live view.
enum Key: Equatable {
  /// c: cancel the count.
  case cancel
  /// q or Esc: cancel the count, or quit while framing.
  case quit
  /// Space or Enter: take it now, or start while framing.
  case go
  /// r: count again from the top.
  case restart
  /// w: the count that starts by itself once the group is in, on or off.
  case autoStart
  /// p: print the last photo or collage (`--print`).
  case print
  /// u: let a stopped printer go on (`--print`).
  case resume

  /// The actions the key asks for, the first one allowed now: space takes it now while
  /// counting, else starts; c cancels a count, and without framing ends the command.
  func actions(framing: Bool) -> [PhotoTimerPresentation.Action] {
    switch self {
    case .go: [.keep, .takeNow, .start]
    case .restart: [.retake, .restart]
    case .quit: [.cancel, .quit]
    case .cancel: framing ? [.cancel] : [.cancel, .quit]
    case .autoStart: [.autoStart]
    case .print: [.print]
    case .resume: [.resume]
    }
  }

  /// What the key asks for in `presentation`: the first of its actions allowed now, else its
  /// last (space: start), which the front-end machine refuses, and the screen says why.
  func action(
    in presentation: PhotoTimerPresentation, framing: Bool
  ) -> PhotoTimerPresentation.Action {
    let candidates = actions(framing: framing)
    return presentation.first(of: candidates) ?? candidates[candidates.count - 1]
  }

  /// The keys in what a terminal sent at once; an escape sequence (an arrow: ESC [ A) is
  /// not the Esc key.
  static func keys(in bytes: [UInt8]) -> [Key] {
    if bytes.count > 1, bytes[0] == 0x1B { return [] }
    return bytes.compactMap { byte in
      switch byte {
      case UInt8(ascii: "c"), UInt8(ascii: "C"): .cancel
      case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1B: .quit
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"): .go
      case UInt8(ascii: "r"), UInt8(ascii: "R"): .restart
      case UInt8(ascii: "w"), UInt8(ascii: "W"): .autoStart
      case UInt8(ascii: "p"), UInt8(ascii: "P"): .print
      case UInt8(ascii: "u"), UInt8(ascii: "U"): .resume
      default: nil
      }
    }
  }
}

/// Reads keys from standard input on a thread of its own, until stopped.
final class KeyReader: Sendable {
  private let wake: WakePipe
  private let reader: ReaderThread

  /// Starts reading; `onKey` is called on the reading thread.
  ///
  /// - Throws: `SystemCallError` when the wake pipe cannot be made.
  init(onKey: @escaping @Sendable (Key) -> Void) throws {
    let wake = try WakePipe()
    self.wake = wake
    let input = FileDescriptor.standardInput
    reader = ReaderThread(name: "phototimer.keys") {
      while true {
        guard let ready = try? Poll.wait([(input, .readable), (wake.descriptor, .readable)]),
          ready[1].isEmpty
        else { return }
        // Hung up or closed: no more keys.
        guard ready[0].contains(.readable), let bytes = try? input.read(upTo: 64), !bytes.isEmpty
        else { return }
        for key in Key.keys(in: bytes) { onKey(key) }
      }
    }
  }

  /// Stops the reading thread and waits for it.
  func stop() async {
    wake.signal()
    await reader.join()
    wake.close()
  }
}
