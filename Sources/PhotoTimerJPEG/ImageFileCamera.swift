import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

/// A JPEG or PNG file used as the camera's sensor.
///
/// Opening reads and decodes the file (off the cooperative pool), turned as its EXIF
/// orientation says (all eight values), so metering, looks and the photo (which records
/// orientation 1) see it upright. When a JPEG's EXIF records
/// its exposure (time, f-number, ISO), the scene's brightness is metered from it and the
/// photo records that exposure; otherwise the picture is assumed to be exposed for EV 10 and
/// the photo records no exposure at all (nothing invented). Previews (the picture scaled to
/// 320 pixels wide) come at ``frameRate`` on the clock, so it settles in a handful of frames.
///
/// ```swift
/// let camera = ImageFileCamera(path: "beach.jpg", clock: ContinuousClock())
/// ```
public struct ImageFileCamera<C: Clock>: CameraSource where C.Duration == Duration {
  /// The file.
  public var path: String
  /// Previews per second.
  public var frameRate: Int
  /// The clock previews are paced on.
  public var clock: C
  /// The largest file read, in bytes (256 MiB).
  public static var byteLimit: Int { 256 << 20 }

  /// Creates the camera.
  public init(path: String, frameRate: Int = 30, clock: C) {
    self.path = path
    self.frameRate = max(frameRate, 1)
    self.clock = clock
  }

  /// `"phototimer"`.
  public var make: String { "phototimer" }
  /// `"Image file (beach.jpg)"`.
  public var model: String { "Image file (\((path as NSString).lastPathComponent))" }

  /// Reads and decodes the file.
  ///
  /// - Throws: ``ImageFileError`` naming the path and what to do.
  public func open() async throws -> any CameraSession {
    let path = path
    let (picture, recorded) = try await OffPool.run { _ in
      let bytes = try Self.read(path)
      return (try Self.decode(bytes, path: path), Self.recordedSettings(in: bytes))
    }
    return ImageFileSession(
      picture: picture, recorded: recorded, frameRate: frameRate, clock: clock)
  }

  /// Reads, checks and decodes an image file.
  static func load(_ path: String) throws(ImageFileError) -> Frame {
    try decode(read(path), path: path)
  }

  /// The exposure a JPEG records, as settings; `nil` for a PNG or a JPEG that records none.
  static func recordedSettings(in bytes: [UInt8]) -> CameraSettings? {
    JPEGFile.recordedExposure(in: bytes).map {
      CameraSettings.recorded(fNumber: $0.fNumber, exposureTime: $0.exposureTime, iso: $0.iso)
    }
  }

  /// Reads an image file's bytes, checked to be a regular file of at most ``byteLimit``.
  static func read(_ path: String) throws(ImageFileError) -> [UInt8] {
    let status: FileSystem.Status
    do {
      status = try FileSystem.status(of: path)
    } catch {
      throw failure(error, path: path)
    }
    guard status.isRegularFile else { throw .unreadable(path: path, reason: "not a regular file") }
    guard status.size <= Int64(byteLimit) else {
      throw .tooLarge(path: path, width: 0, height: 0, limit: JPEGCodec.pixelLimit)
    }
    let bytes: [UInt8]
    do {
      // NB: one byte past the limit, so a file that grew since `stat` is still refused.
      bytes = try readAll(path, upTo: byteLimit + 1)
    } catch {
      throw failure(error, path: path)
    }
    guard bytes.count <= byteLimit else {
      throw .tooLarge(path: path, width: 0, height: 0, limit: JPEGCodec.pixelLimit)
    }
    return bytes
  }

  /// The file's bytes, at most `limit`, read through the funnel.
  private static func readAll(_ path: String, upTo limit: Int) throws(SystemCallError) -> [UInt8] {
    let file = try FileDescriptor.open(path, flags: FileSystem.OpenFlags.readOnly)
    defer { file.closeQuietly() }
    var bytes: [UInt8] = []
    while bytes.count < limit {
      let chunk = try file.read(upTo: min(1 << 20, limit - bytes.count))
      if chunk.isEmpty { break }
      bytes += chunk
    }
    return bytes
  }

  /// A failed call on the path, as the error a person reads.
  private static func failure(_ error: SystemCallError, path: String) -> ImageFileError {
    if error.errno == .noSuchFile || error.errno == .notADirectory { return .missing(path: path) }
    return .unreadable(path: path, reason: error.errno.description)
  }

  /// Checks and decodes an image file's bytes (`path` names it in errors), upright.
  package static func decode(_ bytes: [UInt8], path: String) throws(ImageFileError) -> Frame {
    let header = try ImageHeader.read(bytes, path: path, pixelLimit: JPEGCodec.pixelLimit)
    var frame: Frame
    switch header.format {
    case .jpeg:
      frame = try JPEGCodec.decode(bytes, path: path)
      // As every viewer shows it: a portrait phone photo stands up, a mirrored one is not.
      if let orientation = JPEGFile.recordedOrientation(in: bytes) {
        frame = frame.oriented(orientation)
      }
      if let exposure = JPEGFile.recordedExposure(in: bytes) {
        // EV100 = log2(N² / t) − log2(ISO / 100).
        frame.exposureEV =
          log2(exposure.fNumber * exposure.fNumber / exposure.exposureTime)
          - log2(Double(exposure.iso) / 100)
      }
    case .png:
      frame = try PNGDecoder.decode(bytes, path: path)
    }
    return frame
  }
}

/// An open image-file camera.
final class ImageFileSession<C: Clock>: CameraSession where C.Duration == Duration {
  private let picture: Frame
  private let recorded: CameraSettings?
  private let preview: Frame
  private let interval: Duration
  private let clock: C
  private let opened: C.Instant
  private let frames = Locked(0)
  /// The exposure assumed for a picture that does not record one.
  static var assumedExposure: Double { 10 }

  init(picture: Frame, recorded: CameraSettings?, frameRate: Int, clock: C) {
    self.recorded = recorded
    var picture = picture
    picture.exposureEV = picture.exposureEV ?? Self.assumedExposure
    self.picture = picture
    preview = picture.downscaled(maxWidth: 320)
    interval = .seconds(1) / frameRate
    self.clock = clock
    opened = clock.now
  }

  func nextPreview() async throws -> Frame {
    try await next(preview)
  }

  /// The picture itself at the stream's pace: a still is followed like a stream, at its own
  /// resolution, so the people step searches it as it searches a video of the same size (on
  /// the 320-pixel preview it missed every face under about 80 pixels of the picture).
  func nextFrame() async throws -> Frame {
    try await next(picture)
  }

  /// `frame` stamped with its time, at the next slot of the pace.
  private func next(_ frame: Frame) async throws -> Frame {
    let index = frames.withLock { count -> Int in
      defer { count += 1 }
      return count
    }
    try await clock.sleep(until: opened.advanced(by: interval * (index + 1)), tolerance: nil)
    var frame = frame
    frame.timestamp = opened.duration(to: clock.now)
    return frame
  }

  func capture() async throws -> Frame {
    try Task.checkCancellation()
    var frame = picture
    frame.timestamp = opened.duration(to: clock.now)
    return frame
  }

  /// What the file records, or, when it records no exposure, none at all: the photo then
  /// carries no f-number, time or ISO (the program's metering would only invent them).
  func ownSettings() async throws -> CameraSettings? {
    var settings = recorded ?? .cameraOwn(mode: nil)
    settings.mode = "\(picture.width)×\(picture.height) image"
    return settings
  }

  func close() async {}
}
