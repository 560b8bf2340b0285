import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerRemote
import Testing

@testable import PhotoTimerCLI

/// The remote's QR code over the live view's picture: it reads back as the link.
@Suite struct CodeOverlayTests {
  static let link = "http://192.168.1.20:8470/?t=0123456789abcdef0123456789abcdef"

  @Test(
    "Drawn over a half-block preview (1 pixel a module), the code reads back as the link",
    arguments: [(118, 74), (200, 120)])
  func readsBack(width: Int, height: Int) async throws {
    let code = try #require(QRCode(encoding: Self.link))
    var frame = Frame(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { frame[x, y] = RGB(red: 60, green: UInt8(x % 200), blue: 120) }
    }
    CodeOverlay.draw(code, on: &frame)
    // NB: enlarged 4 times, as a terminal's cells are to a phone's camera.
    var big = Frame(width: width * 4, height: height * 4)
    for y in 0..<big.height {
      for x in 0..<big.width { big[x, y] = frame[x / 4, y / 4] }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "overlay-\(UUID().uuidString).ppm")
    try (Data("P6\n\(big.width) \(big.height)\n255\n".utf8) + Data(big.pixels)).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let output = try await ChildProcess.run(["zbarimg", "-q", "--raw", file.path]).output
    #expect(output.split(separator: "\n").contains(Substring(Self.link)), "\(output)")
  }

  @Test("Too small a picture for one pixel a module: nothing is drawn")
  func tooSmall() throws {
    let code = try #require(QRCode(encoding: Self.link))
    let frame = Frame(width: 60, height: 30)
    var drawn = frame
    CodeOverlay.draw(code, on: &drawn)
    #expect(drawn == frame)
  }
}
