import Foundation
import PhotoTimerPOSIX

/// A camera found by `gphoto2 --auto-detect`.
public struct DetectedCamera: Hashable, Sendable, CustomStringConvertible {
  /// The model, e.g. `"Canon EOS 80D"`.
  public var model: String
  /// The port, e.g. `"usb:001,005"`.
  public var port: String
  /// `Canon EOS 80D (usb:001,005)`.
  public var description: String { "\(model) (\(port))" }

  /// Whether a USB interface of class 6 (still image: PTP cameras) is connected, read from
  /// sysfs without starting gphoto2 (which costs about 100 ms).
  ///
  /// - Parameter root: Where USB devices are listed (default `/sys/bus/usb/devices`).
  /// - Returns: Whether a camera gphoto2 could talk to may be connected.
  public static func stillImageInterfacePresent(root: String = "/sys/bus/usb/devices") -> Bool {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return entries.contains { entry in
      let text = try? String(contentsOfFile: "\(root)/\(entry)/bInterfaceClass", encoding: .utf8)
      return text?.trimmingCharacters(in: .whitespacesAndNewlines) == "06"
    }
  }
}

/// What went wrong with gphoto2, in plain words with the fix.
public enum GPhoto2Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// The `gphoto2` tool is not installed.
  case notInstalled
  /// No camera was detected.
  case noCamera
  /// Another program holds the camera: the ones found holding its USB device (the desktop's
  /// `gvfsd-gphoto2`, a photo manager), or none found.
  case cameraClaimed(by: [DeviceHolders.Holder])
  /// The camera refused to be claimed just after our own live view ended: it was still
  /// closing that session.
  case liveViewStillClosing
  /// Our own live view did not let go of the camera within the limit and was killed.
  case liveViewKilled(after: Duration)
  /// The camera does not offer this operation (`-6: Unsupported operation`), with gphoto2's
  /// words: it answered, it just has no such thing (a live view, a preview).
  case unsupported(String)
  /// The camera is busy, usually because focus could not lock.
  case busy
  /// Any other failure, with gphoto2's words.
  case failed(String)

  /// What failed and what to do.
  public var description: String {
    switch self {
    case .notInstalled:
      "gphoto2 is not installed; install it (sudo apt-get install gphoto2) or use another camera"
    case .noCamera:
      "no camera found by gphoto2: connect it by USB, switch it on and set it to PTP/PC mode"
    case .cameraClaimed(let holders) where holders.isEmpty:
      "could not claim the USB camera: another program holds it (often the desktop's gvfs: "
        + "release it with 'gio mount -s gphoto2'); close it and try again"
    case .cameraClaimed(let holders):
      "could not claim the USB camera: \(holders.map(\.description).joined(separator: ", ")) "
        + (holders.count == 1 ? "holds" : "hold") + " it; "
        + (holders.contains { $0.program.hasPrefix("gvfs") }
          ? "release it with 'gio mount -s gphoto2' (or 'pkill -f gvfs-gphoto2-volume-monitor')"
          : "close it") + " and try again"
    case .liveViewStillClosing:
      "the camera was still ending our own live view and refused the capture; try again "
        + "(the live view now stops earlier before zero)"
    case .liveViewKilled(let took):
      "our live view (gphoto2) had not let go of the camera \(took.formattedSeconds(fractionDigits: 0)) s "
        + "after it was asked to and was killed; the camera may keep that session open: switch "
        + "it off and on, then try again"
    case .unsupported(let words):
      "the camera does not offer this through gphoto2 (\(words))"
    case .busy:
      "the camera is busy (PTP Device Busy), usually because it could not lock focus: aim at "
        + "something with contrast, or switch the lens to manual focus"
    case .failed(let words):
      "gphoto2 failed: \(words)"
    }
  }

  /// The error gphoto2's output describes.
  static func from(output: String) -> GPhoto2Error {
    if output.contains("Could not claim the USB device") { return .cameraClaimed(by: []) }
    if output.contains("PTP Device Busy") { return .busy }
    if output.contains("Could not detect any camera") || output.contains("No camera found") {
      return .noCamera
    }
    let errors = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("*** Error") || $0.contains("rror") }
    let words =
      errors.suffix(2).joined(separator: " / ").isEmpty
      ? "no reason given" : errors.suffix(2).joined(separator: " / ")
    if output.contains("Unsupported operation") || output.contains("(-6:") {
      return .unsupported(words)
    }
    return .failed(words)
  }
}
