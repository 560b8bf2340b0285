import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// How the look is chosen.
public enum FilterChoice: Hashable, Sendable {
  /// The analysis of the preview chooses (the default).
  case auto
  /// This look, whatever the scene.
  case fixed(PhotoFilter)
  /// No look: the photo as taken, and no analysis.
  case none
}

/// The real camera and filter steps, built on a ``CameraSource`` and a ``PhotoSink``.
///
/// - The camera step opens the source, waits for auto-exposure to settle (by watching the
///   previews), meters the last preview and picks the exposure; it hands that preview to
///   the filter step.
/// - The filter step waits for the preview and suggests a look.
/// - At zero, capture takes the full-resolution frame, applies the look (off the cooperative
///   pool) and writes the photo; with ``keepOriginal`` the unfiltered one too.
/// - At the end of every run the camera is closed.
///
/// ```swift
/// let pipeline = CameraPipeline(
///   source: SceneCamera(preset: .overcast, clock: clock), sink: PhotoStore(folder: pictures),
///   clock: clock)
/// let engine = PhotoTimerEngine(configuration: .init(),
///                               services: pipeline.services(location: gps.preparation()),
///                               clock: clock)
/// ```
public final class CameraPipeline<C: Clock>: Sendable where C.Duration == Duration {
  /// The camera.
  public let source: any CameraSource
  /// Where photos are written; `nil` takes them without writing a file.
  public let sink: (any PhotoSink)?
  /// How the look is chosen.
  public let filterChoice: FilterChoice
  /// Whether the unfiltered photo is saved too (as `…_original.jpg`).
  public let keepOriginal: Bool
  /// Photos taken at the shutter: the frame at zero and the next `burst − 1` frames, saved
  /// as `…_burst2.jpg` and so on.
  public let burst: Int
  /// How long after zero the photo may come from when the people step follows someone: the
  /// camera keeps the first frame from a quarter second before zero to this long after it
  /// where everyone is there, eyes open and sharp (see ``FrameChoice``). Zero keeps the frame
  /// nearest zero; a burst keeps its own frames.
  public let blinkWindow: Duration
  /// How settling is detected.
  public let settler: ExposureSettler
  /// How the exposure is chosen from the metered brightness.
  public let program: ExposureProgram
  /// How the look is suggested.
  public let advisor: FilterAdvisor
  private let clock: C
  private let now: @Sendable () -> Date
  private let timeZone: TimeZone
  let current = Locked<Run?>(nil)

  /// One run's camera: the open session and the preview for the filter step.
  final class Run: Sendable {
    let session = Locked<(any CameraSession)?>(nil)
    let preview = OneShot<(frame: Frame, sceneEV: Double)>()
    /// The suggestion, computed the moment the camera settled.
    let suggestion = Locked<FilterSuggestion?>(nil)
    /// What the people step saw last.
    let people = Locked<PeopleSummary?>(nil)
    /// The people step's watcher, for choosing the frame at zero.
    let watcher = Locked<PeopleWatcher?>(nil)
  }

  /// Creates the pipeline.
  ///
  /// - Parameters:
  ///   - source: The camera.
  ///   - sink: Where photos are written, or `nil` for none.
  ///   - clock: The clock settling is timed on.
  ///   - filter: How the look is chosen (default: by analysis).
  ///   - keepOriginal: Also save the unfiltered photo.
  ///   - burst: How many photos to take at the shutter, one per frame.
  ///   - blinkWindow: How long after zero the photo may come from, for everyone's eyes open
  ///     (default 1 s; zero: the frame nearest zero).
  ///   - settler: How settling is detected.
  ///   - program: How the exposure is chosen.
  ///   - advisor: How the look is suggested.
  ///   - now: The wall clock, for the photo's date.
  ///   - timeZone: The time zone the photo's date is written in.
  public init(
    source: any CameraSource, sink: (any PhotoSink)?, clock: C, filter: FilterChoice = .auto,
    keepOriginal: Bool = false, burst: Int = 1, blinkWindow: Duration = .seconds(1),
    settler: ExposureSettler = ExposureSettler(),
    program: ExposureProgram = .standard, advisor: FilterAdvisor = FilterAdvisor(),
    now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current
  ) {
    self.source = source
    self.sink = sink
    self.clock = clock
    self.filterChoice = filter
    self.keepOriginal = keepOriginal
    self.burst = max(burst, 1)
    self.blinkWindow = max(blinkWindow, .zero)
    self.settler = settler
    self.program = program
    self.advisor = advisor
    self.now = now
    self.timeZone = timeZone
  }

  /// The engine's services: this camera and filter, with `location` and `people` (off
  /// unless given; see ``peopleStep(finder:interval:)``).
  public func services(
    location: Preparation<LocationTag>,
    people: Preparation<PeopleSummary> = .disabled(reason: "no face finder")
  ) -> PhotoTimerServices {
    PhotoTimerServices(camera: camera(), location: location, filter: filterStep(), people: people)
  }

