import Foundation
import PhotoTimer
import PhotoTimerImaging

/// A local camera read in-process through GStreamer: a V4L2 webcam (`v4l2src`), a PipeWire
/// camera (`pipewiresrc`, the way GNOME Snapshot and sandboxed apps reach cameras), or
/// GStreamer's test pattern.
///
/// The camera streams in the mode chosen when it was made (by default the largest size at
/// 24 fps or more: `ModeRequest.best`). MJPEG frames stay compressed in the ring and are
/// decoded at the size they are needed: the stream's frames (preview, metering, the look's
/// analysis) through libjpeg-turbo's DCT scaling, only the kept frame in full. Each frame
/// carries the driver's capture time, and the shutter keeps the frame whose capture time is
/// nearest the shutter's instant.
///
/// ```swift
/// let camera = try GStreamerCamera.v4l2("/dev/video0", clock: ContinuousClock())
/// print(camera.mode)  // 1920×1080 MJPEG 30 fps
/// ```
public struct GStreamerCamera<C: Clock>: CameraSource where C.Duration == Duration {
  /// Where the frames come from.
  public enum Device: Hashable, Sendable, CustomStringConvertible {
    /// A V4L2 capture node, such as `/dev/video0`.
    case v4l2(String)
    /// A PipeWire camera node by name, or the default camera (`nil`).
    case pipewire(String?)
    /// GStreamer's `videotestsrc` with this pattern (`smpte`, `ball`…), streamed live.
    case testPattern(String)
    /// An AVI file of MJPEG frames, played at its own pace as a camera would send them (for
    /// benchmarks: the same pipeline after the source element as a webcam's).
    case mjpegFile(String)

    /// `/dev/video0`, `pipewire:fakecam`, `pipewire (default camera)`, `test pattern smpte`.
    public var description: String {
      switch self {
      case .v4l2(let path): path
      case .pipewire(let node): node.map { "pipewire:\($0)" } ?? "pipewire (default camera)"
      case .testPattern(let pattern): "test pattern \(pattern)"
      case .mjpegFile(let path): path
      }
    }
  }

  /// Where the frames come from.
  public var device: Device
  /// The mode it streams in; `nil` takes what the source offers first (a PipeWire node
  /// whose modes are not known).
  public var mode: StreamMode?
  /// The maker written into the photo's EXIF (the USB maker, or the driver).
  public var make: String
  /// The model written into the photo's EXIF (the camera's own name).
  public var model: String
  /// The longest wait for the first frame.
  public var firstFrameTimeout: Duration
  /// The longest gap between frames before the camera counts as lost.
  public var stallTimeout: Duration
  /// The width stream frames are decoded to, at least (MJPEG; the kept frame is whole).
  public var streamWidth: Int
  /// The clock the stall limits are timed on.
  public var clock: C

  /// Creates the camera.
  ///
  /// - Parameters:
  ///   - device: Where the frames come from.
  ///   - mode: The mode to stream in, or `nil` for the source's first.
  ///   - make: The maker for EXIF.
  ///   - model: The model for EXIF.
  ///   - firstFrameTimeout: The longest wait for the first frame (default 10 s).
  ///   - stallTimeout: The longest gap between frames (default 2 s).
  ///   - streamWidth: The narrowest stream frame decoded (default 640).
  ///   - clock: The clock stalls are timed on.
  public init(
    device: Device, mode: StreamMode?, make: String, model: String,
    firstFrameTimeout: Duration = .seconds(10), stallTimeout: Duration = .seconds(2),
    streamWidth: Int = 640, clock: C
  ) {
    self.device = device
    self.mode = mode
    self.make = make
    self.model = model
    self.firstFrameTimeout = firstFrameTimeout
    self.stallTimeout = stallTimeout
    self.streamWidth = max(streamWidth, 16)
    self.clock = clock
  }

