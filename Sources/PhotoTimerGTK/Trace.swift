import Foundation
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// Timing lines for the benchmark (`PHOTOTIMER_GTK_TRACE=FILE`): what the window did when,
/// written on a queue of its own so the window never waits for the file.
///
/// Each line is a name and a number: `frame 1234` (µs from the frame's arrival to its
/// texture handed to GTK), `tick 210` (µs from a tick's deadline to its label set),
/// `first-frame 123456789` (CLOCK_MONOTONIC in ns when the first texture was handed over),
/// `status counting: 3` (each new status shown), `photo-bounds X Y W H` (where the photo is
/// drawn in the window), `popover 1` and `popover 0` (the remote's popover opened, closed),
/// `main-sleep 310` and `main-thread 1` (a main-actor task started from
/// GTK's `activate` ran on the GTK thread, and its 100 ms sleep woke that many µs late).
final class Trace: Sendable {
  private let queue = DispatchQueue(label: "phototimer.trace")
  private let handle: FileHandle

  /// The trace the environment asks for, or `nil`.
  init?(environment: [String: String]) {
    guard let path = environment["PHOTOTIMER_GTK_TRACE"], !path.isEmpty,
      FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { return nil }
    self.handle = handle
  }

  func record(_ name: String, _ value: Int64) {
    record(name, "\(value)")
  }

  func record(_ name: String, _ text: String) {
    queue.async { [handle] in handle.write(Data("\(name) \(text)\n".utf8)) }
  }

  func record(_ name: String, _ duration: Duration) {
    record(name, duration.wholeMicroseconds)
  }

  /// CLOCK_MONOTONIC now, in nanoseconds: comparable across processes.
  static var monotonicNanoseconds: Int64 { FileSystem.monotonicNanoseconds }

  /// Waits until every line is written.
  func flush() {
    queue.sync {}
  }
}
