import Foundation
import PhotoTimerImaging
import PhotoTimerPOSIX
import PhotoTimerRemote
import PhotoTimerSetup
import PhotoTimerTesting
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
    let output = try await Self.read(frame)
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

  static let guestLink =
    "http://192.168.100.200:8470/guest/session/123?t=0123456789abcdef0123456789abcdef"

  /// What `zbarimg` reads in `frame`, enlarged 4 times (a terminal's cells to a camera).
  static func read(_ frame: Frame) async throws -> String {
    var big = Frame(width: frame.width * 4, height: frame.height * 4)
    for y in 0..<big.height {
      for x in 0..<big.width { big[x, y] = frame[x / 4, y / 4] }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "card-\(UUID().uuidString).ppm")
    try (Data("P6\n\(big.width) \(big.height)\n255\n".utf8) + Data(big.pixels)).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await ChildProcess.run(["zbarimg", "-q", "--raw", file.path]).output
  }

  @Test(
    "After a collage: the strip as large as fits and the guests' code beside it, read back",
    arguments: [(100, 30), (160, 45), (120, 60)])
  func guestCard(columns: Int, rows: Int) async throws {
    let room = try #require(LiveFrames.previewRoom(method: .halfBlocks, size: (columns, rows)))
    var strip = Frame(width: 120, height: 360)
    for y in 0..<360 {
      for x in 0..<120 { strip[x, y] = RGB(red: UInt8(y * 255 / 359), green: 40, blue: 200) }
    }
    let code = try #require(QRCode(encoding: Self.guestLink))
    let card = GuestCard.frame(collage: strip, code: code, room: room)
    #expect(card.width == room.width && card.height == room.height)
    let output = try await Self.read(card)
    #expect(output.split(separator: "\n").contains(Substring(Self.guestLink)), "\(room): \(output)")
    // The strip is on the left, whole: its top and bottom rows' colours are there.
    let left = (0..<(card.width / 3)).flatMap { x in (0..<card.height).map { card[x, $0] } }
    #expect(left.contains { $0.red < 30 && $0.blue > 150 } && left.contains { $0.red > 220 })
  }

  @Test("A picture too small for the code (80 × 24): the collage alone, centred, no half code")
  func guestCardTooSmall() throws {
    let room = try #require(LiveFrames.previewRoom(method: .halfBlocks, size: (80, 24)))
    let strip = Frame(width: 120, height: 360)
    let code = try #require(QRCode(encoding: Self.guestLink))
    let card = GuestCard.frame(collage: strip, code: code, room: room)
    #expect(card == GuestCard.frame(collage: strip, code: nil, room: room))
    #expect(card[room.width / 2, room.height / 2] == RGB(red: 0, green: 0, blue: 0))
  }

  @Test("The text view: the code in the big status's place, or the link in words when too small")
  func guestText() throws {
    let code = try #require(QRCode(encoding: Self.guestLink))
    var frames = LiveFrames(method: nil)
    frames.guest = LiveFrames.GuestLink(link: Self.guestLink, code: code)
    let shown = try #require(PresentationExample.all.first).presentation
    let words = ScreenText(presentation: shown, title: "scene camera", color: false, spinner: "⠋")
    let tall = String(decoding: frames.text(words, width: 100, height: 40), as: UTF8.self)
    #expect(tall.contains("Your photos: scan this with your phone's camera"))
    #expect(!tall.contains(Self.guestLink))
    var small = LiveFrames(method: nil)
    small.guest = frames.guest
    let short = String(decoding: small.text(words, width: 100, height: 15), as: UTF8.self)
    #expect(short.contains("Your photos: open this on your phone"))
    #expect(short.contains(Self.guestLink))
  }
}
