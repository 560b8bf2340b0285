#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal: the controlling side (``controller``) a program reads and types into,
/// and the terminal side (``terminal``) handed to a child as its standard streams.
///
/// ```swift
/// let pty = try PseudoTerminal(columns: 100, rows: 30)
/// let child = try ChildProcess(command: ["phototimer"], streams: .terminal(pty.terminal))
/// ```
///
/// Both ends close on exec (a child gets the terminal side only as its standard streams).
package final class PseudoTerminal: Sendable {
  /// The side the program drives: what the child writes is read here, what is written here
  /// is the child's keyboard.
  package let controller: FileDescriptor
  /// The terminal the child sees.
  package let terminal: FileDescriptor

  /// Opens a new pseudo-terminal of the given size.
  ///
  /// - Throws: ``SystemCallError`` from `open` or `ioctl`.
  package init(columns: Int, rows: Int) throws(SystemCallError) {
    // NB: /dev/ptmx by hand: Glibc's module leaves out posix_openpt and friends.
    let controller = try FileDescriptor.open("/dev/ptmx", flags: O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    do {
      // TIOCSPTLCK (unlock), then TIOCGPTN (the terminal side's number).
      try SystemCall.value("ioctl") { ioctl(controller.rawValue, UInt(0x4004_5431), &unlock) }
      try SystemCall.value("ioctl") { ioctl(controller.rawValue, UInt(0x8004_5430), &number) }
      terminal = try FileDescriptor.open("/dev/pts/\(number)", flags: O_RDWR | O_NOCTTY)
    } catch {
      controller.closeQuietly()
      throw error
    }
    self.controller = controller
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = try? SystemCall.value("ioctl") { ioctl(terminal.rawValue, UInt(TIOCSWINSZ), &size) }
  }

  /// The terminal's settings (`termios`) as bytes, to compare before and after a program ran.
  package func settings() -> [UInt8] {
    var value = termios()
    _ = try? SystemCall.value("tcgetattr") { tcgetattr(terminal.rawValue, &value) }
    return withUnsafeBytes(of: &value) { Array($0) }
  }

  /// Closes both sides.
  package func close() {
    terminal.closeQuietly()
    controller.closeQuietly()
  }
}
