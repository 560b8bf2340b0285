import CV4L2
import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX

/// A webcam's automatic controls through V4L2 (UVC's `auto_exposure` and
/// `exposure_time_absolute`, `gain_automatic` and `gain`, `white_balance_automatic` and
/// `white_balance_temperature`, `focus_automatic_continuous` and `focus_absolute`), held
/// through a booth session and given back.
///
/// Each request goes through a second descriptor (the stream goes on) and the syscall funnel
/// (`ioctl(VIDIOC_S_CTRL)`…, which a ``FaultPlan`` can fail). Before it changes anything, a
/// hold writes down what it changes, in a note in ``folder``: when the process dies holding
/// the camera (SIGKILL, a crash), whoever opens the camera next gives the controls back from
/// that note (``recover(_:driver:folder:)``). The note is the hold's only state: ``release()``
/// reads it.
///
/// ```swift
/// let controls = V4L2Controls("/dev/video0")
/// let held = try await controls.hold()   // [gain 57]
/// try await controls.release()           // gain automatic again
/// ```
package struct V4L2Controls: CameraControls {
  /// An automatic control and the value it sets.
  struct Pair: Sendable {
    /// `"exposure"`.
    let name: String
    /// The automatic control (a switch, or exposure's menu).
    let automatic: UInt32
    /// The automatic control's value that means by hand: exposure's menu `V4L2_EXPOSURE_MANUAL`
    /// (1), a switch off (0).
    let manual: Int
    /// The control that holds the value.
    let value: UInt32
  }

  /// The pairs a camera may have, in the order they are held.
  static let pairs = [
    Pair(
      name: "exposure", automatic: phototimer_cid_exposure_auto, manual: 1,
      value: phototimer_cid_exposure_absolute),
    Pair(name: "gain", automatic: phototimer_cid_autogain, manual: 0, value: phototimer_cid_gain),
    Pair(
      name: "white balance", automatic: phototimer_cid_auto_white_balance, manual: 0,
      value: phototimer_cid_white_balance_temperature),
    Pair(
      name: "focus", automatic: phototimer_cid_focus_auto, manual: 0,
      value: phototimer_cid_focus_absolute),
  ]

  /// What a hold changed, written down before it changes anything.
  struct Note: Codable, Equatable {
    /// One automatic control turned off: how it was.
    struct Entry: Codable, Equatable {
      var name: String
      var automatic: UInt32
      /// Its value before the hold.
      var was: Int
    }

    var path: String
    var card: String
    /// The process that holds the controls.
    var pid: Int32
    /// That process's start (`/proc/PID/stat`'s field 22): a pid used again is not it.
    var started: String
    var entries: [Entry]
  }

  /// Why a hold could not be made or given back.
  package enum ControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device refused a request.
    case device(V4L2Error)
    /// The note of what a hold changes could not be written: nothing was changed.
    case note(path: String, reason: String)

    package var description: String {
      switch self {
      case .device(let error): "\(error)"
      case .note(let path, let reason):
        "the camera's controls were not held: \(path) could not be written (\(reason));"
          + " check that the folder is writable"
      }
    }
  }

  /// The node.
  package let path: String
  /// How requests reach the driver.
  let driver: V4L2Driver
  /// Where the notes of holds are kept.
  package let folder: URL

  /// The controls of the camera at `path`.
  ///
  /// - Parameters:
  ///   - path: The node.
  ///   - driver: How requests reach the driver (the kernel's by default).
  ///   - folder: Where a hold's note is kept (``defaultFolder(environment:)`` by default).
  package init(
    _ path: String, driver: V4L2Driver = .kernel,
    folder: URL = V4L2Controls.defaultFolder()
  ) {
    self.path = path
    self.driver = driver
    self.folder = folder
  }

  /// `$XDG_STATE_HOME/phototimer/held-controls`, else `~/.local/state/phototimer/held-controls`.
  package static func defaultFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let state =
      environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? URL(
        fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
          ?? NSHomeDirectory()
      ).appendingPathComponent(".local/state")
    return state.appendingPathComponent("phototimer/held-controls")
  }

  /// The pairs the camera has, by name.
  package func available() async -> [String] { availableNow() }

  /// The pairs the camera has, by name, asked from here (`doctor`).
  package func availableNow() -> [String] {
    guard let handle = try? driver.open(path) else { return [] }
    defer { handle.close() }
    return Self.pairs.filter {
      handle.control($0.automatic) != nil && handle.control($0.value) != nil
    }.map(\.name)
  }

  package func hold() async throws -> [HeldControl] {
    let handle = try opened()
    defer { handle.close() }
    var held: [HeldControl] = []
    var changes: [(entry: Note.Entry, pair: Pair, value: Int)] = []
    for pair in Self.pairs {
      guard let automatic = handle.control(pair.automatic), let value = handle.control(pair.value)
      else { continue }
      held.append(HeldControl(name: pair.name, value: value))
      // NB: set by hand already: held as it is, and left so at the end.
      if automatic == pair.manual { continue }
      changes.append(
        (Note.Entry(name: pair.name, automatic: pair.automatic, was: automatic), pair, value))
    }
    guard !changes.isEmpty else { return held }
    let card = (try? handle.describe())?.card ?? ""
    let note = Note(
      path: path, card: card, pid: ProcessInfo.processInfo.processIdentifier,
      started: Self.started(ProcessInfo.processInfo.processIdentifier) ?? "",
      entries: changes.map(\.entry))
    try write(note)
    var done: [Note.Entry] = []
    do throws(V4L2Error) {
      for change in changes {
        try handle.setControl(change.pair.automatic, change.pair.manual)
        done.append(change.entry)
        // NB: the value read while automatic, written back: a driver that keeps its own
        // (vivid's coupled gain) holds the same value either way.
        try handle.setControl(change.pair.value, change.value)
      }
    } catch {
      Self.giveBack(done, on: handle)
      try? FileManager.default.removeItem(at: file)
      throw ControlError.device(error)
    }
    return held
  }

  package func release() async throws {
    guard let note = read(), note.pid == ProcessInfo.processInfo.processIdentifier else {
      return
    }
    // NB: a camera that cannot be opened keeps the note: whoever opens it next gives the
    // controls back.
    let handle = try opened()
    defer { handle.close() }
    if let failure = Self.giveBack(note.entries, on: handle) { throw ControlError.device(failure) }
    try? FileManager.default.removeItem(at: file)
  }

  /// Gives back what a process that ended (killed, crashed) held on the camera at `path`, from
  /// its note; nothing when no note is left or its process still runs.
  ///
  /// - Returns: The controls given back, by name; empty when there were none.
  @discardableResult
  package static func recover(
    _ path: String, driver: V4L2Driver = .kernel, folder: URL = defaultFolder()
  ) -> [String] {
    let controls = V4L2Controls(path, driver: driver, folder: folder)
    guard let note = controls.read() else { return [] }
    if note.pid == ProcessInfo.processInfo.processIdentifier
      || (started(note.pid).map { $0 == note.started } ?? false)
    {
      return []
    }
    guard let handle = try? driver.open(path) else { return [] }
    defer { handle.close() }
    // NB: another camera on the node now (the one held was unplugged, and comes back with
    // its own defaults): the note is of no use.
    let same = (try? handle.describe())?.card == note.card
    // NB: a request refused: the note stays, for the next open.
    if same, giveBack(note.entries, on: handle) != nil { return [] }
    try? FileManager.default.removeItem(at: controls.file)
    return same ? note.entries.map(\.name) : []
  }

  /// The note a hold left for the camera at `path` and its process, if one: for `doctor`.
  package static func leftHeld(
    _ path: String, folder: URL = defaultFolder()
  ) -> (controls: [String], pid: Int32, running: Bool)? {
    guard let note = V4L2Controls(path, folder: folder).read() else { return nil }
    let running = started(note.pid).map { $0 == note.started } ?? false
    return (note.entries.map(\.name), note.pid, running)
  }

  /// Turns each automatic control back to how it was; the first failure, if any (the rest
  /// are still tried).
  @discardableResult
  private static func giveBack(_ entries: [Note.Entry], on handle: V4L2Handle) -> V4L2Error? {
    var failure: V4L2Error?
    for entry in entries.reversed() {
      do throws(V4L2Error) {
        try handle.setControl(entry.automatic, entry.was)
      } catch {
        failure = failure ?? error
      }
    }
    return failure
  }

  private func opened() throws(ControlError) -> V4L2Handle {
    do throws(V4L2Error) {
      return try driver.open(path)
    } catch {
      throw .device(error)
    }
  }

  /// The note's file: `dev-video0.json` for `/dev/video0`.
  var file: URL {
    let name = path.split(separator: "/").joined(separator: "-")
    return folder.appendingPathComponent("\(name.isEmpty ? "camera" : name).json")
  }

  private func write(_ note: Note) throws(ControlError) {
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try JSONEncoder().encode(note).write(to: file, options: .atomic)
    } catch {
      throw .note(path: file.path, reason: (error as NSError).localizedDescription)
    }
  }

  private func read() -> Note? {
    guard let data = try? Data(contentsOf: file) else { return nil }
    return try? JSONDecoder().decode(Note.self, from: data)
  }

  /// A process's start time, from `/proc/PID/stat` (field 22), or `nil` when it is not running.
  static func started(_ pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return nil }
    // NB: after the command's name (which may hold spaces) come the fields from the third on.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    return fields.count > 19 ? String(fields[19]) : nil
  }
}
