import Foundation
import PhotoTimerConcurrency
import PhotoTimerImaging

/// dlib's face model, loaded once per process on a thread of its own, the first time it is
/// asked for. A reading that failed (the model not installed yet) is tried again when it is
/// next asked for: a booth left running picks it up once it is installed.
///
/// Reading the model takes about 0.6 s warm and 2.6 s from a cold disk, and 100 MB of memory,
/// so it is read once and only when a run may need it: ``preload()`` as the camera opens, so
/// that it is in by the time the camera has settled; ``finder()`` waits for it. Neither blocks
/// the cooperative pool or the main actor: the reading runs on a thread of its own.
///
/// ```swift
/// FaceModel.standard.preload()                  // as the camera opens
/// let finder = try await FaceModel.standard.finder()
/// ```
public final class FaceModel: Sendable {
  /// Debian's model (`libdlib-data`), for every run of this process.
  public static let standard = FaceModel(path: DlibFaceFinder.standardModelPath)

  /// Where the model is read from.
  public let path: String
  /// The reading under way or done, and whether it failed; `nil` before the first.
  private let reading = Locked<(loaded: OneShot<Loaded>, failed: Locked<Bool>)?>(nil)

  /// What loading gave: the finder and how long reading it took.
  private struct Loaded: Sendable {
    let finder: DlibFaceFinder
    let duration: Duration
  }

  /// A model read from `path` once asked for.
  public init(path: String) {
    self.path = path
  }

  /// Whether the model file is there (it may still fail to load).
  public var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }

  /// Starts reading the model, unless it is being read or was read; a reading that failed
  /// is started again. Returns at once.
  public func preload() {
    _ = current()
  }

  /// The reading to wait for: the one under way or done, or a new one when there was none or
  /// the last failed.
  private func current() -> OneShot<Loaded> {
    let (loaded, failed, start) = reading.withLock {
      reading -> (OneShot<Loaded>, Locked<Bool>, Bool) in
      if let reading, !reading.failed.withLock({ $0 }) {
        return (reading.loaded, reading.failed, false)
      }
      let next = (loaded: OneShot<Loaded>(), failed: Locked(false))
      reading = next
      return (next.loaded, next.failed, true)
    }
    guard start else { return loaded }
    let path = path
    let thread = Thread {
      let clock = ContinuousClock()
      let start = clock.now
      let result = Result {
        Loaded(
          finder: try DlibFaceFinder.load(path: path), duration: start.duration(to: clock.now))
      }
      // NB: marked before it is told: a caller woken by the failure that asks again starts
      // a new reading.
      if case .failure = result { failed.withLock { $0 = true } }
      loaded.fulfil(result)
    }
    thread.name = "phototimer.face-model"
    thread.start()
    return loaded
  }

  /// The finder, once the model is read (starting the reading if nobody has).
  ///
  /// - Throws: ``FaceModelError`` when the model is missing or unreadable;
  ///   `CancellationError` when the waiting task is cancelled (the reading goes on, for the
  ///   next run).
  public func finder() async throws -> DlibFaceFinder {
    try await current().value().finder
  }

  /// How long reading the model took, once it is read.
  ///
  /// - Throws: What ``finder()`` throws.
  public func loadDuration() async throws -> Duration {
    try await current().value().duration
  }
}
