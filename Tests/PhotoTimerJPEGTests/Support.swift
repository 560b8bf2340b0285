import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerJPEG

/// A fixture's path.
func fixture(_ name: String) throws -> String {
  let url = try #require(
    Bundle.module.url(
      forResource: (name as NSString).deletingPathExtension,
      withExtension: (name as NSString).pathExtension, subdirectory: "Fixtures"))
  return url.path
}

/// A fresh, empty folder under the temporary directory, removed by `cleanUp`.
struct TemporaryFolder {
  let url: URL

  init(_ name: String = #function) throws {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-\(safe)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var path: String { url.path }

  /// Every entry, hidden ones too, sorted.
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// A colourful test picture.
func gradient(width: Int = 64, height: Int = 48) -> Frame {
  var frame = Frame(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      frame[x, y] = RGB(
        red: UInt8(x * 255 / max(width - 1, 1)), green: UInt8(y * 255 / max(height - 1, 1)),
        blue: 90)
    }
  }
  return frame
}

/// The tags exiftool reads from `path`, as numbers where they are numbers (`-n`), keyed
/// `Group:Tag` (`-G1`).
func exiftool(_ path: String) async throws -> [String: Any] {
  let result = try await ChildProcess.run(["exiftool", "-j", "-n", "-G1", "-a", path])
  #expect(result.succeeded, "exiftool: \(result.standardError)")
  let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
  let list = try #require(json as? [[String: Any]])
  return try #require(list.first)
}

/// Metadata for tests: 2026-11-30 14:15:03.042 in Paris (13:15:03.042 UTC).
func testMetadata(location: LocationTag? = nil) -> PhotoMetadata {
  PhotoMetadata(
    make: "phototimer", model: "Scene camera (daylight)",
    date: Date(timeIntervalSince1970: 1_796_044_503.042),
    timeZone: TimeZone(identifier: "Europe/Paris") ?? .current,
    settings: ExposureProgram.standard.settings(forSceneEV: 7), filter: .vivid,
    location: location)
}