  /// The webcam at `path`, in the mode `request` chooses among those its driver lists.
  ///
  /// - Parameters:
  ///   - path: The V4L2 node.
  ///   - request: Which mode (default: the best).
  ///   - clock: The clock stalls are timed on.
  /// - Throws: ``GStreamerError`` when there is no such camera, it captures no video, or it
  ///   does not give the size asked for.
  public static func v4l2(
    _ path: String, request: ModeRequest = .best, clock: C
  ) throws(GStreamerError) -> Self {
    let device: V4L2Device
    do throws(V4L2Error) {
      device = try V4L2Device.inspect(path)
    } catch {
      throw error.cameraError
    }
    guard device.capturesVideo else { throw .notCapture(path, card: device.card) }
    // NB: a booth killed while it held the controls: they are given back as it opens again.
    V4L2Controls.recover(path)
    let mode: StreamMode
    do throws(ModeChoiceError) {
      mode = try request.choose(from: device.modes)
    } catch {
      throw .mode(path, error)
    }
    return Self(
      device: .v4l2(path), mode: mode, make: device.make, model: device.model, clock: clock)
  }

  /// A webcam's exposure, gain, white balance and focus controls (through V4L2); `nil`
  /// for the other devices.
  public var controls: (any CameraControls)? {
    if case .v4l2(let path) = device { return V4L2Controls(path) }
    return nil
  }

  /// The elements from the source to the appsink.
  func elements() -> [ElementSpec] {
    let good = "gstreamer1.0-plugins-good"
    let base = "gstreamer1.0-plugins-base"
    var elements: [ElementSpec] = []
    switch device {
    case .v4l2(let path):
      elements.append(ElementSpec(factory: "v4l2src", package: good, strings: [("device", path)]))
    case .pipewire(let node):
      var source = ElementSpec(factory: "pipewiresrc", package: "gstreamer1.0-pipewire")
      if let node { source.strings.append(("target-object", node)) }
      // NB: without media.type WirePlumber's policy links nothing to the reader.
      source.structure = ("stream-properties", "props,media.type=Video")
      elements.append(source)
    case .mjpegFile(let path):
      elements.append(ElementSpec(factory: "filesrc", package: base, strings: [("location", path)]))
      var demuxer = ElementSpec(factory: "avidemux", package: good)
      demuxer.hasDynamicPad = true
      elements.append(demuxer)
      elements.append(ElementSpec(factory: "queue", package: "gstreamer1.0-plugins-base"))
    case .testPattern(let pattern):
      elements.append(
        ElementSpec(
          factory: "videotestsrc", package: base, strings: [("pattern", pattern)],
          booleans: [("is-live", true)]))
      if let mode, mode.format.isCompressed {
        var raw = mode
        raw.format = .yuyv
        elements.append(
          ElementSpec(factory: "capsfilter", package: base, caps: GStreamerFormat.caps(raw)))
        elements.append(ElementSpec(factory: "jpegenc", package: good))
      }
    }
    if let mode, let caps = GStreamerFormat.caps(mode) {
      elements.append(ElementSpec(factory: "capsfilter", package: base, caps: caps))
    }
    if mode?.format.isCompressed != true {
      elements.append(ElementSpec(factory: "videoconvert", package: base))
      elements.append(
        ElementSpec(factory: "capsfilter", package: base, caps: "video/x-raw,format=RGB"))
    }
    var sink = ElementSpec(factory: "appsink", package: base)
    // NB: the ring is ours; the sink hands each buffer over at once and never waits for a clock.
    // NB: a file is played at its own pace (the sink waits for each frame's time), like a camera.
    let paced: Bool
    if case .mjpegFile = device { paced = true } else { paced = false }
    sink.booleans = [("sync", paced), ("emit-signals", false), ("drop", true)]
    sink.integers = [("max-buffers", 2)]
    elements.append(sink)
    return elements
  }

  /// Starts streaming and returns once the first frame came.
  ///
  /// - Throws: ``GStreamerError`` with the reason: the camera is busy (and with whom), gone,
  ///   a plugin is missing, no frame came within ``firstFrameTimeout``.
  public func open() async throws -> any CameraSession {
    let session = try GStreamerSession(camera: self)
    do {
      try await session.start()
    } catch {
      await session.close()
      throw error
    }
    return session
  }
}
