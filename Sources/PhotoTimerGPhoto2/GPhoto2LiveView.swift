import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX

/// A DSLR's live view: `gphoto2 --capture-movie --stdout`, a motion-JPEG stream read on a
/// thread of its own, each picture decoded there (off the cooperative pool).
///
/// The camera takes one gphoto2 at a time: while the live view streams, a capture would find
/// the device busy. So the session ``GPhoto2LiveSession/pause()``s it before the shutter
/// (gphoto2 asked to stop and waited for until it has closed the camera: the device is free)
/// and ``GPhoto2LiveSession/resume()``s it after. A gphoto2 that is closing the camera is
/// never killed mid-close (a SIGKILL then can leave a real camera's PTP session open until it
/// is replugged): it is waited for up to ``closeLimit``. How long each stop took is measured
/// on this camera, across sessions, and ``lead`` (how long before zero the engine starts the
/// hand-over) learns from it, starting cautious. Give it to a `LiveCamera` for the screen,
/// and both to ``GPhoto2Camera/services(location:liveView:view:)``.
public struct GPhoto2LiveView<C: Clock>: CameraSource where C.Duration == Duration {
  /// The gphoto2 program.
  public var executable: String
  /// A command put before the program (`["/bin/sh"]` for a script); empty by default.
  public var launcher: [String]
  /// The clock frames are stamped on.
  public var clock: C
  /// How long a gphoto2 asked to stop is waited for before it is killed: a camera closing its
  /// session takes its time (2–3 s is common), and one killed mid-close can stay claimed
  /// until it is replugged. Default 30 s; only a hung gphoto2 takes that long.
  public var closeLimit: Duration
  private let current = Locked<GPhoto2LiveSession<C>?>(nil)
  /// The stops measured on this camera, newest last (shared by every session it opens).
  let stops = Locked<[GPhoto2LiveStop]>([])

  /// The lead before zero until a stop has been measured: a real camera can take 2–3 s to
  /// end its live view (andi34/photobooth #412).
  public static var cautiousLead: Duration { .seconds(3) }

  /// How long before zero the live view should be stopped: ``cautiousLead`` until a stop has
  /// been measured on this camera, then half again the longest of the last five, plus
  /// 250 ms, capped at ``closeLimit``.
  public var lead: Duration {
    let recent = stops.withLock { $0.suffix(5).map(\.took) }
    guard let longest = recent.max() else { return Self.cautiousLead }
    return min(closeLimit, longest * 1.5 + .milliseconds(250))
  }

  /// The session opened last (the one the shutter pauses), if any.
  public var session: GPhoto2LiveSession<C>? { current.withLock { $0 } }

  /// Creates the live view.
  public init(
    executable: String = "gphoto2", launcher: [String] = [], clock: C,
    closeLimit: Duration = .seconds(30)
  ) {
    self.executable = executable
    self.launcher = launcher
    self.clock = clock
    self.closeLimit = closeLimit
  }

  /// `"gphoto2"`.
  public var make: String { "gphoto2" }
  /// `"live view"`.
  public var model: String { "live view" }

  /// Starts the live view.
  ///
  /// - Throws: ``GPhoto2Error/notInstalled`` without gphoto2, or the system error.
  public func open() async throws -> any CameraSession {
    let session = GPhoto2LiveSession(view: self)
    try session.resume()
    current.withLock { $0 = session }
    return session
  }
}

/// One stop of a live view: how long gphoto2 took to close the camera after SIGTERM, and
/// whether it had to be killed.
public struct GPhoto2LiveStop: Hashable, Sendable {
  /// SIGTERM to reaped.
  public var took: Duration
  /// Whether it outlasted ``GPhoto2LiveView/closeLimit`` and was killed (the camera may
  /// still hold its session).
  public var forced: Bool
  /// When it ended.
  public var ended: ContinuousClock.Instant
}

