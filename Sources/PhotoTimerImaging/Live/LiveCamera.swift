import PhotoTimer
import PhotoTimerConcurrency

/// A camera that lives as long as the screen, not as long as a run: opened once, its stream
/// runs (and can be watched through ``previews(fitting:mirrored:)``) until it is closed.
///
/// A `LiveCamera` is itself a ``CameraSource``: give it to a ``CameraPipeline`` and each run
/// borrows the running stream instead of opening the camera. The run's camera step settles
/// and meters on the frames already flowing (at once when the camera has settled), and the
/// capture takes the frame nearest zero from the same session: no reopen, no mode switch,
/// no second process on the device. Ending a run (captured, failed or cancelled) ends only
/// the borrow; ``close()`` closes the camera and everything under it, and ends every
/// preview stream.
///
/// ```swift
/// let camera = LiveCamera(FFmpegCamera(input: "/dev/video0", format: "v4l2", clock: clock))
/// try await camera.start()
/// let pipeline = CameraPipeline(source: camera, sink: store, clock: clock)
/// for try await frame in camera.previews(fitting: PreviewSize(width: 640, height: 480)) {
///   show(frame)
/// }
/// ```
public final class LiveCamera: CameraSource {
  /// The camera's life, one state at a time.
  private enum Life {
    /// Nothing opened yet.
    case idle
    /// The pump is opening the session.
    case opening(pump: Task<Void, Never>)
    /// The session streams; the pump delivers its frames.
    case open(pump: Task<Void, Never>, session: any CameraSession)
    /// Closed, or closing: the task that closes it.
    case closed(Task<Void, Never>)
  }

  /// The camera underneath.
  public let source: any CameraSource
  /// The previews a joining run's settler starts from.
  public let history: Int
  /// The width the previews a run meters are scaled to.
  public let meteringWidth: Int
  private let life = Locked(Life.idle)
  private let opened = OneShot<any CameraSession>()
  /// The stream: the newest frame and the last ``history``, for previews and joining runs.
  private let frames: FrameMailbox
  /// The faces followed in the picture now (by a run's people step or a count that waits for
  /// the people), for the screens to outline over the previews.
  public let faces = FacesInView()
  /// The faces followed in the picture now: ``faces``.
  public var facesInView: FacesInView? { faces }
  /// The camera's controls: its source's.
  public var controls: (any CameraControls)? { source.controls }

  /// Creates the live camera; nothing is opened until ``start()`` (or the first run).
  ///
  /// - Parameters:
  ///   - source: The camera.
  ///   - history: Frames kept for a run that joins the stream (default 8).
  ///   - meteringWidth: The width a run's previews are scaled to (default 320).
  public init(_ source: any CameraSource, history: Int = 8, meteringWidth: Int = 320) {
    self.source = source
    self.history = max(history, 1)
    self.meteringWidth = max(meteringWidth, 1)
    frames = FrameMailbox(capacity: max(history, 1))
  }

  /// The source's maker.
  public var make: String { source.make }
  /// The source's model.
  public var model: String { source.model }

  /// The number of frames the stream has delivered.
  public var frameCount: Int { frames.count }

  /// When the newest frame was taken (on the source's clock), or `nil` before the first.
  public var latestTimestamp: Duration? { frames.latest?.timestamp }

  /// Whether the stream stopped with an error (the camera went away, ffmpeg ended).
  public var isFailed: Bool { frames.failure != nil }

  /// Whether ``close()`` was called.
  public var isClosed: Bool {
    life.withLock { life in
      if case .closed = life { return true }
      return false
    }
  }

  /// Opens the camera and starts its stream; returns once it is open. Calling it again, or
  /// from several tasks at once, opens it once.
  ///
  /// - Throws: What the source's `open()` throws, or `CancellationError` when the camera was
  ///   closed (or the calling task cancelled) first.
  public func start() async throws {
    life.withLock { life in
      guard case .idle = life else { return }
      life = .opening(pump: Task { await self.openAndPump() })
    }
    _ = try await opened.value()
  }

  private func openAndPump() async {
    let session: any CameraSession
    do {
      session = try await source.open()
    } catch {
      frames.fail(error)
      opened.fulfil(.failure(error))
      return
    }
    let closedAlready = life.withLock { life -> Bool in
      guard case .opening(let pump) = life else { return true }
      life = .open(pump: pump, session: session)
      return false
    }
    if closedAlready {
      await session.close()
      opened.fulfil(.failure(CancellationError()))
      return
    }
    opened.fulfil(.success(session))
    while true {
      let frame: Frame
      do {
        frame = try await session.nextFrame()
      } catch {
        if !isClosed { frames.fail(error) }
        return
      }
      frames.deliver(frame)
    }
  }

  /// Waits for the stream's first frame; returns at once when it has one. A camera that opens
  /// (a process started, a connection made) has not given a picture yet.
  ///
  /// - Throws: Why the stream failed, or `CancellationError` when the camera was closed or the
  ///   task cancelled.
  public func firstFrame() async throws {
    guard try await frame(after: 0) != nil else { throw CancellationError() }
  }

  /// The newest frame after frame number `after`, as soon as there is one: the latest at
  /// once when the stream has moved on, else the next to arrive. `nil` once closed.
  ///
  /// - Throws: Why the stream failed, or `CancellationError` when the task is cancelled.
  func frame(after: Int) async throws -> FrameMailbox.Delivery? {
    if isClosed { return nil }
    return try await frames.next(after: after)
  }

