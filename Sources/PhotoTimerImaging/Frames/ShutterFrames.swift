import PhotoTimer

/// The full-size frames of a running stream around the shutter instant, for choosing the
/// photo among them (the frame where every eye is open): those the camera still holds from
/// a lead before the instant, and each new frame as it arrives.
///
/// A camera with a ring of frames (ffmpeg, GStreamer, a ``LiveCamera`` over either) gives
/// one from ``CameraSession/shutterFrames(lead:)``; a camera without one (a DSLR, an image
/// file, the scene camera) gives none and its photo is ``CameraSession/capture()``'s.
public struct ShutterFrames: Sendable {
  /// A frame the camera holds, read (a compressed sample decoded whole) when asked for.
  public struct Held: Sendable {
    /// When it was taken, on the frames' clock.
    public var timestamp: Duration
    /// The frame at full size; `nil` when it does not decode.
    public var read: @Sendable () async -> Frame?

    /// A held frame.
    public init(timestamp: Duration, read: @escaping @Sendable () async -> Frame?) {
      self.timestamp = timestamp
      self.read = read
    }
  }

  /// The shutter instant, on the frames' clock (their timestamps).
  public var instant: Duration
  /// The time between two frames of the stream.
  public var interval: Duration
  /// The frames held from the lead before the instant up to it, oldest first.
  public var held: [Held]
  /// How many frames the stream had delivered at the instant.
  public var delivered: Int
  /// The newest full-size frame after the stream's frame number `after`, as soon as there
  /// is one, with its number; `nil` once the stream is closed.
  public var next: @Sendable (_ after: Int) async throws -> (sequence: Int, frame: Frame)?

  /// The frames around an instant.
  ///
  /// - Parameters:
  ///   - instant: The shutter instant on the frames' clock.
  ///   - interval: The stream's frame interval.
  ///   - held: The frames held from the lead before the instant, oldest first.
  ///   - delivered: How many frames the stream had delivered at the instant.
  ///   - next: The newest frame after a frame number, as soon as there is one.
  public init(
    instant: Duration, interval: Duration, held: [Held], delivered: Int,
    next: @escaping @Sendable (_ after: Int) async throws -> (sequence: Int, frame: Frame)?
  ) {
    self.instant = instant
    self.interval = interval
    self.held = held
    self.delivered = delivered
    self.next = next
  }
}