/// An open live view; see ``GPhoto2LiveView``.
public final class GPhoto2LiveSession<C: Clock>: CameraSession where C.Duration == Duration {
  private struct Movie {
    var child: ChildProcess
    var wake: WakePipe
    var reader: ReaderThread?
  }

  private struct State {
    var movie: Movie?
    /// A stop in progress: every caller of `pause()` waits for the same one.
    var stopping: Task<Void, Never>?
    var closed = false
    /// This session's last stop.
    var lastStop: GPhoto2LiveStop?
  }

  private let view: GPhoto2LiveView<C>
  private let opened: C.Instant
  private let state = Locked(State())
  private let frames = FrameMailbox(capacity: 1)

  init(view: GPhoto2LiveView<C>) {
    self.view = view
    opened = view.clock.now
  }

  /// How long stopping the live view takes, as measured on this camera (the median of the
  /// last stops), or `nil` before the first stop.
  public var margin: Duration? {
    let stops = view.stops.withLock { $0.map(\.took) }.sorted()
    return stops.isEmpty ? nil : stops[stops.count / 2]
  }

  /// Whether the live view is streaming (not paused for a shot, not closed).
  public var isStreaming: Bool { state.withLock { $0.movie != nil } }

  /// Whether a stop is under way: gphoto2 asked to end the live view and not yet gone.
  package var isStopping: Bool { state.withLock { $0.stopping != nil } }

  /// This session's last stop, or `nil` before the first.
  public var lastStop: GPhoto2LiveStop? { state.withLock { $0.lastStop } }

  /// The process id of the gphoto2 streaming now (or stopping), if any: a holder of the
  /// camera that is ours.
  public var streamingProcess: Int32? { state.withLock { $0.movie?.child.pid } }

  /// Starts (again) streaming: a new gphoto2 `--capture-movie`.
  ///
  /// - Throws: ``GPhoto2Error/notInstalled``, or the system error.
  public func resume() throws {
    guard state.withLock({ $0.movie == nil && $0.stopping == nil && !$0.closed }) else { return }
    let child: ChildProcess
    let wake: WakePipe
    do {
      (child, wake) = try ChildProcess.startWithWake(
        view.launcher + [view.executable, "--capture-movie", "--stdout"])
    } catch {
      // NB: a `catch where` on the typed error here crashes the 6.3 compiler (SIL ownership).
      if error.call == "posix_spawn", error.errno == .noSuchFile { throw GPhoto2Error.notInstalled }
      throw error
    }
    // NB: the movie is recorded under the lock the reader takes when the stream ends: else a
    // reader whose gphoto2 failed at once could look before the movie was recorded, take it
    // for a paused one, and drop the failure (the wait for a picture would never end).
    state.withLock { state in
      let reader = ReaderThread(name: "phototimer.gphoto2.live") { [self] in
        read(child, wake: wake)
      }
      state.movie = Movie(child: child, wake: wake, reader: reader)
    }
  }

  /// Stops streaming and waits until gphoto2 has been reaped, so the camera is free for a
  /// capture; records how long that took. A caller that comes while a stop is in progress
  /// (the shutter, just after the stop timed before zero) waits for that same stop.
  public func pause() async {
    let stopping = state.withLock { state -> Task<Void, Never>? in
      if let stopping = state.stopping { return stopping }
      guard let movie = state.movie else { return nil }
      state.movie = nil
      let stopping = Task { await self.stop(movie) }
      state.stopping = stopping
      return stopping
    }
    guard let stopping else { return }
    await stopping.value
    state.withLock { state in
      if state.stopping == stopping { state.stopping = nil }
    }
  }

  /// Waits until any stop under way has ended, without stopping a streaming live view.
  public func stopped() async {
    await state.withLock { $0.stopping }?.value
  }