  /// The stream's previews: each the newest frame, scaled down (off the cooperative pool) to
  /// fit inside `room` (never up: a screen enlarges by itself), mirrored left to right when `mirrored` (the photo never is).
  ///
  /// A consumer slower than the camera skips frames; it never falls behind. The stream ends
  /// when the camera is closed and throws when the camera fails. It does not start the
  /// camera: call ``start()``.
  public func previews(fitting room: PreviewSize, mirrored: Bool = false) -> PreviewStream {
    PreviewStream(camera: self, room: room, mirrored: mirrored)
  }

  /// Borrows the running stream for one run, starting the camera when it is not open yet.
  /// Closing the borrow leaves the camera running.
  public func open() async throws -> any CameraSession {
    try await start()
    let session = life.withLock { life -> (any CameraSession)? in
      guard case .open(_, let session) = life else { return nil }
      return session
    }
    guard let session else { throw CancellationError() }
    return Borrow(camera: self, session: session)
  }

  /// Closes the camera: stops its stream and every thread and child process under it, ends
  /// every preview stream. Any number of callers may close it at once; each returns when it
  /// is closed.
  public func close() async {
    let closing = life.withLock { life -> Task<Void, Never> in
      var pump: Task<Void, Never>?
      var session: (any CameraSession)?
      switch life {
      case .closed(let closing): return closing
      case .idle: break
      // NB: a session the pump opens from here on is closed by the pump itself.
      case .opening(let opening): pump = opening
      case .open(let opening, let open):
        pump = opening
        session = open
      }
      let closing = Task { [pump, session] in
        pump?.cancel()
        self.opened.fulfil(.failure(CancellationError()))
        self.frames.close()
        self.faces.close()
        await pump?.value
        await session?.close()
      }
      life = .closed(closing)
      return closing
    }
    await closing.value
  }

  /// The frames kept for a joining run, oldest first.
  fileprivate var recentFrames: [Frame] { frames.snapshot.recent }

  /// One run's view of the running stream.
  private final class Borrow: CameraSession {
    let camera: LiveCamera
    let session: any CameraSession

    init(camera: LiveCamera, session: any CameraSession) {
      self.camera = camera
      self.session = session
    }

    func nextPreview() async throws -> Frame {
      let frame = try await nextFrame()
      let width = camera.meteringWidth
      return await OffPool.quick { frame.downscaled(maxWidth: width) }
    }

    func nextFrame() async throws -> Frame {
      let seen = camera.frameCount
      guard let next = try await camera.frame(after: seen) else { throw CancellationError() }
      return next.frame
    }

    func recentPreviews() async throws -> [Frame] {
      let frames = camera.recentFrames
      let width = camera.meteringWidth
      return await OffPool.quick { frames.map { $0.downscaled(maxWidth: width) } }
    }

    func capture() async throws -> Frame { try await session.capture() }

    func burst(count: Int) async throws -> [Frame] { try await session.burst(count: count) }

    func shutterFrames(lead: Duration) async throws -> ShutterFrames? {
      try await session.shutterFrames(lead: lead)
    }

    func ownSettings() async throws -> CameraSettings? { try await session.ownSettings() }

    func reportedName() async -> CameraName? { await session.reportedName() }

    /// The stream the screen holds: a failure of it is the run's camera lost.
    func watch() async throws { _ = try await camera.frame(after: .max) }

    /// The run is over; the camera stays open for the screen.
    func close() async {}
  }
}

/// A live camera's previews: always the newest frame, scaled to fit a room.
///
/// ```swift
/// for try await frame in camera.previews(fitting: PreviewSize(width: 120, height: 80)) {
///   draw(frame)  // frame.timestamp: when the camera took it
/// }
/// ```
public struct PreviewStream: AsyncSequence, Sendable {
  /// A scaled frame, carrying its capture timestamp.
  public typealias Element = Frame

  let camera: LiveCamera
  /// The room previews are scaled to fit.
  public let room: PreviewSize
  /// Whether previews are mirrored left to right.
  public let mirrored: Bool

  /// Starts reading at the newest frame.
  public func makeAsyncIterator() -> Iterator {
    Iterator(camera: camera, room: room, mirrored: mirrored)
  }

  /// Reads the stream.
  public struct Iterator: AsyncIteratorProtocol {
    let camera: LiveCamera
    let room: PreviewSize
    let mirrored: Bool
    var seen = 0

    /// The newest frame after the last one returned, scaled; `nil` once the camera closed.
    ///
    /// - Throws: Why the camera's stream failed, or `CancellationError`.
    public mutating func next() async throws -> Frame? {
      guard let (sequence, frame) = try await camera.frame(after: seen) else { return nil }
      seen = sequence
      // NB: never enlarged: a screen scales up by itself, for free; a frame that already fits
      // is passed as it is (no copy) unless it is to be mirrored.
      if frame.width <= room.width, frame.height <= room.height, !mirrored { return frame }
      let room = PreviewSize(
        width: Swift.min(room.width, frame.width), height: Swift.min(room.height, frame.height))
      let mirrored = mirrored
      return await OffPool.quick { frame.scaled(toFit: room, mirrored: mirrored) }
    }
  }
}
