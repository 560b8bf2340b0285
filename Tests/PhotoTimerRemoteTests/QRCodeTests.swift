import Foundation
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerRemote

@Suite struct QRCodeTests {
  static let link = "http://192.168.1.20:8470/?t=0123456789abcdef0123456789abcdef"

  @Test("The window's QR code picture reads back as the link (zbarimg)")
  func picture() async throws {
    let code = try #require(QRCode(encoding: Self.link))
    let (width, height, pixels) = code.rgb(scale: 4)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qr-\(UUID().uuidString).ppm")
    try (Data("P6\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let completion = try await ChildProcess.run(["zbarimg", "-q", "--raw", file.path])
    let (exit, output) = (completion.exit, completion.output)
    #expect(exit == .status(0))
    // NB: the output holds zbarimg's stderr too (a D-Bus warning on a machine without one).
    #expect(output.split(separator: "\n").contains(Substring(Self.link)), "\(output)")
  }

  @Test("The terminal's half blocks hold every module: read back, they are the code")
  func halfBlocks() throws {
    let code = try #require(QRCode(encoding: Self.link))
    let quiet = 2
    let lines = code.halfBlockLines(quiet: quiet)
    let side = code.size + 2 * quiet
    #expect(lines.count == (side + 1) / 2)
    for (row, line) in lines.enumerated() {
      let cells = Array(line)
      #expect(cells.count == side)
      for (column, cell) in cells.enumerated() {
        let (x, y) = (column - quiet, row * 2 - quiet)
        // A drawn half is a light module.
        let top = cell == "█" || cell == "▀"
        let bottom = cell == "█" || cell == "▄"
        #expect(top == !code.isDark(x: x, y: y), "(\(x), \(y))")
        if y + 1 < code.size + quiet { #expect(bottom == !code.isDark(x: x, y: y + 1)) }
      }
    }
  }
}

@Suite("The remote's camera name")
struct RemoteCameraNameTests {
  @Test("The phone is never told a camera's user or password")
  func redacted() {
    let hub = RemoteHub(camera: "ffmpeg rtsp://bob:s3cret@10.0.0.5/cam", mirrored: false)
    #expect(hub.camera == "ffmpeg rtsp://10.0.0.5/cam")
  }
}
