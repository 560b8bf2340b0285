import Foundation
import PhotoTimer

/// What goes into a photo file besides its pixels.
public struct PhotoMetadata: Sendable, Equatable {
  /// The camera's maker (EXIF `Make`).
  public var make: String
  /// The camera's model (EXIF `Model`).
  public var model: String
  /// The program that wrote the file (EXIF `Software`), e.g. `"phototimer 0.1.0"`.
  public var software: String
  /// When the shutter fired.
  public var date: Date
  /// The time zone the date is shown in (EXIF `OffsetTimeOriginal`).
  public var timeZone: TimeZone
  /// The exposure.
  public var settings: CameraSettings
  /// The look applied.
  public var filter: PhotoFilter
  /// Where, when known; its coordinate becomes the GPS tags.
  public var location: LocationTag?
  /// EXIF orientation, 1 for upright.
  public var orientation: Int

  /// Creates metadata.
  public init(
    make: String, model: String, software: String = "phototimer \(PhotoTimerVersion.current)",
    date: Date, timeZone: TimeZone = .current, settings: CameraSettings, filter: PhotoFilter,
    location: LocationTag?, orientation: Int = 1
  ) {
    self.make = make
    self.model = model
    self.software = software
    self.date = date
    self.timeZone = timeZone
    self.settings = settings
    self.filter = filter
    self.location = location
    self.orientation = orientation
  }

  /// The photo's description (EXIF `ImageDescription`): the look and the place.
  public var imageDescription: String {
    if let location { return "\(filter.rawValue) look, \(location.name)" }
    return "\(filter.rawValue) look"
  }
}

/// Where photos go: encodes and writes them.
public protocol PhotoSink: Sendable {
  /// Writes one photo and returns its file.
  ///
  /// - Parameters:
  ///   - frame: The pixels.
  ///   - metadata: What else goes into the file.
  ///   - variant: A suffix for a second file of the same shot (`"original"`), or `nil`.
  /// - Throws: An error naming the path and what to do; a cancelled or failed write leaves
  ///   no file behind.
  func save(_ frame: Frame, metadata: PhotoMetadata, variant: String?) async throws -> URL
}
