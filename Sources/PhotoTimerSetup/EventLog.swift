import Foundation
import PhotoTimer
import PhotoTimerPOSIX

/// An event's log: `event.jsonl` in the event's folder, one JSON object a line, appended to
/// by every run of the event (the booth's sessions, shots and collages, each stamped with
/// the time of day), so a restarted booth numbers its sessions on from the last.
///
/// Each line is written whole with one `write` at the end of the file (`O_APPEND`); a line
/// cut short by a crash is skipped when the log is read again.
package final class EventLog: Sendable {
  /// The log's name in the event's folder.
  package static let fileName = "event.jsonl"

  /// The log's path.
  package let path: String
  /// The highest session number the log had when it was opened (0 for a new event).
  package let lastSession: Int
  /// The prints each photo had when the log was opened (its `print` events that completed),
  /// by file.
  package let printed: [String: Int]
  private let descriptor: FileDescriptor

  /// Opens (or starts) the log in `folder`, which exists.
  ///
  /// - Throws: ``EventLogError`` naming the log and what went wrong.
  package init(folder: URL) throws(EventLogError) {
    let path = folder.appendingPathComponent(Self.fileName).path
    self.path = path
    var text = ""
    if FileManager.default.fileExists(atPath: path) {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw .unreadable(path: path)
      }
      text = String(decoding: data, as: UTF8.self)
    }
    lastSession = Self.lastSession(in: text)
    printed = Self.printed(in: text)
    do {
      descriptor = try FileDescriptor.open(path, flags: FileSystem.OpenFlags.appending)
    } catch {
      throw .unwritable(path: path, reason: "\(error)")
    }
    // NB: a line a crash cut short is ended, so the next line is whole.
    if !text.isEmpty, !text.hasSuffix("\n") { try? descriptor.writeAll(Array("\n".utf8)) }
  }

  deinit {
    try? descriptor.close()
  }

  /// The highest `session` of the log's `session` events in `text`; lines that are not JSON
  /// objects (one a crash cut short) are skipped.
  package static func lastSession(in text: String) -> Int {
    var last = 0
    for line in text.split(separator: "\n") {
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["event"] as? String == "session", let number = object["session"] as? Int
      else { continue }
      last = max(last, number)
    }
    return last
  }

  /// The prints each file had in `text`: its `print` events whose state is `completed`.
  package static func printed(in text: String) -> [String: Int] {
    var counts: [String: Int] = [:]
    for line in text.split(separator: "\n") where line.contains("\"print\"") {
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["event"] as? String == "print", object["state"] as? String == "completed",
        let file = object["file"] as? String
      else { continue }
      counts[file, default: 0] += 1
    }
    return counts
  }

  /// Adds `line` (a JSON object) with the time of day, `"at"` first.
  ///
  /// - Throws: ``EventLogError/unwritable(path:reason:)`` (a full disk).
  package func append(_ line: String, at date: Date = Date()) throws(EventLogError) {
    let stamp = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    let stamped = line.hasPrefix("{") ? "{\"at\":\"\(stamp)\"," + line.dropFirst() : line
    do {
      try descriptor.writeAll(Array((stamped + "\n").utf8))
    } catch {
      throw .unwritable(path: path, reason: "\(error)")
    }
  }
}

/// Why an event's log cannot be read or written.
package enum EventLogError: Error, Equatable, CustomStringConvertible {
  /// The log is there and cannot be read.
  case unreadable(path: String)
  /// The log cannot be written, and why.
  case unwritable(path: String, reason: String)

  package var description: String {
    switch self {
    case .unreadable(let path):
      "the event's log \(path) cannot be read: give it read permission, or choose another "
        + "--event"
    case .unwritable(let path, let reason):
      "the event's log \(path) cannot be written (\(reason)): free some space or give the "
        + "folder write permission"
    }
  }
}
