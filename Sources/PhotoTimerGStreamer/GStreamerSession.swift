import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

/// An open GStreamer camera: the pipeline, the ring of the last second of samples (MJPEG
/// frames kept as they came), and the watch that notices a camera that stopped sending.
package final class GStreamerSession<C: Clock>: CameraSession where C.Duration == Duration {
  /// How the stream is doing, for reports and tests.
  package struct Statistics: Equatable, Sendable {
    /// Samples received.
    package var frames = 0
    /// Buffers the driver flagged as corrupted, and JPEGs that would not decode: skipped.
    package var corrupted = 0
    /// Frames the driver dropped (gaps in its frame numbers).
    package var dropped = 0
    /// Bytes the ring holds now.
    package var ringBytes = 0
    /// Frames the ring holds now.
    package var ringFrames = 0
  }

  private struct State {
    var statistics = Statistics()
    var lastSequence: UInt64?
    var lastSampleAt: C.Instant?
    var closing: Task<Void, Never>?
    var watchdog: Task<Void, Never>?
  }

  let camera: GStreamerCamera<C>
  private let pipeline: GStreamerPipeline
  private let samples: Mailbox<Sample>
  private let state = Locked(State())
  private let opened: C.Instant

  init(camera: GStreamerCamera<C>) throws(GStreamerError) {
    self.camera = camera
    let rate = camera.mode?.rate.perSecond ?? 30
    let capacity = max(3, min(Int(rate.rounded(.up)), 60))
    let samples = Mailbox<Sample>(capacity: capacity)
    self.samples = samples
    opened = camera.clock.now
    let state = self.state
    let device = camera.device
    let clock = camera.clock
    // NB: the callbacks run on GStreamer's threads and capture only what they need.
    pipeline = try GStreamerPipeline(
      camera.elements(),
      events: GStreamerPipeline.Events(
        sample: { sample in
          let ringBytes = state.withLock { state -> Int in
            state.statistics.frames += 1
            if let sequence = sample.sequence, let last = state.lastSequence, sequence > last + 1 {
              state.statistics.dropped += Int(clamping: sequence - last - 1)
            }
            state.lastSequence = sample.sequence
            state.lastSampleAt = clock.now
            return state.statistics.ringBytes
          }
          // NB: the ring is bounded in bytes too: 1080p RGB is 6 MB a frame.
          var dropped = ringBytes > 256 << 20 ? samples.keep(max(2, capacity / 2)) : []
          dropped += samples.deliver(sample)
          // NB: kept account of, not summed again: what came in, less what the ring let go.
          let freed = dropped.reduce(0) { $0 + $1.bytes.count }
          state.withLock {
            $0.statistics.ringBytes += sample.bytes.count - freed
            $0.statistics.ringFrames += 1 - dropped.count
          }
        },
        corrupted: { state.withLock { $0.statistics.corrupted += 1 } },
        failed: { failure in
          let started = state.withLock { $0.statistics.frames > 0 }
          samples.fail(Self.error(failure, device: device, started: started))
        }))
  }

  /// Stops the source without ending the stream, as a camera that stops sending does; for
  /// tests of the stall limit.
  func pauseSource() async {
    let pipeline = self.pipeline
    _ = try? await OffPool.blocking { _ in pipeline.pause() }
  }

  /// How the stream is doing.
  package var statistics: Statistics { state.withLock { $0.statistics } }

  /// What the ring holds, counted now (the statistics keep account of it as samples come and
  /// go; this recount checks them).
  package var ringCounted: (frames: Int, bytes: Int) {
    let recent = samples.snapshot.recent
    return (recent.count, recent.reduce(0) { $0 + $1.bytes.count })
  }

  /// The pipeline's running time now: the clock frames' capture times are on.
  package var runningTime: Duration? { pipeline.runningTime }

  /// Plays the pipeline and waits for the first frame (bounded by the camera's limit).
  func start() async throws {
    let pipeline = self.pipeline
    let played = try await OffPool.blocking { _ in pipeline.play() }
    startWatchdog()
    // NB: a refused state change posts its reason on the bus first; the mailbox has it.
    if !played, samples.failure == nil {
      samples.fail(GStreamerError.pipeline("GStreamer would not start the stream"))
    }
    _ = try await samples.next(after: 0)
  }

  /// Fails the stream when no sample came in time: first the first-frame limit (raced with
  /// the first frame), then deadlines on the clock re-armed by each wake for the newest
  /// sample, never a poll.
  private func startWatchdog() {
    let clock = camera.clock
    let first = camera.firstFrameTimeout
    let stall = camera.stallTimeout
    let opened = self.opened
    let state = self.state
    let samples = self.samples
    let device = camera.device
    let task = Task {
      let start = await withTaskGroup(of: StreamStart.self) { group -> StreamStart in
        group.addTask {
          do { return try await samples.next(after: 0) == nil ? .over : .frame } catch {
            return .over
          }
        }
        group.addTask {
          do {
            try await clock.sleep(until: opened.advanced(by: first), tolerance: nil)
            return .late
          } catch {
            return .over
          }
        }
        let start = await group.next() ?? .over
        group.cancelAll()
        return start
      }
      switch start {
      case .over: return
      case .late:
        // NB: the limit and the first frame race as two tasks, and on a busy machine the
        // limit's can win after a frame came (open() had returned on it): the stream's own
        // record decides, not the order the race ended in.
        guard state.withLock({ $0.lastSampleAt }) != nil else {
          samples.fail(
            GStreamerError.stalled(device.description, seconds: first.secondsValue, started: false))
          return
        }
      case .frame: break
      }
      while !Task.isCancelled {
        guard let last = state.withLock({ $0.lastSampleAt }) else { return }
        do { try await clock.sleep(until: last.advanced(by: stall), tolerance: nil) } catch {
          return
        }
        guard state.withLock({ $0.lastSampleAt }) == last else { continue }
        samples.fail(Self.silence(device: device, stall: stall))
        return
      }
    }
    state.withLock { $0.watchdog = task }
  }

  /// Why a camera that had sent frames went silent: for PipeWire, a daemon that went away
  /// (pipewiresrc says nothing of it); else a stall.
  static func silence(device: GStreamerCamera<C>.Device, stall: Duration) -> GStreamerError {
    if case .pipewire = device, !PipeWireDaemon.isAnswering() {
      return .pipeWireUnavailable("the PipeWire daemon went away")
    }
    return .stalled(device.description, seconds: stall.secondsValue, started: true)
  }

  /// Words for what the bus said.
  static func error(
    _ failure: PipelineFailure, device: GStreamerCamera<C>.Device, started: Bool
  ) -> GStreamerError {
    let name = device.description
    let text = failure.text
    if case .pipewire = device, !started,
      failure.kind == .resource || text.localizedCaseInsensitiveContains("connect")
    {
      return .pipeWireUnavailable(text)
    }
    if failure.kind == .endOfStream {
      return started ? .lost(name) : .streamingFailed(name, reason: "the stream ended at once")
    }
    // NB: an unplugged webcam is found by asking its node, whatever the driver's error said.
    if started, case .v4l2(let path) = device, V4L2Device.isGone(path) { return .lost(name) }
    let gone = text.contains("No such device") || text.contains("No such file")
    if failure.kind == .resource {
      if failure.code == Int32(GStreamerErrorCodes.busy) || text.contains("busy") {
        if case .v4l2(let path) = device {
          return .busy(path, holders: DeviceHolders.of(path).map(\.description))
        }
        return .busy(name, holders: [])
      }
      if text.contains("Permission denied") { return .permissionDenied(name) }
      if failure.code == Int32(GStreamerErrorCodes.notFound) || gone {
        return started ? .lost(name) : .noSuchDevice(name)
      }
    }
    if gone { return started ? .lost(name) : .noSuchDevice(name) }
    return .streamingFailed(name, reason: text)
  }

  // MARK: - Frames

  /// A sample as a frame: RGB as it is, a JPEG decoded to at least `minimumWidth` (`nil`:
  /// every pixel). `nil` for a JPEG that does not decode (counted as corrupted).
  private func frame(_ sample: Sample, minimumWidth: Int?) async -> Frame? {
    if !sample.isJPEG {
      return Frame(
        width: sample.width, height: sample.height, bytesPerRow: sample.stride,
        pixels: sample.bytes, timestamp: sample.timestamp)
    }
    let path = camera.device.description
    let decoded = await OffPool.quick { () -> Frame? in
      try? JPEGCodec.decode(sample.bytes, path: path, minimumWidth: minimumWidth)
    }
    guard var frame = decoded else {
      state.withLock { $0.statistics.corrupted += 1 }
      return nil
    }
    frame.timestamp = sample.timestamp
    return frame
  }

  /// The next sample that decodes, after stream number `after`.
  private func nextDecoded(after: Int, minimumWidth: Int?) async throws -> (Int, Frame) {
    var seen = after
    while true {
      guard let (sequence, sample) = try await samples.next(after: seen) else {
        throw GStreamerError.closed(camera.device.description)
      }
      seen = sequence
      if let frame = await frame(sample, minimumWidth: minimumWidth) { return (sequence, frame) }
    }
  }

  package func nextPreview() async throws -> Frame {
    let frame = try await nextFrame()
    return await OffPool.quick { frame.downscaled(maxWidth: 320) }
  }

  /// The next frame of the stream: raw frames whole, MJPEG decoded at the stream width.
  package func nextFrame() async throws -> Frame {
    try await nextDecoded(after: samples.count, minimumWidth: camera.streamWidth).1
  }

  /// The frame whose capture time is nearest now.
  package func capture() async throws -> Frame {
    try await burst(count: 1)[0]
  }

  /// The frame nearest now by capture time, then the next `count − 1`, each decoded whole.
  package func burst(count: Int) async throws -> [Frame] {
    let (ring, seen, failure) = samples.snapshot
    if let failure { throw failure }
    let interval = camera.mode?.rate.interval ?? .seconds(1) / 30
    let shutter = pipeline.runningTime ?? ring.last?.timestamp ?? .zero
    func gap(_ sample: Sample) -> Duration {
      sample.timestamp > shutter ? sample.timestamp - shutter : shutter - sample.timestamp
    }
    var kept = ring.min { gap($0) < gap($1) }
    var index = seen
    if kept == nil || shutter - (ring.last?.timestamp ?? .zero) > interval / 2 {
      guard let (sequence, next) = try await samples.next(after: seen) else {
        throw GStreamerError.closed(camera.device.description)
      }
      index = sequence
      if kept.map({ gap($0) > gap(next) }) ?? true { kept = next }
    }
    var shots: [Frame] = []
    if let kept, let frame = await frame(kept, minimumWidth: nil) { shots.append(frame) }
    while shots.count < max(count, 1) {
      let (sequence, frame) = try await nextDecoded(after: index, minimumWidth: nil)
      index = sequence
      shots.append(frame)
    }
    return shots
  }

  /// The samples held from `lead` before now, then each new one, each decoded whole.
  package func shutterFrames(lead: Duration) async throws -> ShutterFrames? {
    let (ring, seen, failure) = samples.snapshot
    if let failure { throw failure }
    let interval = camera.mode?.rate.interval ?? .seconds(1) / 30
    let instant = pipeline.runningTime ?? ring.last?.timestamp ?? .zero
    let held = ring.filter { $0.timestamp >= instant - lead }.map { sample in
      ShutterFrames.Held(timestamp: sample.timestamp) {
        await self.frame(sample, minimumWidth: nil)
      }
    }
    return ShutterFrames(instant: instant, interval: interval, held: held, delivered: seen) {
      let (sequence, frame) = try await self.nextDecoded(after: $0, minimumWidth: nil)
      return (sequence, frame)
    }
  }

  /// Waits on the stream: throws its failure (unplugged, stalled, a fatal error) at once.
  package func watch() async throws { _ = try await samples.next(after: .max) }

  /// The mode, and the exposure as the device reports it: the camera's own.
  package func ownSettings() async throws -> CameraSettings? {
    var reported: V4L2Exposure?
    if case .v4l2(let path) = camera.device { reported = V4L2Exposure.read(path) }
    return .cameraOwn(
      mode: camera.mode?.description, exposureTime: reported?.exposureTime,
      gain: reported?.gain.map {
        CameraSettings.Gain(value: $0, isAutomatic: reported?.isAutomaticGain)
      })
  }

  // MARK: - Closing

  /// Stops the stream; returns once GStreamer released the device. Any number of callers.
  package func close() async {
    let closing = state.withLock { state -> Task<Void, Never> in
      if let closing = state.closing { return closing }
      state.watchdog?.cancel()
      let pipeline = self.pipeline
      let samples = self.samples
      let name = camera.device.description
      let closing = Task {
        samples.fail(GStreamerError.closed(name))
        // NB: the state change to NULL joins GStreamer's threads: off the cooperative pool.
        _ = try? await OffPool.blocking { _ in pipeline.stop() }
      }
      state.closing = closing
      return closing
    }
    await closing.value
  }
}

/// How a stream's start went, for the watchdog: a first frame, none in time, or it ended.
enum StreamStart: Sendable { case frame, late, over }

/// `GstResourceError` codes that matter here.
enum GStreamerErrorCodes {
  static let notFound = 3
  static let busy = 4
}
