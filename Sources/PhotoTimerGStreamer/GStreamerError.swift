import PhotoTimerImaging

/// What went wrong with a camera read through GStreamer, in words a person can act on.
public enum GStreamerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A GStreamer element is missing: its plugin package is not installed.
  case missingElement(String, package: String)
  /// No camera at the path or node.
  case noSuchDevice(String)
  /// The node is not a video capture device (a UVC camera's metadata node, an output node).
  case notCapture(String, card: String)
  /// Another program streams from the camera; `holders` names them, as `/proc` shows them.
  case busy(String, holders: [String])
  /// The camera may not be opened by this user.
  case permissionDenied(String)
  /// The mode asked for is not one the camera gives.
  case mode(String, ModeChoiceError)
  /// The camera went away while streaming (unplugged).
  case lost(String)
  /// The stream failed with GStreamer's (or the driver's) reason.
  case streamingFailed(String, reason: String)
  /// No frame came for `seconds` (at the start, or after frames had come).
  case stalled(String, seconds: Double, started: Bool)
  /// The PipeWire daemon is not running, or went away.
  case pipeWireUnavailable(String)
  /// The pipeline could not be built.
  case pipeline(String)
  /// The stream was closed.
  case closed(String)

  /// What failed, the camera, and what to do.
  public var description: String {
    switch self {
    case .missingElement(let element, let package):
      return "GStreamer's '\(element)' is missing: install the Debian package \(package)"
    case .noSuchDevice(let device):
      return "no camera at \(device): is it plugged in? `phototimer doctor` lists cameras"
    case .notCapture(let device, let card):
      return "\(device) (\(card)) captures no video (a camera's metadata or output node);"
        + " `phototimer doctor` lists the capture nodes"
    case .busy(let device, let holders):
      let who = holders.isEmpty ? "another program" : holders.joined(separator: ", ")
      return "\(device) is in use by \(who): close it there and try again"
    case .permissionDenied(let device):
      return "\(device) may not be opened by this user: add yourself to the 'video' group"
        + " (sudo usermod -aG video $USER) and log in again"
    case .mode(let device, let error):
      return "\(device): \(error)"
    case .lost(let device):
      return "the camera \(device) was disconnected: plug it back in and start again"
    case .streamingFailed(let device, let reason):
      return "the camera \(device) stopped streaming: \(reason)"
    case .stalled(let device, let seconds, let started):
      let time = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
      return started
        ? "the camera \(device) sent no frame for \(time) s: is it still connected?"
        : "the camera \(device) sent no frame within \(time) s of opening"
    case .pipeWireUnavailable(let reason):
      return "PipeWire is not available (\(reason)): is the pipewire service running?"
        + " (systemctl --user status pipewire)"
    case .pipeline(let reason):
      return "the camera's GStreamer pipeline could not be built: \(reason)"
    case .closed(let device):
      return "the camera \(device) was closed"
    }
  }
}
