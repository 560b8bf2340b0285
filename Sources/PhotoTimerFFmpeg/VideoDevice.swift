import Foundation

/// A V4L2 video device (a webcam), as sysfs lists it.
public struct VideoDevice: Hashable, Sendable, CustomStringConvertible {
  /// The device node, such as `/dev/video0`.
  public var path: String
  /// The driver's name for it, such as `Integrated Camera`.
  public var name: String

  /// Creates a device description.
  ///
  /// - Parameters:
  ///   - path: The device node.
  ///   - name: Its name.
  public init(path: String, name: String) {
    self.path = path
    self.name = name
  }

  /// `/dev/video0 (Integrated Camera)`.
  public var description: String { "\(path) (\(name))" }

  /// The video devices connected now, in order of their number.
  ///
  /// - Parameter root: Where sysfs lists them (default `/sys/class/video4linux`).
  /// - Returns: The devices; empty when there are none.
  public static func connected(root: String = "/sys/class/video4linux") -> [VideoDevice] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return entries.filter { $0.hasPrefix("video") }
      .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
      .map { entry in
        let name =
          (try? String(contentsOfFile: "\(root)/\(entry)/name", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        return VideoDevice(path: "/dev/\(entry)", name: name)
      }
  }
}
