import CGStreamer
import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// One buffer from the pipeline's sink: a JPEG as the camera sent it, or RGB rows.
struct Sample: Sendable {
  /// The bytes: a whole JPEG, or `height` rows of `stride` bytes of RGB.
  var bytes: [UInt8]
  /// Width in pixels (from the caps; for a JPEG, from the caps too, checked at decode).
  var width: Int
  /// Height in pixels.
  var height: Int
  /// Bytes per RGB row (0 for a JPEG).
  var stride: Int
  /// Whether `bytes` is a JPEG.
  var isJPEG: Bool
  /// The capture time: the buffer's timestamp (the driver's, carried by GStreamer), as
  /// running time of the pipeline.
  var timestamp: Duration
  /// The driver's frame number (V4L2's sequence), when the source gives one: gaps are
  /// frames the driver dropped.
  var sequence: UInt64?
}

/// Why the pipeline stopped, as GStreamer's bus said it.
struct PipelineFailure: Error, Sendable {
  enum Kind: Sendable { case resource, stream, core, library, other, endOfStream }
  var kind: Kind
  /// The error's code within its domain (`GstResourceError`…).
  var code: Int32
  /// GStreamer's message.
  var message: String
  /// The element's debug text (often the driver's errno).
  var debug: String

  var text: String { debug.isEmpty ? message : "\(message) (\(debug))" }
}

/// An element to put in the pipeline, and its properties.
struct ElementSpec: Sendable {
  var factory: String
  /// The Debian package whose plugin has it.
  var package: String
  var strings: [(String, String)] = []
  var integers: [(String, Int32)] = []
  var booleans: [(String, Bool)] = []
  /// Caps (for `capsfilter`'s `caps`), built from numbers and known names only.
  var caps: String?
  /// A structure property, such as pipewiresrc's `stream-properties`.
  var structure: (String, String)?
  /// Whether its source pad comes only with the stream (a demuxer's): linked when added.
  var hasDynamicPad = false
}

/// A linear GStreamer pipeline ending in an `appsink`, and the callbacks that hand its
/// samples and its bus's errors over as they happen (on GStreamer's own threads: nothing polls).
///
/// NB: `@unchecked Sendable`: GStreamer's objects are reference counted and thread-safe for
/// what is done here (state changes, queries of the running time); `stopped` is behind a lock.
final class GStreamerPipeline: @unchecked Sendable {
  /// Where the pipeline's news goes.
  struct Events: Sendable {
    var sample: @Sendable (Sample) -> Void
    var corrupted: @Sendable () -> Void
    var failed: @Sendable (PipelineFailure) -> Void
  }

  private final class Context: Sendable {
    let events: Events
    init(events: Events) { self.events = events }
  }

  private let pipeline: UnsafeMutablePointer<GstElement>
  private let context: Unmanaged<Context>
  private let stopped = Locked(false)

