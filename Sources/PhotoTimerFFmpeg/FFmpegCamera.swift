import Foundation
import PhotoTimer
import PhotoTimerImaging

#if canImport(Glibc)
  import Glibc
#endif

/// A camera read through `ffmpeg`: V4L2 webcams (`-f v4l2 -i /dev/video0`), IP cameras
/// (`rtsp://…`, `http://…mjpeg`) and ffmpeg's `lavfi` test sources.
///
/// ffmpeg runs as a child process with an argument array (never a shell) and writes raw RGB
/// frames to a pipe; a thread of its own reads them (never a cooperative-pool thread) into a
/// ring buffer of about the last second, each stamped with the time it arrived. At the shutter
/// the frame nearest that instant is kept: no shutter lag. Closing the session sends SIGTERM,
/// then SIGKILL after 200 ms, and reaps ffmpeg.
///
/// ```swift
/// let camera = FFmpegCamera(input: "testsrc2=size=640x480:rate=30", format: "lavfi",
///                           clock: ContinuousClock())
/// ```
public struct FFmpegCamera<C: Clock>: CameraSource where C.Duration == Duration {
  /// What ffmpeg reads: a device, a URL, a file or a lavfi graph.
  public var input: String
  /// ffmpeg's input format (`-f`), such as `v4l2` or `lavfi`; `nil` lets ffmpeg guess.
  public var format: String?
  /// The ffmpeg program.
  public var executable: String
  /// A command put before the program, such as `["nice", "-n", "5"]`, or `["/bin/sh"]` to
  /// run a script; empty by default.
  public var launcher: [String]
  /// The longest wait for the first frame (opening a network camera can take a while).
  public var firstFrameTimeout: Duration
  /// The longest gap between frames before the stream counts as stalled.
  public var stallTimeout: Duration
  /// The clock frames are stamped on.
  public var clock: C

  /// Creates the camera.
  ///
  /// - Parameters:
  ///   - input: What ffmpeg reads.
  ///   - format: ffmpeg's input format, or `nil`.
  ///   - executable: The ffmpeg program (default `ffmpeg` on PATH).
  ///   - launcher: A command put before the program (default none).
  ///   - firstFrameTimeout: The longest wait for the first frame (default 10 s).
  ///   - stallTimeout: The longest gap between frames (default 2 s).
  ///   - clock: The clock frames are stamped on.
  public init(
    input: String, format: String? = nil, executable: String = "ffmpeg", launcher: [String] = [],
    firstFrameTimeout: Duration = .seconds(10), stallTimeout: Duration = .seconds(2), clock: C
  ) {
    self.input = input
    self.format = format
    self.executable = executable
    self.launcher = launcher
    self.firstFrameTimeout = firstFrameTimeout
    self.stallTimeout = stallTimeout
    self.clock = clock
  }

  /// `"ffmpeg"`.
  public var make: String { "ffmpeg" }
  /// The input, e.g. `"/dev/video0"`.
  public var model: String { input }

  /// ffmpeg's arguments for this input.
  public var arguments: [String] {
    var arguments = ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "info"]
    // NB: test sources and files are read at their own frame rate, like a live camera.
    if format == "lavfi" || FileManager.default.fileExists(atPath: input) && format == nil {
      arguments.append("-re")
    }
    if let format { arguments += ["-f", format] }
    arguments += ["-i", input, "-an", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    return arguments
  }

  /// Starts ffmpeg.
  ///
  /// - Throws: ``FFmpegError/notInstalled(executable:)`` when there is no ffmpeg.
  public func open() async throws -> any CameraSession {
    let child: ChildProcess
    do {
      child = try ChildProcess(command: launcher + [executable] + arguments)
    } catch let error as POSIXError where error.code == .ENOENT {
      throw FFmpegError.notInstalled(executable: executable)
    }
    return FFmpegSession(camera: self, child: child)
  }

  /// Opens the camera as its concrete session type (for tests and benchmarks).
  func openSession() throws -> FFmpegSession<C> {
    let child: ChildProcess
    do {
      child = try ChildProcess(command: launcher + [executable] + arguments)
    } catch let error as POSIXError where error.code == .ENOENT {
      throw FFmpegError.notInstalled(executable: executable)
    }
    return FFmpegSession(camera: self, child: child)
  }
}

