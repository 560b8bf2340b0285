import CPNG
import Foundation
import PhotoTimer
import PhotoTimerImaging

/// A check that each C library the photo file needs is present and works.
public enum SystemLibraries {
  /// One library's state.
  public struct Check: Sendable, Equatable {
    /// The library, e.g. `"libjpeg-turbo"`.
    public var name: String
    /// Whether it works.
    public var works: Bool
    /// What was found, or what failed.
    public var detail: String
  }

  /// Encodes, writes EXIF and reads a PNG header with each library, in memory.
  public static func check() -> [Check] {
    var checks: [Check] = []
    let frame = Frame(width: 8, height: 8)
    do {
      let bytes = try JPEGCodec.encode(frame)
      _ = try JPEGCodec.decode(bytes, path: "memory")
      checks.append(Check(name: "libjpeg-turbo", works: true, detail: "encodes and decodes"))
    } catch {
      checks.append(Check(name: "libjpeg-turbo", works: false, detail: "\(error)"))
    }
    do {
      let metadata = PhotoMetadata(
        make: "phototimer", model: "check", date: Date(timeIntervalSince1970: 0),
        settings: ExposureProgram.standard.settings(forSceneEV: 10), filter: .natural,
        location: nil)
      let block = try ExifBlock(metadata: metadata, width: 8, height: 8).bytes()
      checks.append(
        Check(name: "libexif", works: true, detail: "writes EXIF (\(block.count) bytes)"))
    } catch {
      checks.append(Check(name: "libexif", works: false, detail: "\(error)"))
    }
    let version = png_access_version_number()
    checks.append(
      Check(
        name: "libpng", works: version > 0,
        detail: "version \(version / 10000).\(version / 100 % 100).\(version % 100)"))
    return checks
  }
}