  /// The camera step, the capture and the release.
  public func camera() -> CameraService {
    var service = CameraService(
      prepare: { try await self.prepare() }, shoot: { try await self.capture($0) },
      release: { await self.release() })
    service.watch = { try await self.watch() }
    return service
  }

  /// The filter step.
  public func filterStep() -> Preparation<FilterSuggestion> {
    switch filterChoice {
    case .none:
      return .disabled(reason: "no look: the photo as taken")
    case .fixed(let filter):
      return Preparation(isRequired: false) {
        FilterSuggestion(filter: filter, confidence: 1, reason: "chosen by you")
      }
    case .auto:
      // NB: the camera step computes the suggestion as it settles (under a millisecond), so
      // when the shutter fires right as the camera becomes ready the look is not lost.
      return Preparation(
        isRequired: false, ready: { self.current.withLock { $0 }?.suggestion.withLock { $0 } }
      ) {
        StepStatus.report("waiting for the camera's preview")
        let run = self.run()
        let preview = try await run.preview.value()
        return run.suggestion.withLock { $0 }
          ?? self.advisor.suggest(for: preview.frame, sceneEV: preview.sceneEV)
      }
    }
  }

  /// This run's state, created by whichever step asks first.
  func run() -> Run {
    current.withLock { current in
      if let run = current { return run }
      let run = Run()
      current = run
      return run
    }
  }

  private func prepare() async throws -> CameraSettings {
    let run = run()
    do {
      let session = try await source.open()
      run.session.withLock { $0 = session }
      let report = try await settler.settle(session, clock: clock)
      let sceneEV = Metering.sceneEV(of: report.preview)
      if filterChoice == .auto {
        let suggestion = advisor.suggest(for: report.preview, sceneEV: sceneEV)
        run.suggestion.withLock { $0 = suggestion }
      }
      run.preview.fulfil(.success((report.preview, sceneEV)))
      // NB: a camera that exposes by itself (a webcam) reports its own settings; the program
      // would only invent an aperture and an ISO it never set.
      if var own = try await session.ownSettings() {
        own.sceneEV = sceneEV
        return own
      }
      return program.settings(forSceneEV: sceneEV)
    } catch {
      run.preview.fulfil(.failure(PreviewUnavailable(cause: error)))
      throw error
    }
  }

  private func capture(_ request: CaptureRequest) async throws -> CapturedShot {
    let run = run()
    guard let session = run.session.withLock({ $0 }) else {
      throw PreviewUnavailable(cause: CancellationError())
    }
    let frames: [Frame]
    var people: PeopleSummary?
    if let (frame, summary) = try await peopleFrame(session, run: run) {
      frames = [frame]
      people = summary
    } else {
      frames = try await burst > 1 ? session.burst(count: burst) : [session.capture()]
    }
    let date = now()
    let name = await session.reportedName() ?? CameraName(make: source.make, model: source.model)
    let look = Look(request.filter)
    var first: URL?
    for (index, frame) in frames.enumerated() {
      let photo = try await look.apply(to: frame)
      guard let sink else { continue }
      // NB: the photo's time is the shutter's even when its frame came a little later.
      let metadata = PhotoMetadata(
        make: name.make, model: name.model, date: date, timeZone: timeZone,
        settings: request.settings, filter: request.filter, location: request.location)
      let variant = index == 0 ? nil : "burst\(index + 1)"
      let file = try await sink.save(photo, metadata: metadata, variant: variant)
      if first == nil { first = file }
      if keepOriginal, !look.isIdentity {
        var original = metadata
        original.filter = .natural
        _ = try await sink.save(
          frame, metadata: original,
          variant: [variant, "original"].compactMap { $0 }.joined(separator: "_"))
      }
    }
    return CapturedShot(file: first, people: people)
  }

  /// Waits on the run's open session until it fails.
  private func watch() async throws {
    guard let session = run().session.withLock({ $0 }) else { throw CancellationError() }
    try await session.watch()
    // NB: closed: the run is ending by itself.
    throw CancellationError()
  }

  private func release() async {
    let run = current.withLock { current -> Run? in
      defer { current = nil }
      return current
    }
    guard let run else { return }
    run.preview.fulfil(.failure(CancellationError()))
    let session = run.session.withLock { session -> (any CameraSession)? in
      defer { session = nil }
      return session
    }
    await session?.close()
  }
}

/// The filter step had no preview because the camera step did not deliver one.
public struct PreviewUnavailable: Error, CustomStringConvertible {
  /// Why the camera gave none.
  public var cause: any Error
  /// `"no preview: …"`.
  public var description: String {
    cause is CancellationError ? "no preview: the camera was closed" : "no preview: \(cause)"
  }
}
