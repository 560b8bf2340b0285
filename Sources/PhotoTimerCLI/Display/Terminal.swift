import Foundation
import PhotoTimer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The controlling terminal on standard input and output: keys without Enter and without
/// echo, the cursor hidden, and everything put back on every way out.
final class Terminal: Sendable {
  /// The settings found at start, put back by ``restore()``.
  private let saved: Locked<termios?>
  private let restored = Locked(false)

  /// Whether standard output is a terminal.
  static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

  /// Switches standard input to key-at-a-time without echo (Ctrl-C still interrupts) and
  /// hides the cursor.
  init() {
    var settings = termios()
    if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 {
      saved = Locked(settings)
      var raw = settings
      raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
      withUnsafeMutableBytes(of: &raw.c_cc) { cc in
        cc[Int(VMIN)] = 1
        cc[Int(VTIME)] = 0
      }
      tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    } else {
      saved = Locked(nil)
    }
    StandardStream.output.write("\u{1B}[?25l")
  }

  /// The terminal's width and height in characters (80 × 24 when unknown).
  static var size: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return (80, 24)
    }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  /// Shows the cursor and puts the terminal's settings back. Safe to call more than once.
  func restore() {
    let first = restored.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    StandardStream.output.write("\u{1B}[0m\u{1B}[?25h")
    if var settings = saved.withLock({ $0 }) {
      tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
  }
}

/// Keys pressed in the live view.
enum Key: Equatable {
  case cancel
  case takeNow
  case restart
}

/// Reads keys from standard input on a thread of its own, until stopped.
final class KeyReader: Sendable {
  private let wake: (read: Int32, write: Int32)

  /// Starts reading; `onKey` is called on the reading thread.
  init(onKey: @escaping @Sendable (Key) -> Void) {
    var fds: [Int32] = [-1, -1]
    if pipe(&fds) != 0 { fds = [-1, -1] }
    // NB: close-on-exec, so a camera's child process (ffmpeg, gphoto2) never inherits it.
    for fd in fds where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    wake = (fds[0], fds[1])
    let wakeRead = fds[0]
    Thread {
      var descriptors = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      var buffer = [UInt8](repeating: 0, count: 64)
      loop: while true {
        let ready = poll(&descriptors, 2, -1)
        if ready < 0 {
          if errno == EINTR { continue }
          break
        }
        if descriptors[1].revents != 0 { break }
        guard descriptors[0].revents & Int16(POLLIN) != 0 else {
          if descriptors[0].revents != 0 { break }  // hung up or closed
          continue
        }
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count <= 0 { break }
        let bytes = Array(buffer[0..<count])
        // An escape sequence (arrow keys: ESC [ A) is not the Esc key.
        if bytes.count > 1, bytes[0] == 0x1B { continue }
        for byte in bytes {
          switch byte {
          case UInt8(ascii: "c"), UInt8(ascii: "q"), UInt8(ascii: "C"), UInt8(ascii: "Q"), 0x1B:
            onKey(.cancel)
            break loop
          case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            onKey(.takeNow)
          case UInt8(ascii: "r"), UInt8(ascii: "R"):
            onKey(.restart)
          default:
            break
          }
        }
      }
      close(wakeRead)
    }.start()
  }

  /// Stops the reading thread.
  func stop() {
    var byte: UInt8 = 0
    _ = write(wake.write, &byte, 1)
    close(wake.write)
  }
}
