#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The photo taken at the end of a run, with everything that went into it.
///
/// ```swift
/// if case .captured(let photo) = model.status {
///   print(photo.settings, photo.location?.name ?? "no location", photo.filter)
/// }
/// ```
public struct CapturedPhoto: Hashable, Sendable {
  /// The exposure the camera step chose.
  public var settings: CameraSettings
  /// Where the photo was taken, or `nil` when the location step failed or was dropped;
  /// ``locationUnavailableReason`` then says why.
  public var location: LocationTag?
  /// The look applied: the suggestion's, or ``PhotoFilter/natural`` when none arrived in time.
  public var filter: PhotoFilter
  /// The file written, or `nil` when the camera service writes none (the simulation).
  public var file: URL?
  /// One report per preparation step, in the order camera, location, filter, people.
  public var reports: [StepReport]
  /// When the shutter fired, measured from the start of the run.
  public var shutterOffset: Duration
  /// A word about ``settings``, such as that they are the metering estimate because the
  /// camera recorded none; `nil` when there is nothing to say.
  public var settingsNote: String?
  /// Who was in the picture at the shutter (the people step's last word), or `nil` when the
  /// step did not run or saw nothing in time.
  public var people: PeopleSummary?

  /// Creates a captured photo.
  ///
  /// - Parameters:
  ///   - settings: The exposure used.
  ///   - location: The place, if known.
  ///   - filter: The look applied.
  ///   - file: The file written, if any.
  ///   - reports: What each step did.
  ///   - shutterOffset: When the shutter fired, from the start of the run.
  ///   - settingsNote: A word about the settings, if any.
  ///   - people: Who was in the picture, if the people step said.
  public init(
    settings: CameraSettings, location: LocationTag?, filter: PhotoFilter, file: URL? = nil,
    reports: [StepReport] = [], shutterOffset: Duration = .zero, settingsNote: String? = nil,
    people: PeopleSummary? = nil
  ) {
    self.people = people
    self.settingsNote = settingsNote
    self.settings = settings
    self.location = location
    self.filter = filter
    self.file = file
    self.reports = reports
    self.shutterOffset = shutterOffset
  }

  /// The report of one step, if the run recorded one.
  ///
  /// - Parameter step: The step to look up.
  /// - Returns: Its report, or `nil`.
  public func report(for step: PreparationStep) -> StepReport? {
    reports.first { $0.step == step }
  }

  /// The time each step took, from the start of the run to its end.
  public var timings: [PreparationStep: Duration] {
    Dictionary(uniqueKeysWithValues: reports.map { ($0.step, $0.elapsed) })
  }

  /// Why there is no location, or `nil` when there is one.
  public var locationUnavailableReason: String? {
    guard location == nil else { return nil }
    return report(for: .location)?.outcome.reason
  }
}
