import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

/// An open ffmpeg camera.
///
/// A ``ReaderThread`` reads ffmpeg's output and error output until the stream ends or the
/// session is closed. ``close()`` wakes it, joins it, stops ffmpeg (SIGTERM, then SIGKILL)
/// and only then closes the descriptors: nothing polls a descriptor that was closed.
final class FFmpegSession<C: Clock>: CameraSession where C.Duration == Duration {
  private struct State {
    var size: FrameSize?
    var frameInterval = Duration.seconds(1) / 30
    var lastLines: [String] = []
    /// The input's title (an RTSP session's name), from ffmpeg's first `title :` line.
    var title: String?
    var closed = false
    var closing: Task<Void, Never>?
  }

  struct FrameSize: Equatable, Sendable {
    var width: Int
    var height: Int
    var bytes: Int { width * height * 3 }
  }

  private let camera: FFmpegCamera<C>
  let child: ChildProcess
  /// When the session opened: frame timestamps count from here.
  let opened: C.Instant
  private let state = Locked(State())
  /// The ring: about the last second of frames, and the tasks waiting for the next.
  private let frames = FrameMailbox(capacity: 30)
  private let wake: WakePipe
  private let reader = Locked<ReaderThread?>(nil)

  init(camera: FFmpegCamera<C>, child: ChildProcess, wake: WakePipe) {
    self.camera = camera
    self.child = child
    self.wake = wake
    opened = camera.clock.now
    let thread = ReaderThread(name: "phototimer.ffmpeg") { [self] in readLoop() }
    reader.withLock { $0 = thread }
  }

  /// The number of frames received so far.
  var frameCount: Int { frames.count }

  // MARK: - Reading

  private func readLoop() {
    var pending = [UInt8]()
    var errorLines = LineBuffer()
    var lastFrameAt = ContinuousClock.now
    // NB: the limits are on silence of the camera's own making. Time that ffmpeg, or this
    // thread reading it, was ready to run with no processor free is the machine's: it is
    // taken off (ffmpeg waits on a full pipe while this thread waits for a processor, so both
    // count). make stress, at a load average of 20 on two cores, saw a lavfi source's first
    // frame come after the 10 s limit, from an ffmpeg that was there and well.
    var atFrame = (ffmpeg: child.processorTime, reader: ProcessorTime.ofCallingThread())
    var sawFrame = false
    var limit: Duration { sawFrame ? camera.stallTimeout : camera.firstFrameTimeout }
    let end = ChildProcess.collect(
      [child.output, child.errors], wake: wake, endsWith: 0, drainOnWake: false, chunk: 1 << 16,
      timeout: {
        let left = limit - lastFrameAt.duration(to: .now)
        guard left <= .zero else { return left }
        let ffmpeg = Self.since(atFrame.ffmpeg, child.processorTime)
        let reader = Self.since(atFrame.reader, ProcessorTime.ofCallingThread())
        let owed = left + ffmpeg.waited + reader.waited
        guard owed <= .zero else { return owed }
        // The kernel credits a wait only as it ends: an ffmpeg still queued for a processor
        // has waited longer than it says. Look again soon, unless it has been running, not
        // waiting, for longer than the limit with no frame to show.
        if child.isRunnable, ffmpeg.ran < limit { return .milliseconds(50) }
        return owed
      }
    ) { source, bytes in
      guard source == 0 else {
        for line in errorLines.append(bytes) { heard(line) }
        return
      }
      pending.append(contentsOf: bytes)
      while let size = state.withLock({ $0.size }), pending.count >= size.bytes {
        deliver(Array(pending[0..<size.bytes]), size: size)
        pending.removeFirst(size.bytes)
        lastFrameAt = ContinuousClock.now
        atFrame = (child.processorTime, ProcessorTime.ofCallingThread())
        sawFrame = true
      }
    }
    switch end {
    case .woken: return  // closed
    case .timedOut:
      // NB: the silence as the user lived it, which the time ffmpeg waited for a processor
      // may have made longer than the limit; never "0 s" for a limit under a second.
      let silent = lastFrameAt.duration(to: .now) / .seconds(1)
      fail(.stalled(input: camera.input, seconds: Int(silent.rounded(.up)), lastLines: lines()))
      return
    case .failed(let error):
      fail(.system(error))
      return
    case .ended: break
    }
    let errorText = errorLines.rest
    // The stream ended: why? ffmpeg closed its output, so it is exiting; give it a moment
    // to do so by itself, then stop it.
    if !errorText.isEmpty { heard(errorText) }
    var ended = child.waitBlocking(timeout: .seconds(1))
    if ended == nil {
      child.terminate()
      ended = child.waitBlocking(timeout: nil)
    }
    if state.withLock({ $0.closed }) { return }
    let exit = try? ended?.get()
    // NB: how ffmpeg ended comes first: killed mid-frame is a kill, not a cut-off frame.
    let size = state.withLock { $0.size }
    if exit == .status(0), let size, !pending.isEmpty {
      fail(.partialFrame(input: camera.input, bytes: pending.count, expected: size.bytes))
    } else if size == nil {
      fail(.noVideo(input: camera.input, lastLines: lines()))
    } else {
      fail(.ended(input: camera.input, exit: exit?.description ?? "ended", lastLines: lines()))
    }
  }