  /// Builds `elements` linked in order, the last one an appsink.
  ///
  /// - Throws: ``GStreamerError/missingElement(_:package:)`` when a plugin is not installed,
  ///   ``GStreamerError/pipeline(_:)`` when the elements do not link.
  init(_ elements: [ElementSpec], events: Events) throws(GStreamerError) {
    GStreamerLibrary.initialise()
    guard let pipeline = gst_pipeline_new("phototimer") else {
      throw .pipeline("gst_pipeline_new failed")
    }
    let bin = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstBin.self)
    var made: [UnsafeMutablePointer<GstElement>] = []
    for spec in elements {
      guard let element = gst_element_factory_make(spec.factory, nil) else {
        gst_object_unref(pipeline)
        throw .missingElement(spec.factory, package: spec.package)
      }
      for (name, value) in spec.strings { phototimer_gst_set_string(element, name, value) }
      for (name, value) in spec.integers { phototimer_gst_set_int(element, name, value) }
      for (name, value) in spec.booleans { phototimer_gst_set_bool(element, name, value ? 1 : 0) }
      if let text = spec.caps {
        guard let caps = gst_caps_from_string(text) else {
          gst_object_unref(element)
          gst_object_unref(pipeline)
          throw .pipeline("bad caps \(text)")
        }
        phototimer_gst_set_caps(element, "caps", caps)
        gst_caps_unref(caps)
      }
      if let (name, text) = spec.structure, let structure = gst_structure_from_string(text, nil) {
        phototimer_gst_set_structure(element, name, structure)
        gst_structure_free(structure)
      }
      // NB: the bin takes the floating reference.
      _ = gst_bin_add(bin, element)
      if let previous = made.last, elements[made.count - 1].hasDynamicPad {
        phototimer_gst_link_when_added(previous, element)
      } else if let previous = made.last, gst_element_link(previous, element) == 0 {
        gst_object_unref(pipeline)
        throw .pipeline("\(elements[made.count - 1].factory) does not link to \(spec.factory)")
      }
      made.append(element)
    }
    guard let last = made.last else {
      gst_object_unref(pipeline)
      throw .pipeline("no elements")
    }
    self.pipeline = pipeline
    context = Unmanaged.passRetained(Context(events: events))
    let data = context.toOpaque()
    let sink = UnsafeMutableRawPointer(last).assumingMemoryBound(to: GstAppSink.self)
    var callbacks = GstAppSinkCallbacks()
    callbacks.new_sample = { sink, data in
      guard let sink, let data else { return GST_FLOW_OK }
      let context = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
      guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_EOS }
      defer { gst_sample_unref(sample) }
      let arrival = gst_element_get_current_running_time(
        UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstElement.self))
      switch GStreamerPipeline.read(
        sample, arrival: arrival == GstClockTime.max ? nil : .nanoseconds(Int64(clamping: arrival)))
      {
      case .some(.some(let sample)): context.events.sample(sample)
      case .some(.none): context.events.corrupted()
      case .none: break
      }
      return GST_FLOW_OK
    }
    gst_app_sink_set_callbacks(sink, &callbacks, data, nil)
    let bus = gst_pipeline_get_bus(
      UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstPipeline.self))
    gst_bus_set_sync_handler(
      bus,
      { _, message, data in
        guard let message, let data else { return GST_BUS_DROP }
        let context = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
        if let failure = GStreamerPipeline.failure(message) { context.events.failed(failure) }
        return GST_BUS_DROP
      }, data, nil)
    gst_object_unref(bus)
  }

  /// How far a buffer's timestamp may be from the pipeline's running time when it arrives
  /// and still be taken as its capture time.
  static let timestampTolerance = Duration.seconds(1)

  /// A sample's buffer: `nil` for none, `.some(nil)` for a buffer flagged as corrupted.
  ///
  /// Its time is the buffer's timestamp (the driver's) when that is on the pipeline's
  /// running time, else `arrival`, the running time it reached the sink: a PipeWire node
  /// may stamp its buffers on a clock of its own (seen with a still picture's node: the
  /// shot's frames never reached the end of the blink window, and the shot never came).
  static func read(_ sample: OpaquePointer, arrival: Duration?) -> Sample?? {
    guard let buffer = gst_sample_get_buffer(sample) else { return nil }
    if phototimer_gst_buffer_corrupted(buffer) != 0 { return .some(nil) }
    var width: Int32 = 0
    var height: Int32 = 0
    var isJPEG = false
    if let caps = gst_sample_get_caps(sample), let structure = gst_caps_get_structure(caps, 0) {
      _ = gst_structure_get_int(structure, "width", &width)
      _ = gst_structure_get_int(structure, "height", &height)
      isJPEG = gst_structure_has_name(structure, "image/jpeg") != 0
    }
    guard width > 0, height > 0 else { return .some(nil) }
    var map = GstMapInfo()
    guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return .some(nil) }
    defer { gst_buffer_unmap(buffer, &map) }
    let bytes = Array(UnsafeBufferPointer(start: map.data, count: Int(map.size)))
    let stride = isJPEG ? 0 : bytes.count / Int(height)
    if !isJPEG, stride < Int(width) * 3 { return .some(nil) }
    let offset = buffer.pointee.offset
    let pts = buffer.pointee.pts
    let stamped: Duration? = pts == guint64.max ? nil : .nanoseconds(Int64(clamping: pts))
    let timestamp = captureTime(stamped: stamped, arrival: arrival)
    return .some(
      Sample(
        bytes: bytes, width: Int(width), height: Int(height), stride: stride, isJPEG: isJPEG,
        timestamp: timestamp, sequence: offset == guint64.max ? nil : UInt64(offset)))
  }

  /// A buffer's capture time from its timestamp and its arrival (see ``read(_:arrival:)``).
  static func captureTime(stamped: Duration?, arrival: Duration?) -> Duration {
    guard let arrival else { return stamped ?? .zero }
    guard let stamped, stamped - arrival <= timestampTolerance,
      arrival - stamped <= timestampTolerance
    else { return arrival }
    return stamped
  }

  /// An error or the end of the stream, read from a bus message; `nil` for other messages.
  private static func failure(_ message: UnsafeMutablePointer<GstMessage>) -> PipelineFailure? {
    let type = phototimer_gst_message_type(message)
    if type == GST_MESSAGE_EOS {
      return PipelineFailure(kind: .endOfStream, code: 0, message: "end of stream", debug: "")
    }
    guard type == GST_MESSAGE_ERROR else { return nil }
    var error: UnsafeMutablePointer<GError>?
    var debug: UnsafeMutablePointer<gchar>?
    gst_message_parse_error(message, &error, &debug)
    defer {
      if let error { g_error_free(error) }
      g_free(debug)
    }
    let domain = error?.pointee.domain ?? 0
    let kind: PipelineFailure.Kind =
      switch domain {
      case gst_resource_error_quark(): .resource
      case gst_stream_error_quark(): .stream
      case gst_core_error_quark(): .core
      case gst_library_error_quark(): .library
      default: .other
      }
    let text = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "error"
    // NB: the debug text's last line carries the reason ("…: No such device (19)").
    let detail = debug.map { String(cString: $0) } ?? ""
    let reason = detail.split(separator: "\n").last.map(String.init) ?? ""
    return PipelineFailure(
      kind: kind, code: error?.pointee.code ?? 0, message: text,
      debug: reason.split(separator: ":", maxSplits: 3).last.map {
        $0.trimmingCharacters(in: .whitespaces)
      } ?? "")
  }

  /// Starts streaming.
  ///
  /// - Returns: `false` when GStreamer refused at once (the bus says why).
  func play() -> Bool {
    gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE
  }

  /// Pauses the pipeline and waits until it is paused: a live source then sends nothing and
  /// the stream does not end, as with a camera that stops sending (for tests).
  func pause() {
    _ = gst_element_set_state(pipeline, GST_STATE_PAUSED)
    _ = gst_element_get_state(pipeline, nil, nil, 5 * 1_000_000_000)
  }

  /// The pipeline's running time now: the clock buffer timestamps are on.
  var runningTime: Duration? {
    let time = gst_element_get_current_running_time(pipeline)
    return time == GstClockTime.max ? nil : .nanoseconds(Int64(clamping: time))
  }

  /// Stops the pipeline and frees it: blocks until GStreamer's streaming threads have ended
  /// and the device is closed. Run it off the cooperative pool. Later calls do nothing.
  func stop() {
    let first = stopped.withLock { stopped -> Bool in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    _ = gst_element_set_state(pipeline, GST_STATE_NULL)
    gst_object_unref(pipeline)
    context.release()
  }

  deinit { stop() }
}

/// GStreamer's library, initialised once per process.
enum GStreamerLibrary {
  private static let initialised: Bool = {
    gst_init(nil, nil)
    return true
  }()

  static func initialise() { _ = initialised }
}