  private func stop(_ movie: Movie) async {
    let start = ContinuousClock.now
    // NB: never killed while it closes the camera, only once it outlasts the limit (hung).
    movie.child.terminate(grace: view.closeLimit)
    // NB: its stream is still read until it has exited: a gphoto2 in the middle of writing a
    // picture to a full pipe would otherwise never get to its end, and be killed with the
    // camera still claimed. The reader stops after (a process it left may hold the pipe).
    let exit = try? await movie.child.wait()
    movie.wake.signal()
    await movie.reader?.join()
    movie.child.closePipes()
    movie.wake.close()
    let end = ContinuousClock.now
    let measured = GPhoto2LiveStop(
      took: start.duration(to: end), forced: exit == .signal(SIGKILL), ended: end)
    state.withLock { $0.lastStop = measured }
    // NB: a forced stop says how long the camera did not answer, not how long a close takes.
    guard !measured.forced else { return }
    view.stops.withLock { stops in
      stops.append(measured)
      if stops.count > 20 { stops.removeFirst() }
    }
  }

  private func read(_ child: ChildProcess, wake: WakePipe) {
    var splitter = MJPEGSplitter()
    var errors = ""
    var unreadable: SystemCallError?
    let end = ChildProcess.collect(
      [child.output, child.errors], wake: wake, endsWith: 0, drainOnWake: false, chunk: 1 << 16
    ) { source, bytes in
      guard source == 0 else {
        errors = String((errors + String(decoding: bytes, as: UTF8.self)).suffix(2000))
        return
      }
      for picture in splitter.append(bytes) {
        guard let frame = try? JPEGCodec.decode(picture, path: "gphoto2 live view") else {
          continue
        }
        var stamped = frame
        stamped.timestamp = opened.duration(to: view.clock.now)
        frames.deliver(stamped)
      }
    }
    switch end {
    // Woken: paused for a shot, or closed.
    case .woken: return
    case .failed(let error): unreadable = error
    case .ended, .timedOut: break
    }
    // The stream ended without being paused: the camera gives no live view, went away, or
    // its stream could not be read.
    var exit = unreadable == nil ? child.waitBlocking(timeout: .seconds(2)) : nil
    if exit == nil {
      // NB: still running (its stream unreadable, or its output closed early): stopped, so
      // that the device is free and what it said has an end.
      child.terminate(grace: .seconds(1))
      exit = child.waitBlocking(timeout: nil)
    }
    // NB: bounded: a process it left behind may hold the pipe open.
    if let ready = try? Poll.wait([(child.errors, .readable)], timeout: .seconds(1)),
      !ready[0].isEmpty, let rest = try? child.errors.read(upTo: 4096)
    {
      errors += String(decoding: rest, as: UTF8.self)
    }
    let paused = state.withLock { $0.movie?.child !== child }
    guard !paused else { return }
    let error: GPhoto2Error =
      if let unreadable {
        .failed("the live view could not be read (\(unreadable))")
      } else if errors.isEmpty {
        .failed("the live view ended (\((try? exit?.get())?.description ?? "still running"))")
      } else {
        .from(output: errors)
      }
    frames.fail(error)
  }

  /// The next picture of the live view, full size; while paused for a shot, the first after
  /// it resumes.
  public func nextFrame() async throws -> Frame {
    guard let next = try await frames.next(after: frames.count) else { throw CancellationError() }
    return next.frame
  }

  /// The next picture, scaled to 320 pixels wide (off the pool).
  public func nextPreview() async throws -> Frame {
    let frame = try await nextFrame()
    return await OffPool.quick { frame.downscaled(maxWidth: 320) }
  }

  /// The newest picture of the live view: a DSLR's photo is its own, shot by
  /// ``GPhoto2Camera``; this is what the screen showed at the shutter.
  public func capture() async throws -> Frame {
    if let latest = frames.latest { return latest }
    return try await nextFrame()
  }

  /// Stops the live view and ends every wait.
  public func close() async {
    state.withLock { $0.closed = true }
    await pause()
    frames.close()
  }
}
