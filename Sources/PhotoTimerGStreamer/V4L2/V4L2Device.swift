import CV4L2
import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX

/// A V4L2 video node, as the driver describes it through its descriptor: its name, whether it
/// captures video, and every mode it streams in.
///
/// ```swift
/// let device = try V4L2Device.inspect("/dev/video0")
/// print(device.card)  // "HD Pro Webcam C920"
/// let mode = try ModeRequest.best.choose(from: device.modes)
/// ```
package struct V4L2Device: Hashable, Sendable, CustomStringConvertible {
  /// The node, such as `/dev/video0`.
  package var path: String
  /// The driver's name for the device (`VIDIOC_QUERYCAP`'s card), such as `"vivid"`.
  package var card: String
  /// The driver, such as `"uvcvideo"`.
  package var driver: String
  /// Where it is attached, such as `"usb-0000:00:14.0-1"`.
  package var busInfo: String
  /// Whether the node captures video (a UVC camera's second node carries only metadata).
  package var capturesVideo: Bool
  /// The modes in formats this program reads, in the driver's order.
  package var modes: [CameraMode]
  /// Formats the device has that this program does not read (Bayer, HSV…), by code.
  package var unreadFormats: [PixelFormat]
  /// The USB maker and product from sysfs, when it is a USB device that names them.
  package var usb: (maker: String?, product: String?)?

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.path == rhs.path && lhs.card == rhs.card && lhs.modes == rhs.modes
  }

  package func hash(into hasher: inout Hasher) { hasher.combine(path) }

  /// The maker for the photo's EXIF: the USB maker when sysfs names one, else the driver.
  package var make: String { usb?.maker ?? driver }

  /// The model for the photo's EXIF: the card name (the USB product when the card is empty).
  package var model: String { card.isEmpty ? (usb?.product ?? path) : card }

  /// `/dev/video0 (vivid)`.
  package var description: String { "\(path) (\(card))" }

  /// Reads the device's description and modes.
  ///
  /// - Parameters:
  ///   - path: The node.
  ///   - driver: How requests reach the driver (the kernel's by default; tests give another).
  ///   - sysfs: Where sysfs lists video nodes.
  /// - Returns: The device.
  /// - Throws: ``V4L2Error`` when it cannot be opened or is not a V4L2 device.
  package static func inspect(
    _ path: String, driver: V4L2Driver = .kernel, sysfs: String = "/sys/class/video4linux"
  ) throws(V4L2Error) -> V4L2Device {
    let handle = try driver.open(path)
    defer { handle.close() }
    var device = try handle.describe()
    device.usb = Self.usbNames(path, sysfs: sysfs)
    guard device.capturesVideo else { return device }
    let (modes, unread) = try handle.modes()
    device.modes = modes
    device.unreadFormats = unread
    return device
  }

  /// Whether the device at `path` is gone (unplugged): it cannot be opened, or its driver
  /// answers that it has no device any more. Asked when a stream fails, since a driver's own
  /// error for an unplug varies (vivid's disconnect can fail a read with `EINVAL`).
  package static func isGone(_ path: String, driver: V4L2Driver = .kernel) -> Bool {
    do throws(V4L2Error) {
      let handle = try driver.open(path)
      defer { handle.close() }
      _ = try handle.describe()
      return false
    } catch {
      if case .noSuchDevice = error { return true }
      return false
    }
  }

  /// The USB maker and product of the device behind `path`, from sysfs (the USB device is an
  /// ancestor of the video node's `device` link).
  static func usbNames(_ path: String, sysfs: String) -> (maker: String?, product: String?)? {
    let node = (path as NSString).lastPathComponent
    let link = "\(sysfs)/\(node)/device"
    guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else {
      return nil
    }
    var folder = URL(fileURLWithPath: "\(sysfs)/\(node)").appendingPathComponent(resolved)
      .standardizedFileURL
    for _ in 0..<4 {
      func read(_ name: String) -> String? {
        let text = try? String(
          contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
      }
      if read("idVendor") != nil {
        return (read("manufacturer"), read("product"))
      }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }
}

/// What went wrong with a V4L2 device, in words a person can act on.
package enum V4L2Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// No node at the path.
  case noSuchDevice(String)
  /// The node is there but may not be opened.
  case permissionDenied(String)
  /// The node answers no V4L2 request (not a video device).
  case notVideoDevice(String)
  /// A request failed.
  case request(path: String, SystemCallError)

  /// The camera's error this is: the words the user reads are ``GStreamerError``'s, once.
  package var cameraError: GStreamerError {
    switch self {
    case .noSuchDevice(let path): .noSuchDevice(path)
    case .permissionDenied(let path): .permissionDenied(path)
    case .notVideoDevice(let path): .notCapture(path, card: "not a V4L2 device")
    case .request(let path, let failure): .streamingFailed(path, reason: failure.description)
    }
  }

  package var description: String { cameraError.description }
}
