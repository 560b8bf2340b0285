#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the camera service is asked to shoot at the shutter.
public struct CaptureRequest: Hashable, Sendable {
  /// The exposure the camera step chose.
  public var settings: CameraSettings
  /// Where the photo is taken, if known by the shutter.
  public var location: LocationTag?
  /// The look to apply.
  public var filter: PhotoFilter
  /// When the shutter fired, from the start of the run.
  public var shutterOffset: Duration
  /// Who the people step saw in the picture by the shutter, if it ran.
  public var people: PeopleSummary?

  /// Creates a capture request.
  ///
  /// - Parameters:
  ///   - settings: The exposure to use.
  ///   - location: The place, if known.
  ///   - filter: The look to apply.
  ///   - shutterOffset: When the shutter fired, from the start of the run.
  ///   - people: Who the people step saw, if it ran.
  public init(
    settings: CameraSettings, location: LocationTag?, filter: PhotoFilter, shutterOffset: Duration,
    people: PeopleSummary? = nil
  ) {
    self.people = people
    self.settings = settings
    self.location = location
    self.filter = filter
    self.shutterOffset = shutterOffset
  }
}

/// What a capture produced: the file written, and the exposure the camera itself reports
/// having used, when it reports one.
public struct CapturedShot: Hashable, Sendable {
  /// The file written, or `nil` when none was.
  public var file: URL?
  /// The exposure the camera used (a DSLR's own, read back from its photo), or `nil` to
  /// report the settings the camera step chose.
  public var settings: CameraSettings?
  /// A word about the settings reported, such as why they are an estimate; `nil` if none.
  public var settingsNote: String?
  /// Who is in the frame the photo was made from, when the camera chose that frame for the
  /// people in it (``PeopleSummary/frame`` says which); `nil` keeps the people step's last
  /// word.
  public var people: PeopleSummary?

  /// Creates a shot.
  ///
  /// - Parameters:
  ///   - file: The file written, if any.
  ///   - settings: The exposure the camera reports having used, if it does.
  ///   - settingsNote: A word about the settings reported, if any.
  ///   - people: Who is in the frame kept, when the camera chose it for them.
  public init(
    file: URL?, settings: CameraSettings? = nil, settingsNote: String? = nil,
    people: PeopleSummary? = nil
  ) {
    self.file = file
    self.settings = settings
    self.settingsNote = settingsNote
    self.people = people
  }
}

/// The camera: prepared during the countdown, asked to capture at zero.
///
/// The camera step is always required: there is no photo without it.
public struct CameraService: Sendable {
  /// Opens the source, lets auto-exposure settle and meters the scene.
  public var prepare: @Sendable () async throws -> CameraSettings
  /// Takes the photo and writes it; returns the file and, when the camera reports it, the
  /// exposure it actually used.
  ///
  /// When its task is cancelled it must stop and remove any partly written file.
  public var shoot: @Sendable (CaptureRequest) async throws -> CapturedShot
  /// Closes whatever `prepare` opened (streams, threads, child processes). The engine calls
  /// it once at the end of every run, captured, failed or cancelled, and a cancelled run
  /// publishes ``PhotoTimerEvent/Kind/cancelled`` only after it returned.
  public var release: @Sendable () async -> Void
  /// Waits while the prepared camera keeps working and throws why once it stops (unplugged,
  /// its stream failed); `nil` when the camera cannot tell. The engine runs it from the end of
  /// ``prepare`` to the shutter and fails the run at once when it throws; it must return
  /// (or throw `CancellationError`) promptly when its task is cancelled.
  public var watch: (@Sendable () async throws -> Void)?
  /// What must happen before this camera can shoot (a DSLR's live view letting go of the
  /// device), or `nil` when it can shoot at any moment. The engine starts it ahead of zero and
  /// the shutter waits for it.
  public var handOver: CameraHandOver?

  /// Takes the photo and returns the file written (``shoot`` without the settings).
  public var capture: @Sendable (CaptureRequest) async throws -> URL? {
    get {
      let shoot = shoot
      return { try await shoot($0).file }
    }
    set {
      shoot = { [newValue] in CapturedShot(file: try await newValue($0)) }
    }
  }

  /// Creates a camera service whose photos are reported with the settings it chose.
  ///
  /// - Parameters:
  ///   - prepare: Opens and meters the camera; returns the exposure.
  ///   - capture: Takes and writes the photo; returns the file written, if any.
  ///   - release: Closes what `prepare` opened; called at the end of every run.
  public init(
    prepare: @escaping @Sendable () async throws -> CameraSettings,
    capture: @escaping @Sendable (CaptureRequest) async throws -> URL?,
    release: @escaping @Sendable () async -> Void = {}
  ) {
    self.prepare = prepare
    self.shoot = { CapturedShot(file: try await capture($0)) }
    self.release = release
  }

  /// Creates a camera service that reports the exposure each photo was actually taken with
  /// (a DSLR that meters and exposes by itself).
  ///
  /// - Parameters:
  ///   - prepare: Opens and meters the camera; returns the exposure expected.
  ///   - shoot: Takes and writes the photo; returns the file and the exposure used.
  ///   - release: Closes what `prepare` opened; called at the end of every run.
  public init(
    prepare: @escaping @Sendable () async throws -> CameraSettings,
    shoot: @escaping @Sendable (CaptureRequest) async throws -> CapturedShot,
    release: @escaping @Sendable () async -> Void = {}
  ) {
    self.prepare = prepare
    self.shoot = shoot
    self.release = release
  }
}

/// What a camera must do before it can shoot, and how long that takes: a DSLR's live view
/// holds the device, and gphoto2 can capture only once the live view has let go of it.
///
/// The engine starts ``perform`` ``lead`` before zero (at once when the camera becomes ready
/// later than that, or when the user takes the photo now). If it has not finished at zero, the
/// run waits (``PhotoTimerStatus/waiting(for:)`` the camera, showing its status) within the
/// same bound as for a camera that is not ready, and the shutter fires the moment it has.
public struct CameraHandOver: Sendable {
  /// How long before zero to start, read at the start of each run (a camera learns it from
  /// the hand-overs it measured).
  public var lead: @Sendable () -> Duration
  /// Frees the camera for the shutter; returns once it is free. A throw fails the run.
  public var perform: @Sendable () async throws -> Void
  /// Creates a hand-over.
  ///
  /// - Parameters:
  ///   - lead: How long before zero to start it.
  ///   - perform: Frees the camera; returns once it is free.
  public init(
    lead: @escaping @Sendable () -> Duration,
    perform: @escaping @Sendable () async throws -> Void
  ) {
    self.lead = lead
    self.perform = perform
  }
}
