import Foundation
import PhotoTimer
import Testing

@testable import PhotoTimerImaging

@Suite("Looks")
struct LookTests {
  let muted = RGB(red: 150, green: 120, blue: 100)

  private func saturation(_ pixel: RGB) -> Int {
    Int(max(pixel.red, pixel.green, pixel.blue)) - Int(min(pixel.red, pixel.green, pixel.blue))
  }

  @Test("Natural leaves every pixel as it is")
  func natural() {
    let look = Look(.natural)
    #expect(look.isIdentity)
    #expect(look.apply(to: muted) == muted)
  }

  @Test("Vivid raises saturation and contrast")
  func vivid() {
    let look = Look(.vivid)
    #expect(saturation(look.apply(to: muted)) > saturation(muted) + 8)
    #expect(look.apply(to: RGB(grey: 40)).red < 40)
    #expect(look.apply(to: RGB(grey: 215)).red > 215)
  }

  @Test("Warm moves towards red, Cool towards blue")
  func temperature() {
    let grey = RGB(grey: 128)
    let warm = Look(.warm).apply(to: grey)
    let cool = Look(.cool).apply(to: grey)
    #expect(Int(warm.red) - Int(warm.blue) > 20)
    #expect(Int(cool.blue) - Int(cool.red) > 20)
  }

  @Test("Mono makes every pixel grey")
  func mono() {
    let out = Look(.mono).apply(to: RGB(red: 200, green: 30, blue: 90))
    #expect(out.red == out.green && out.green == out.blue)
  }

  @Test("Dramatic deepens shadows and keeps highlights")
  func dramatic() {
    let look = Look(.dramatic)
    #expect(look.apply(to: RGB(grey: 60)).red < 45)
    #expect(look.apply(to: RGB(grey: 230)).red >= 225)
    #expect(saturation(look.apply(to: muted)) < saturation(muted))
  }

  @Test("Fade lifts the blacks and lowers the whites")
  func fade() {
    let look = Look(.fade)
    #expect(look.apply(to: RGB(grey: 0)).red >= 28)
    #expect(look.apply(to: RGB(grey: 255)).red <= 240)
  }

  @Test("A whole frame is filtered off the pool, the same as pixel by pixel")
  func wholeFrame() async throws {
    var frame = Frame(width: 64, height: 48)
    for y in 0..<48 {
      for x in 0..<64 { frame[x, y] = RGB(red: UInt8(x * 4), green: UInt8(y * 5), blue: 90) }
    }
    let look = Look(.vivid)
    let out = try await look.apply(to: frame)
    #expect(out[10, 20] == look.apply(to: frame[10, 20]))
    #expect(out[63, 47] == look.apply(to: frame[63, 47]))
    #expect(frame[10, 20] == RGB(red: 40, green: 100, blue: 90))  // the input is untouched
  }

  @Test("A cancelled filter stops and throws CancellationError")
  func cancelled() async {
    let frame = Frame(width: 4000, height: 3000)
    let task = Task { try await Look(.mono).apply(to: frame) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
