import Foundation

/// The processes that hold a device open, found through `/proc/*/fd`: who to name when a
/// camera is busy.
public enum DeviceHolders {
  /// A process holding the device.
  public struct Holder: Hashable, Sendable, CustomStringConvertible {
    /// Its process id.
    public var pid: Int32
    /// Its program name (`/proc/PID/comm`).
    public var program: String

    /// `cheese (pid 4242)`.
    public var description: String { "\(program) (pid \(pid))" }
  }

  /// Every process other than this one with a descriptor on `path`.
  ///
  /// - Parameters:
  ///   - path: The device node.
  ///   - proc: Where the process table is (default `/proc`).
  public static func of(_ path: String, proc: String = "/proc") -> [Holder] {
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
    let me = ProcessInfo.processInfo.processIdentifier
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: proc)) ?? []
    var holders: [Holder] = []
    for entry in entries {
      guard let pid = Int32(entry), pid != me else { continue }
      let folder = "\(proc)/\(entry)/fd"
      let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      let holds = descriptors.contains { descriptor in
        let link = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "\(folder)/\(descriptor)")
        return link == path || link == target
      }
      guard holds else { continue }
      let program =
        (try? String(contentsOfFile: "\(proc)/\(entry)/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
      holders.append(Holder(pid: pid, program: program))
    }
    return holders.sorted { $0.pid < $1.pid }
  }
}
