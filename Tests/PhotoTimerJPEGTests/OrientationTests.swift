import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerTesting
import Testing

@testable import PhotoTimerJPEG

/// Where the stored picture's corners must be seen for each EXIF orientation, from the
/// standard's own words ("the 0th row is the visual …, the 0th column is the visual …"):
/// the stored top-left, top-right and bottom-left corners, as seen (T top, B bottom, L left,
/// R right).
private let seen: [Int: (topLeft: String, topRight: String, bottomLeft: String)] = [
  1: ("TL", "TR", "BL"),  // row 0 top, column 0 left
  2: ("TR", "TL", "BR"),  // row 0 top, column 0 right
  3: ("BR", "BL", "TR"),  // row 0 bottom, column 0 right
  4: ("BL", "BR", "TL"),  // row 0 bottom, column 0 left
  5: ("TL", "BL", "TR"),  // row 0 left, column 0 top
  6: ("TR", "BR", "TL"),  // row 0 right, column 0 top
  7: ("BR", "TR", "BL"),  // row 0 right, column 0 bottom
  8: ("BL", "TL", "BR"),  // row 0 left, column 0 bottom
]

@Suite("EXIF orientation of image files", .serialized)
struct OrientationTests {
  private static let red = RGB(red: 230, green: 20, blue: 20)
  private static let green = RGB(red: 20, green: 200, blue: 20)
  private static let blue = RGB(red: 20, green: 20, blue: 230)

  /// 90 × 60, grey, with a red block at the stored top left, green at the top right and blue
  /// at the bottom left: no two orientations look alike.
  private static func picture() -> Frame {
    var frame = Frame(width: 90, height: 60)
    for y in 0..<60 {
      for x in 0..<90 {
        let top = y < 15
        let left = x < 20
        let right = x >= 70
        frame[x, y] =
          top && left ? red : top && right ? green : y >= 45 && left ? blue : RGB(grey: 128)
      }
    }
    return frame
  }

  /// The colour around a corner of `frame` ("TL", "TR", "BL", "BR").
  private func corner(_ frame: Frame, _ name: String) -> RGB {
    let x = name.hasSuffix("L") ? 4 : frame.width - 5
    let y = name.hasPrefix("T") ? 4 : frame.height - 5
    return frame[x, y]
  }

  private func near(_ a: RGB, _ b: RGB) -> Bool {
    abs(Int(a.red) - Int(b.red)) < 40 && abs(Int(a.green) - Int(b.green)) < 40
      && abs(Int(a.blue) - Int(b.blue)) < 40
  }

  @Test(
    "All eight orientations: the file camera sees the picture as a viewer shows it",
    arguments: 1...8)
  func orientation(_ value: Int) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-orientation-\(value)-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("source.jpg").path
    try Data(try JPEGFile.make(Self.picture(), metadata: testMetadata())).write(
      to: URL(fileURLWithPath: path))
    // The tag written by an independent tool, and read back by it.
    let written = try await ChildProcess.run([
      "exiftool", "-n", "-Orientation=\(value)", "-overwrite_original", path,
    ])
    #expect(written.succeeded, "\(written.standardError)")
    #expect(try await exiftool(path)["IFD0:Orientation"] as? Int == value)
    let frame = try ImageFileCamera<TestClock>.load(path)
    let swapped = value >= 5
    #expect(frame.width == (swapped ? 60 : 90) && frame.height == (swapped ? 90 : 60))
    let expected = try #require(seen[value])
    #expect(near(corner(frame, expected.topLeft), Self.red), "red at \(expected.topLeft)")
    #expect(near(corner(frame, expected.topRight), Self.green), "green at \(expected.topRight)")
    #expect(near(corner(frame, expected.bottomLeft), Self.blue), "blue at \(expected.bottomLeft)")
    // The photo taken from it is upright and says so.
    let store = PhotoStore(folder: folder)
    let saved = try await store.save(frame, metadata: testMetadata(), variant: nil)
    let tags = try await exiftool(saved.path)
    #expect(tags["IFD0:Orientation"] as? Int == 1)
    #expect(tags["File:ImageWidth"] as? Int == frame.width)
  }
}
