import PhotoTimerImaging
import Testing

@testable import PhotoTimerText

/// The booth's text: drawn where the layout anchors it, in its colour and size, the values
/// filled in, and over the collage by its alpha.
@Suite("Booth text")
struct BoothTextTests {
  /// The bounds of the pixels drawn (alpha above half) in `layer`.
  static func inked(_ layer: RGBAImage) -> (left: Int, top: Int, right: Int, bottom: Int)? {
    var bounds: (left: Int, top: Int, right: Int, bottom: Int)?
    for y in 0..<layer.height {
      for x in 0..<layer.width where layer.pixels[(y * layer.width + x) * 4 + 3] > 128 {
        let old = bounds ?? (x, y, x, y)
        bounds = (min(old.left, x), min(old.top, y), max(old.right, x), max(old.bottom, y))
      }
    }
    return bounds
  }

  @Test("a centred line sits on its baseline, centred on its anchor, as tall as its size says")
  func centred() throws {
    let field = BoothLayout.Text(
      text: "Ada & Grace", font: "Sans Bold", size: 80, colour: "#c02020", x: 600, y: 300)
    let layer = try #require(BoothText.layer([field], width: 1200, height: 400, values: [:]))
    let ink = try #require(Self.inked(layer))
    // Capitals stand about 0.73 of the size above the baseline in DejaVu Sans; nothing hangs
    // below it but the ampersand's curve.
    #expect(ink.bottom <= 300 + 2 && ink.bottom >= 300 - 2, "bottom \(ink.bottom)")
    #expect(ink.top >= 300 - 80 && ink.top <= 300 - 50, "top \(ink.top)")
    let middle = (ink.left + ink.right) / 2
    #expect(abs(middle - 600) <= 6, "middle \(middle)")
    #expect(ink.right - ink.left > 300, "width \(ink.right - ink.left)")
    // Its colour, where it is solid.
    let solid = stride(from: 0, to: layer.pixels.count, by: 4).first { layer.pixels[$0 + 3] == 255 }
    let at = try #require(solid)
    #expect(Array(layer.pixels[at..<at + 3]) == [0xc0, 0x20, 0x20])
  }

  @Test("left and right alignment start and end at the anchor")
  func aligned() throws {
    let left = BoothLayout.Text(text: "HELLO", size: 60, x: 100, y: 200, align: "left")
    let right = BoothLayout.Text(text: "HELLO", size: 60, x: 1100, y: 200, align: "right")
    let leftLayer = try #require(BoothText.layer([left], width: 1200, height: 300, values: [:]))
    let rightLayer = try #require(BoothText.layer([right], width: 1200, height: 300, values: [:]))
    let leftInk = try #require(Self.inked(leftLayer))
    let rightInk = try #require(Self.inked(rightLayer))
    #expect(leftInk.left >= 100 && leftInk.left <= 110, "\(leftInk.left)")
    #expect(rightInk.right <= 1100 && rightInk.right >= 1090, "\(rightInk.right)")
  }

  @Test("the values are filled in; a missing one leaves no dangling separator; empty is nothing")
  func values() {
    #expect(
      BoothText.fill("{event} · {date}", ["event": "Ada's party", "date": "6 December 2026"])
        == "Ada's party · 6 December 2026")
    #expect(
      BoothText.fill("{event} · {date}", ["event": "", "date": "6 December 2026"])
        == "6 December 2026")
    let empty = BoothLayout.Text(text: "{event}", size: 40, x: 10, y: 50)
    #expect(BoothText.layer([empty], width: 100, height: 100, values: ["event": ""]) == nil)
  }

  @Test("over the strip's collage: the event and the date below the shots, in their colours")
  func onTheStrip() throws {
    let layout = BoothLayout.strip
    let layer = try #require(
      BoothText.layer(
        layout.texts, width: layout.canvas.width, height: layout.canvas.height,
        values: ["event": "Ada & Grace", "date": "6 December 2026"]))
    let collage = BoothCollage.compose([], in: layout, layers: [layer]).canvas
    let ink = try #require(Self.inked(layer))
    let lastSlot = layout.slots[3]
    #expect(ink.top > lastSlot.y + lastSlot.height, "text from \(ink.top)")
    #expect(ink.bottom < layout.canvas.height)
    // Somewhere the event's dark grey shows on the white canvas.
    var dark = 0
    for y in ink.top...ink.bottom {
      for x in stride(from: ink.left, through: ink.right, by: 2) where collage[x, y].red < 80 {
        dark += 1
      }
    }
    #expect(dark > 500, "\(dark) dark pixels")
  }
}
