import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerText

/// A front end's booth: the shots a session keeps, the review's timer and the collage. It
/// carries out the front-end machine's booth effects and decides nothing; both programs hold
/// one.
@MainActor
package final class BoothRunner {
  /// A kept shot: its photo and the faces followed at its shutter.
  private struct Kept {
    var photo: CapturedPhoto
    var faces: [FaceMark]
  }

  package let layout: BoothLayout
  private let store: PhotoStore
  /// The event's name (`--event`), drawn where the layout has an `event` text.
  package let event: String?
  /// The event's log (`--event`).
  package let log: EventLog?
  private let clock: any Clock<Duration>
  /// Where what happened goes, for the outputs (the command's loop).
  package var report: @MainActor ([BoothEvent]) -> Void = { _ in }
  package private(set) var session = 0
  /// Collages being drawn and saved: said (``report``) before they count as done.
  private var composing = 0
  /// Collages reported and not yet passed on by the front end.
  private var unsaid = 0
  /// Collages that could not be made (the command then exits 1).
  package private(set) var failedCollages = 0
  /// What is said once the collage being drawn is saved.
  private var afterCollage: [BoothEvent] = []
  private var kept: [Kept] = []
  private var review: Task<Void, Never>?
  private var collages: [Task<Void, Never>] = []
  /// Holding and giving back the camera's controls, one after another.
  var controlWork: Task<Void, Never>?
  /// The session whose controls are held (or being held), if one.
  var heldSession: Int?
  /// The controls held now.
  var heldControls: (any CameraControls)?
  /// Whether the booth has said that its camera's controls cannot be held.
  var saidUnavailable = false

  /// A booth composing into `layout`, saving into `store`, its review timed on `clock`.
  ///
  /// - Parameters:
  ///   - event: The event's name, for the layout's text.
  ///   - log: The event's log: the first session is the one after its last.
  package init(
    layout: BoothLayout, store: PhotoStore, clock: any Clock<Duration>, event: String? = nil,
    log: EventLog? = nil
  ) {
    self.layout = layout
    self.store = store
    self.clock = clock
    self.event = event
    self.log = log
    session = log?.lastSession ?? 0
  }

  /// Why a booth cannot start.
  package enum SetupError: Error, CustomStringConvertible {
    /// The layout is wrong (a usage error: exit 2).
    case layout(LayoutError)
    /// The event's log cannot be read or written (exit 1).
    case log(EventLogError)
    /// The event's folder cannot be made or written (exit 1): why, in the store's words.
    case folder(String)

    package var description: String {
      switch self {
      case .layout(let error): "\(error)"
      case .log(let error): "\(error)"
      case .folder(let problem): problem
      }
    }
  }

  /// The booth `options` ask for (`nil` without one): its layout loaded and checked, its
  /// event's folder made and its log opened, before anything counts.
  ///
  /// - Throws: ``SetupError`` naming the file and what to change.
  package static func prepare(
    _ options: CommandOptions.RunOptions, clock: any Clock<Duration>
  ) throws(SetupError) -> BoothRunner? {
    guard options.booth else { return nil }
    let layout: BoothLayout
    do throws(LayoutError) {
      layout = try BoothLayout.load(options.layout, shots: options.boothPlan.shots)
    } catch {
      throw .layout(error)
    }
    let store = ProgramSetup.store(options)
    var log: EventLog?
    if options.event != nil {
      do {
        try store.checkFolder()
      } catch {
        throw .folder("\(error)")
      }
      do throws(EventLogError) {
        log = try EventLog(folder: store.folder)
      } catch {
        throw .log(error)
      }
    }
    return BoothRunner(layout: layout, store: store, clock: clock, event: options.event, log: log)
  }

  /// `events` as every front end passes them on: a collage published on `remote` for its
  /// guests (its link filled in), each event on the phones' event stream and in the event's
  /// log at `time` on the front end's axis. Returns the events, and the problems to show (a
  /// log that cannot be written).
  package func pass(
    _ events: [BoothEvent], remote: RemoteLink?, time: Duration
  ) -> (events: [BoothEvent], problems: [String]) {
    var passed: [BoothEvent] = []
    var problems: [String] = []
    for var event in events {
      switch event {
      case .collage, .collageFailed: unsaid = max(0, unsaid - 1)
      default: break
      }
      if case .collage(let session, let file, let shots, _) = event {
        let guest = remote?.publishSession(session, collage: file, shots: shots, event: self.event)
        event = .collage(session: session, file: file, shots: shots, guest: guest)
      }
      if let problem = passOn(event, remote: remote, log: log, time: time) {
        problems.append(problem)
      }
      passed.append(event)
    }
    return (passed, problems)
  }

  /// Whether a collage is still being drawn, saved or said.
  ///
  /// NB: until the front end has passed its collage event on (``pass(_:remote:time:)``): a
  /// collage that failed at once is reported before the front end's loop looks again, and a
  /// loop that ended then never said it.
  package var isComposing: Bool { composing > 0 || unsaid > 0 }

  /// Carries out a booth effect. `photo` is the photo just taken, `faces` the faces followed
  /// at its shutter; `reviewEnded` is told when a review's time has passed.
  ///
  /// The camera's `controls` are held at the first shot (the exposure, gain, white balance
  /// and focus it settled on) for the rest of the session, and given back at its end.
  package func carryOut(
    _ effect: FrontEndSession.Effect, photo: CapturedPhoto?, faces: [FaceMark],
    controls: ControlReach = .notNeeded, reviewEnded: @escaping @MainActor (Int) -> Void
  ) {
    switch effect {
    case .review(let shot, _) where shot == 1, .keepShot(let shot) where shot == 1:
      hold(controls)
    default: break
    }
    switch effect {
    case .boothStarted(let shots):
      session += 1
      kept = []
      report([.started(session: session, shots: shots)])
    case .review(let shot, let seconds):
      review?.cancel()
      let clock = clock
      review = Task {
        guard (try? await clock.sleep(for: .seconds(seconds))) != nil else { return }
        reviewEnded(shot)
      }
    case .keepShot(let shot):
      review?.cancel()
      if let photo { kept.append(Kept(photo: photo, faces: faces)) }
      report([.kept(session: session, shot: shot, file: photo?.file?.path)])
    case .discardShot(let shot):
      review?.cancel()
      report([.retaken(session: session, shot: shot, file: photo?.file?.path)])
    case .composeCollage:
      compose(kept, session: session)
    case .boothEnded(let count, let complete):
      review?.cancel()
      kept = []
      release()
      // NB: a complete session is said once its collage is saved (or could not be).
      let ended = BoothEvent.ended(session: session, kept: count, complete: complete)
      if complete, isComposing { afterCollage.append(ended) } else { report([ended]) }
    default:
      break
    }
  }

  /// Waits for the collages under way: the command ends only once they are saved.
  package func finish() async {
    review?.cancel()
    release()
    for collage in collages { await collage.value }
    collages = []
    await controlWork?.value
  }

  /// Reads the kept shots' files, draws the collage with the layout's text, and saves it
  /// beside them: off the main actor.
  private func compose(_ shots: [Kept], session: Int) {
    let layout = layout
    let store = store
    let date = Date()
    composing += 1
    let values = ["event": event ?? "", "date": Self.dateText(date)]
    collages.append(
      Task {
        do {
          let frame = try await OffPool.blocking { _ in
            try Self.draw(shots, layout: layout, values: values)
          }
          let last = shots.last?.photo
          let metadata = PhotoMetadata(
            make: "phototimer", model: "booth collage", date: date,
            settings: last?.settings ?? CameraSettings(aperture: "", shutterSpeed: "", iso: 0),
            filter: last?.filter ?? .natural, location: last?.location)
          let file = try await store.save(frame, metadata: metadata, variant: "collage")
          let files = shots.compactMap { $0.photo.file?.path }
          collageDone(.collage(session: session, file: file.path, shots: files, guest: nil))
        } catch {
          failedCollages += 1
          collageDone(.collageFailed(session: session, reason: "\(error)"))
        }
      })
  }

  private func collageDone(_ event: BoothEvent) {
    composing -= 1
    unsaid += 1
    // NB: the collage and the session's end in one input: the command may end after it.
    report([event] + afterCollage)
    afterCollage = []
  }

  private nonisolated static func draw(
    _ shots: [Kept], layout: BoothLayout, values: [String: String]
  ) throws -> Frame {
    var pictures: [BoothCollage.Shot] = []
    for shot in shots {
      guard let file = shot.photo.file else { continue }
      let bytes = try [UInt8](Data(contentsOf: file))
      let frame = try JPEGCodec.decode(bytes, path: file.path)
      let faces = shot.faces.map {
        PixelBox(
          x: $0.x * Double(frame.width), y: $0.y * Double(frame.height),
          width: $0.width * Double(frame.width), height: $0.height * Double(frame.height))
      }
      pictures.append(BoothCollage.Shot(frame: frame, faces: faces))
    }
    func read(_ path: String) throws -> [UInt8] {
      try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
    // NB: the layout's pictures were found when it was loaded; read now, they may have gone.
    var background: Frame?
    if let path = layout.background, !BoothLayout.isColour(path) {
      background = try PNGDecoder.decode(read(path), path: path)
    }
    var layers = try layout.overlay.map { [try PNGDecoder.decodeRGBA(read($0), path: $0)] } ?? []
    if let text = BoothText.layer(
      layout.texts, width: layout.canvas.width, height: layout.canvas.height, values: values)
    {
      layers.append(text)
    }
    return BoothCollage.compose(pictures, in: layout, background: background, layers: layers)
      .canvas
  }

  /// `6 December 2026`.
  private nonisolated static func dateText(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_GB")
    formatter.dateFormat = "d MMMM yyyy"
    return formatter.string(from: date)
  }
}

extension PhotoTimerViewModel.Snapshot {
  /// The photo the model shows, when it shows one.
  package var photo: CapturedPhoto? {
    if case .captured(let photo) = state.status { return photo }
    return nil
  }
}