/// An open ffmpeg camera.
final class FFmpegSession<C: Clock>: CameraSession where C.Duration == Duration {
  private struct State {
    var ring: [Frame] = []
    var capacity = 30
    var frameCount = 0
    var size: (width: Int, height: Int)?
    var frameInterval = Duration.seconds(1) / 30
    var failure: FFmpegError?
    var waiters: [Int: (after: Int, continuation: CheckedContinuation<Frame, any Error>)] = [:]
    var nextWaiter = 0
    var lastLines: [String] = []
    var closed = false
  }

  private let camera: FFmpegCamera<C>
  let child: ChildProcess
  /// When the session opened: frame timestamps count from here.
  let opened: C.Instant
  private let state = Locked(State())
  private let readerDone = Locked(false)
  private let wake: (read: Int32, write: Int32)

  init(camera: FFmpegCamera<C>, child: ChildProcess) {
    self.camera = camera
    self.child = child
    opened = camera.clock.now
    var fds: [Int32] = [-1, -1]
    if !makePipe(&fds) { fds = [-1, -1] }
    wake = (fds[0], fds[1])
    let thread = Thread { [self] in
      readLoop()
      readerDone.withLock { $0 = true }
    }
    thread.name = "phototimer.ffmpeg"
    thread.start()
  }

  /// The number of frames received so far.
  var frameCount: Int { state.withLock { $0.frameCount } }

  // MARK: - Reading

