import Foundation
import PhotoTimerConcurrency
import PhotoTimerImaging

/// dlib's face model, loaded once per process on a thread of its own, the first time it is
/// asked for.
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
  private let started = Locked(false)
  private let loaded = OneShot<Loaded>()

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

  /// Starts reading the model, unless it was started already; returns at once.
  public func preload() {
    let first = started.withLock { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    let path = path
    let loaded = loaded
    let thread = Thread {
      let clock = ContinuousClock()
      let start = clock.now
      loaded.fulfil(
        Result {
          Loaded(
            finder: try DlibFaceFinder.load(path: path), duration: start.duration(to: clock.now))
        })
    }
    thread.name = "phototimer.face-model"
    thread.start()
  }

  /// The finder, once the model is read (starting the reading if nobody has).
  ///
  /// - Throws: ``FaceModelError`` when the model is missing or unreadable;
  ///   `CancellationError` when the waiting task is cancelled (the reading goes on, for the
  ///   next run).
  public func finder() async throws -> DlibFaceFinder {
    preload()
    return try await loaded.value().finder
  }

  /// How long reading the model took, once it is read.
  ///
  /// - Throws: What ``finder()`` throws.
  public func loadDuration() async throws -> Duration {
    preload()
    return try await loaded.value().duration
  }
}
