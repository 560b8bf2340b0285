import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal on standard input switched to one key at a time without echo, and put back.
///
/// Ctrl-C still interrupts (`ISIG` stays on).
package final class TerminalMode: Sendable {
  // NB: the saved settings are Sendable plain C values; the lock orders restore.
  private let saved: Locked<termios?>

  /// Switches standard input to key-at-a-time without echo when it is a terminal; does
  /// nothing otherwise.
  package init() {
    var settings = termios()
    guard FileDescriptor.standardInput.isTerminal, tcgetattr(STDIN_FILENO, &settings) == 0
    else {
      saved = Locked(nil)
      return
    }
    saved = Locked(settings)
    var raw = settings
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    _ = try? SystemCall.value("tcsetattr") { tcsetattr(STDIN_FILENO, TCSANOW, &raw) }
  }

  /// Puts the settings found at start back. Safe to call more than once.
  package func restore() {
    saved.withLock { saved in
      guard var settings = saved else { return }
      saved = nil
      _ = try? SystemCall.value("tcsetattr") { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
    }
  }

  /// The size of the terminal on standard output in characters, or `nil` when it is not a
  /// terminal.
  package static var size: (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return nil
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }
}

extension FileDescriptor {
  /// Writes all of `text`; a failure (a closed pipe downstream) is dropped, since there is
  /// nowhere left to report it.
  package func write(text: String) {
    _ = try? writeAll(text.utf8)
  }
}