  /// The processor time between two readings of one thread; zero when either is missing.
  private static func since(_ before: ProcessorTime?, _ now: ProcessorTime?) -> ProcessorTime {
    guard let before, let now else { return ProcessorTime(ran: .zero, waited: .zero) }
    return ProcessorTime(
      ran: max(.zero, now.ran - before.ran), waited: max(.zero, now.waited - before.waited))
  }

  /// One line of ffmpeg's error output: kept, and read for the frame size.
  private func heard(_ line: String) {
    camera.log?(CameraAddress.redacted(line))
    let capacity = state.withLock { state -> Int? in
      state.lastLines.append(line)
      if state.lastLines.count > 20 { state.lastLines.removeFirst() }
      // "title           : Front door" in the input's Metadata block (RTSP: the SDP's s=).
      if state.title == nil, state.size == nil, line.hasPrefix("title"),
        let colon = line.firstIndex(of: ":"),
        line[..<colon].trimmingCharacters(in: .whitespaces) == "title"
      {
        state.title = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      // "Stream #0:0: Video: rawvideo (RGB[24] / 0x18424752), rgb24(pc), 640x480 [SAR 1:1
      // DAR 4:3], q=2-31, 221184 kb/s, 30 fps, 30 tbn" on the output side.
      guard state.size == nil, let announced = FFmpegAnnouncement(line) else { return nil }
      var capacity = 30
      if let size = announced.size {
        state.size = FrameSize(width: size.width, height: size.height)
      }
      if let rate = announced.framesPerSecond {
        state.frameInterval = .nanoseconds(Int64(1e9 / rate))
        capacity = max(3, min(Int(rate.rounded(.up)), 60))
      }
      // NB: keep about a second, but never more than 256 MiB of frames.
      if let size = state.size { capacity = max(2, min(capacity, (256 << 20) / size.bytes)) }
      return capacity
    }
    if let capacity { frames.keep(capacity) }
  }

  private func lines() -> [String] {
    state.withLock { state in
      state.lastLines.filter { !$0.hasPrefix("Input #") && !$0.hasPrefix("Output #") }
        .suffix(3).map { $0 }
    }
  }

  private func deliver(_ pixels: [UInt8], size: FrameSize) {
    guard
      let frame = Frame(
        width: size.width, height: size.height, pixels: pixels,
        timestamp: opened.duration(to: camera.clock.now))
    else { return }
    frames.deliver(frame)
  }

  private func fail(_ error: FFmpegError) { frames.fail(error) }

  // MARK: - Session

  /// The first frame after frame number `after` (1-based count), as soon as it arrives.
  private func frame(after: Int) async throws -> Frame {
    guard let next = try await frames.next(after: after) else { throw CancellationError() }
    return next.frame
  }

  func nextPreview() async throws -> Frame {
    let frame = try await nextFrame()
    return await OffPool.quick { frame.downscaled(maxWidth: 320) }
  }

  /// The next frame as ffmpeg delivers it, full size.
  func nextFrame() async throws -> Frame {
    return try await frame(after: frames.count)
  }

  /// The frame nearest the shutter instant (now): from the ring, or the next one when it
  /// will be nearer than the newest.
  func capture() async throws -> Frame {
    try await burst(count: 1)[0]
  }

  /// The frames kept now (about the last second), oldest first: for tests of the choice.
  var keptFrames: [Frame] { frames.snapshot.0 }

  /// The frame nearest now, then the next `count − 1` frames of the stream.
  func burst(count: Int) async throws -> [Frame] {
    let shutter = opened.duration(to: camera.clock.now)
    let (ring, seen, failure) = frames.snapshot
    let interval = state.withLock { $0.frameInterval }
    if let failure { throw failure }
    func gap(_ frame: Frame) -> Duration {
      frame.timestamp > shutter ? frame.timestamp - shutter : shutter - frame.timestamp
    }
    var kept = ring.min { gap($0) < gap($1) }
    var index = seen
    if kept == nil || shutter - (ring.last?.timestamp ?? .zero) > interval / 2 {
      let next = try await frame(after: seen)
      index = seen + 1
      if let current = kept, gap(current) <= gap(next) {
        kept = current
      } else {
        kept = next
      }
    }
    guard let first = kept else { throw CancellationError() }
    var shots = [first]
    while shots.count < max(count, 1) {
      let next = try await frame(after: index)
      // NB: the stream's count, not the burst's: each shot is a frame newer than the last.
      index = max(index + 1, self.frames.count)
      shots.append(next)
    }
    return shots
  }

  /// The frames of the ring from `lead` before now, then each new one of the stream.
  func shutterFrames(lead: Duration) async throws -> ShutterFrames? {
    let instant = opened.duration(to: camera.clock.now)
    let (ring, seen, failure) = frames.snapshot
    if let failure { throw failure }
    let interval = state.withLock { $0.frameInterval }
    let held = ring.filter { $0.timestamp >= instant - lead }.map { frame in
      ShutterFrames.Held(timestamp: frame.timestamp) { frame }
    }
    let frames = frames
    return ShutterFrames(instant: instant, interval: interval, held: held, delivered: seen) {
      try await frames.next(after: $0)
    }
  }

  /// Waits on the stream: throws ffmpeg's end (the camera went away) as it happens.
  func watch() async throws { _ = try await frames.next(after: .max) }

  /// The camera's own exposure: ffmpeg reports none, so only the stream's size and rate.
  /// The name an IP camera's stream gives itself (its RTSP session name), unless it is a
  /// server's stock phrase such as GStreamer's "Session streamed with GStreamer".
  func reportedName() async -> CameraName? {
    guard CameraAddress.host(of: camera.input) != nil,
      let title = state.withLock({ $0.title }).map({ CameraAddress.redacted($0) }),
      CameraName.isMeaningful(title)
    else { return nil }
    return CameraName(make: "", model: title)
  }

  func ownSettings() async throws -> CameraSettings? {
    let (size, interval) = state.withLock { ($0.size, $0.frameInterval) }
    let mode = size.map { size -> String in
      let seconds = interval.secondsValue
      let rate = FrameRate(frames: Int((1000 / max(seconds, 1e-4)).rounded()), per: 1000)
      return "\(size.width)×\(size.height) \(rate)"
    }
    return .cameraOwn(mode: mode)
  }

  /// Closes the session; any number of callers may close it at once, and each returns once
  /// ffmpeg has been reaped and every descriptor closed.
  func close() async {
    let closing = state.withLock { state -> Task<Void, Never> in
      if let closing = state.closing { return closing }
      state.closed = true
      let closing = Task { await shutDown() }
      state.closing = closing
      return closing
    }
    await closing.value
  }

  private func shutDown() async {
    fail(.ended(input: camera.input, exit: "closed", lastLines: []))
    child.terminate(grace: .milliseconds(200))
    wake.signal()
    // NB: the reader returns at once when woken; its descriptors close only after it did.
    await reader.withLock { $0 }?.join()
    _ = try? await child.wait()
    child.closePipes()
    wake.close()
  }
}
