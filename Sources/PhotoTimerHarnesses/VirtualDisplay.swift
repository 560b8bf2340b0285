import Foundation
import PhotoTimerPOSIX

/// A headless X server (Xvfb) of its own, for the window's tests and benchmark: it picks a free
/// display itself (`-displayfd`), so several can run side by side, and listens on no socket
/// but its local one.
package final class VirtualDisplay: Sendable {
  /// The display's name, for `DISPLAY`: `:99`.
  package let name: String
  /// The screen's size in pixels.
  package let width: Int
  /// The screen's height in pixels.
  package let height: Int
  private let process: ChildProcess

  /// Starts Xvfb with one screen of `width` × `height` at 24 bits, and returns once it
  /// accepts clients (it writes the display's number then: the wait is for that line).
  ///
  /// - Throws: ``SystemCallError`` when Xvfb cannot be started (`ENOENT`: not installed),
  ///   ``VirtualDisplayError`` when it ends without naming a display.
  package init(width: Int = 1280, height: Int = 800) async throws {
    let process = try ChildProcess(command: [
      "Xvfb", "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp",
      "-noreset",
    ])
    let number = await Task.detached {
      var text = ""
      while !text.contains("\n"), let bytes = try? process.output.read(upTo: 16), !bytes.isEmpty {
        text += String(decoding: bytes, as: UTF8.self)
      }
      return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }.value
    guard Int(number) != nil else {
      _ = try? await process.stop()
      process.closePipes()
      throw VirtualDisplayError(said: number)
    }
    self.process = process
    self.name = ":\(number)"
    self.width = width
    self.height = height
  }

  /// Stops the server and waits until it has been reaped.
  package func stop() async {
    _ = try? await process.stop()
    process.closePipes()
  }
}

/// Xvfb ended without naming its display.
package struct VirtualDisplayError: Error, CustomStringConvertible {
  /// What it wrote instead.
  package var said: String

  /// `Xvfb did not start (said '…')`.
  package var description: String { "Xvfb did not start (said '\(said)')" }
}
