/// Which camera a run uses, as every output names it: the kind of source, the camera's own
/// name where it gives one, its mode, and why it is not the camera asked for.
///
/// ```swift
/// let camera = CameraIdentity(kind: "v4l2", name: "HD Pro Webcam C920",
///                             mode: "1280×720 MJPEG 30 fps")
/// camera.description  // "HD Pro Webcam C920 · v4l2 · 1280×720 MJPEG 30 fps"
/// ```
///
/// Names are shown as they are given: a network camera's must already have its user and
/// password removed.
public struct CameraIdentity: Hashable, Sendable, CustomStringConvertible {
  /// The kind of source, as `--camera` names it: `v4l2`, `pipewire`, `ffmpeg`, `gphoto2`,
  /// `file`, `scene`, `simulation`.
  public var kind: String
  /// The camera's name: its driver's or stream's own, else its device, file or address.
  public var name: String
  /// Its mode (`1280×720 MJPEG 30 fps`), when known.
  public var mode: String?
  /// Why this camera is used instead of the one asked for (`auto` found none), or `nil`.
  public var fallback: String?

  /// Creates an identity.
  ///
  /// - Parameters:
  ///   - kind: The kind of source.
  ///   - name: The camera's name.
  ///   - mode: Its mode, when known.
  ///   - fallback: Why it stands in for the camera asked for.
  public init(kind: String, name: String, mode: String? = nil, fallback: String? = nil) {
    self.kind = kind
    self.name = name
    self.mode = mode
    self.fallback = fallback
  }

  /// `HD Pro Webcam C920 · v4l2 · 1280×720 MJPEG 30 fps`.
  public var description: String {
    ([name, kind] + (mode.map { [$0] } ?? [])).joined(separator: " · ")
  }

  /// The camera as a guest's screen (the phone's page) names it: as ``description``, but a
  /// file of this computer by its name alone, never its folders (`party.mp4 · ffmpeg`).
  public var guestDescription: String { forGuests.description }

  /// The identity a guest's screen is sent (the phone's events): a file of this computer by
  /// its name alone.
  public var forGuests: CameraIdentity {
    var shown = self
    shown.name = Self.guestName(name)
    return shown
  }

  /// `name` without the folders of a local path (`/home/ada/party.mp4` is `party.mp4`); an
  /// address (`rtsp://camera/stream`) or a device's own name as it is.
  package static func guestName(_ name: String) -> String {
    guard !name.contains("://"), name.contains("/") else { return name }
    return name.split(separator: "/").last.map(String.init) ?? name
  }

  /// The sentence an output says when the camera stands in for another: `no camera found
  /// (phototimer doctor says why): using the built-in scene camera`; `nil` when it does not.
  public var fallbackLine: String? {
    fallback.map { "\($0): using the built-in scene camera" }
  }

  /// The identity as a JSON object, for the `started` and `captured` events.
  package var jsonObject: String {
    var object = JSONObject()
    object.add("kind", kind)
    object.add("name", name)
    if let mode { object.add("mode", mode) }
    if let fallback { object.add("fallback", fallback) }
    return object.text
  }
}