  private func readLoop() {
    var pending = [UInt8]()
    var errorText = ""
    var descriptors = [
      pollfd(fd: child.output, events: Int16(POLLIN), revents: 0),
      pollfd(fd: child.errors, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var outputOpen = true
    var errorsOpen = true
    var lastFrameAt = ContinuousClock.now
    var sawFrame = false
    while outputOpen {
      descriptors[1].fd = errorsOpen ? child.errors : -1
      let ready = Glibc.poll(&descriptors, 3, 100)
      if ready < 0, errno != EINTR { break }
      if descriptors[2].revents != 0 { return }
      if errorsOpen, descriptors[1].revents != 0 {
        let count = read(child.errors, &buffer, buffer.count)
        if count <= 0 {
          errorsOpen = false
        } else {
          errorText += String(decoding: buffer[0..<count], as: UTF8.self)
          while let newline = errorText.firstIndex(where: { $0 == "\n" || $0 == "\r" }) {
            let line = String(errorText[..<newline]).trimmingCharacters(in: .whitespaces)
            errorText = String(errorText[errorText.index(after: newline)...])
            if !line.isEmpty { heard(line) }
          }
        }
      }
      if descriptors[0].revents != 0 {
        let count = read(child.output, &buffer, buffer.count)
        if count <= 0 {
          outputOpen = false
        } else {
          pending.append(contentsOf: buffer[0..<count])
          while let size = state.withLock({ $0.size }),
            pending.count >= size.width * size.height * 3
          {
            let bytes = size.width * size.height * 3
            deliver(Array(pending[0..<bytes]), size: size)
            pending.removeFirst(bytes)
            lastFrameAt = ContinuousClock.now
            sawFrame = true
          }
        }
      }
      let limit = sawFrame ? camera.stallTimeout : camera.firstFrameTimeout
      if outputOpen, lastFrameAt.duration(to: .now) > limit {
        let seconds = Int(limit.components.seconds)
        fail(.stalled(input: camera.input, seconds: seconds, lastLines: lines()))
        return
      }
    }
    // The stream ended: why?
    if !errorText.isEmpty { heard(errorText) }
    let exit = child.stop(grace: .milliseconds(200))
    if state.withLock({ $0.closed }) { return }
    // NB: how ffmpeg ended comes first: killed mid-frame is a kill, not a cut-off frame.
    let cleanExit = exit == .status(0)
    if cleanExit, let size = state.withLock({ $0.size }), !pending.isEmpty {
      fail(
        .partialFrame(
          input: camera.input, bytes: pending.count, expected: size.width * size.height * 3))
    } else if state.withLock({ $0.size }) == nil {
      fail(.noVideo(input: camera.input, lastLines: lines()))
    } else {
      let description: String =
        switch exit {
        case .signal(let number)?: "killed by signal \(number)"
        case .status(let code)?: "exit status \(code)"
        case nil: "ended"
        }
      fail(.ended(input: camera.input, exit: description, lastLines: lines()))
    }
  }

  /// One line of ffmpeg's error output: kept, and read for the frame size.
  private func heard(_ line: String) {
    state.withLock { state in
      state.lastLines.append(line)
      if state.lastLines.count > 20 { state.lastLines.removeFirst() }
      // "Stream #0:0: Video: rawvideo (RGB[24] / 0x18424752), rgb24(pc), 640x480 [SAR 1:1
      // DAR 4:3], q=2-31, 221184 kb/s, 30 fps, 30 tbn" on the output side.
      guard state.size == nil, line.contains("Video: rawvideo"), line.contains("rgb24") else {
        return
      }
      for part in line.split(separator: ",") {
        let fields = part.trimmingCharacters(in: .whitespaces).split(separator: " ")
        if let first = fields.first {
          let numbers = first.split(separator: "x").compactMap { Int($0) }
          if numbers.count == 2, numbers[0] > 0, numbers[1] > 0, state.size == nil {
            state.size = (numbers[0], numbers[1])
          }
        }
        if fields.count == 2, fields[1] == "fps", let rate = Double(fields[0]), rate > 0 {
          state.frameInterval = .nanoseconds(Int64(1e9 / rate))
          state.capacity = max(3, min(Int(rate.rounded(.up)), 60))
        }
      }
      // NB: keep about a second, but never more than 256 MiB of frames.
      if let size = state.size {
        state.capacity = max(2, min(state.capacity, (256 << 20) / (size.width * size.height * 3)))
      }
    }
  }

  private func lines() -> [String] {
    state.withLock { state in
      state.lastLines.filter { !$0.hasPrefix("Input #") && !$0.hasPrefix("Output #") }
        .suffix(3).map { $0 }
    }
  }

  private func deliver(_ pixels: [UInt8], size: (width: Int, height: Int)) {
    guard
      let frame = Frame(
        width: size.width, height: size.height, pixels: pixels,
        timestamp: opened.duration(to: camera.clock.now))
    else { return }
    let ready = state.withLock { state -> [CheckedContinuation<Frame, any Error>] in
      state.ring.append(frame)
      if state.ring.count > state.capacity {
        state.ring.removeFirst(state.ring.count - state.capacity)
      }
      state.frameCount += 1
      let count = state.frameCount
      let due = state.waiters.filter { $0.value.after < count }
      for key in due.keys { state.waiters.removeValue(forKey: key) }
      return due.values.map(\.continuation)
    }
    for waiter in ready { waiter.resume(returning: frame) }
  }

  private func fail(_ error: FFmpegError) {
    let waiters = state.withLock { state -> [CheckedContinuation<Frame, any Error>] in
      if state.failure == nil { state.failure = error }
      defer { state.waiters = [:] }
      return state.waiters.values.map(\.continuation)
    }
    for waiter in waiters { waiter.resume(throwing: error) }
  }

  // MARK: - Session

  /// The first frame after frame number `after` (1-based count), as soon as it arrives.
  private func frame(after: Int) async throws -> Frame {
    let id = state.withLock { state -> Int in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let now = state.withLock { state -> Result<Frame, any Error>? in
          if let failure = state.failure { return .failure(failure) }
          if state.closed || Task.isCancelled { return .failure(CancellationError()) }
          if state.frameCount > after, let last = state.ring.last { return .success(last) }
          state.waiters[id] = (after, continuation)
          return nil
        }
        if let now { continuation.resume(with: now) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  func nextPreview() async throws -> Frame {
    let seen = state.withLock { $0.frameCount }
    return try await frame(after: seen).downscaled(maxWidth: 320)
  }

  /// The frame nearest the shutter instant (now): from the ring, or the next one when it
  /// will be nearer than the newest.
  func capture() async throws -> Frame {
    try await burst(count: 1)[0]
  }

  /// The frame nearest now, then the next `count − 1` frames of the stream.
  func burst(count: Int) async throws -> [Frame] {
    let shutter = opened.duration(to: camera.clock.now)
    let (ring, seen, interval, failure) = state.withLock {
      ($0.ring, $0.frameCount, $0.frameInterval, $0.failure)
    }
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
    var frames = [first]
    while frames.count < max(count, 1) {
      let next = try await frame(after: index)
      index = max(index + 1, state.withLock { $0.frameCount })
      frames.append(next)
    }
    return frames
  }

  func close() async {
    let first = state.withLock { state -> Bool in
      defer { state.closed = true }
      return !state.closed
    }
    guard first else { return }
    fail(.ended(input: camera.input, exit: "closed", lastLines: []))
    child.stop(grace: .milliseconds(200))
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    // NB: the reader returns at once when woken; wait for it before closing its descriptors.
    let deadline = ContinuousClock.now + .seconds(2)
    while !readerDone.withLock({ $0 }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    child.closePipes()
    Glibc.close(wake.read)
    Glibc.close(wake.write)
  }
}
