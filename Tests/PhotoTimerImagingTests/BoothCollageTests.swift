import Foundation
import PhotoTimerImaging
import Testing

/// The collage: each shot in its slot by colour and by place, cut around its faces, turned
/// slots with smooth edges inside their bounds, the overlay's holes, the background.
@Suite("Booth collage")
struct BoothCollageTests {
  static let colours = [
    RGB(red: 220, green: 40, blue: 40), RGB(red: 40, green: 180, blue: 60),
    RGB(red: 40, green: 80, blue: 220), RGB(red: 230, green: 200, blue: 30),
  ]

  static func solid(_ colour: RGB, width: Int = 960, height: Int = 540) -> Frame {
    var frame = Frame(width: width, height: height)
    let pixel = [colour.red, colour.green, colour.blue]
    frame.pixels = Array([[UInt8]](repeating: pixel, count: width * height).joined())
    return frame
  }

  /// Whether two colours are within `tolerance` in every channel.
  static func near(_ a: RGB, _ b: RGB, tolerance: Int = 2) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
      && abs(Int(a.blue) - Int(b.blue)) <= tolerance
  }

  @Test("four shots in the strip: each slot all its shot's colour, the margins the background")
  func stripByColourAndPlace() {
    let shots = Self.colours.map { BoothCollage.Shot(frame: Self.solid($0)) }
    let layout = BoothLayout.strip
    let collage = BoothCollage.compose(shots, in: layout).canvas
    #expect(collage.width == 1200 && collage.height == 3600)
    let white = RGB(red: 255, green: 255, blue: 255)
    for (slot, colour) in zip(layout.slots, Self.colours) {
      for (x, y) in [
        (slot.x, slot.y), (slot.x + slot.width - 1, slot.y + slot.height - 1),
        (slot.x + slot.width / 2, slot.y + slot.height / 2),
      ] {
        #expect(collage[x, y] == colour, "slot at \(slot.y): (\(x), \(y))")
      }
      // Just outside the slot: the background.
      #expect(collage[slot.x - 1, slot.y + 10] == white)
      #expect(collage[slot.x + slot.width, slot.y + 10] == white)
      #expect(collage[slot.x + 10, slot.y + slot.height] == white)
    }
    #expect(collage[600, 3500] == white)
  }

  @Test("fewer shots than slots: they fill the rest again in order; the background's colour")
  func fewerShotsAndColour() {
    var layout = BoothLayout.postcard
    layout.background = "#102030"
    let shots = Self.colours.prefix(2).map { BoothCollage.Shot(frame: Self.solid($0)) }
    let collage = BoothCollage.compose(shots, in: layout).canvas
    for (index, slot) in layout.slots.enumerated() {
      #expect(collage[slot.x + 5, slot.y + 5] == Self.colours[index % 2], "slot \(index)")
    }
    #expect(collage[5, 5] == RGB(red: 16, green: 32, blue: 48))
  }

  @Test("a shot is cut around its faces: a face at the picture's right edge stays in its slot")
  func cutAroundFaces() {
    // A wide picture whose right tenth is a marked face; a square slot shows only part of it.
    var frame = Self.solid(Self.colours[1], width: 2000, height: 600)
    let face = PixelBox(x: 1850, y: 250, width: 100, height: 100)
    for y in 250..<350 { for x in 1850..<1950 { frame[x, y] = Self.colours[0] } }
    let slot = BoothLayout.Slot(x: 0, y: 0, width: 300, height: 300)
    let layout = BoothLayout(
      name: "square", canvas: .init(width: 300, height: 300, dpi: 300), slots: [slot])
    let withFace = BoothCollage.compose([.init(frame: frame, faces: [face])], in: layout)
    #expect(withFace.cutSlots.isEmpty)
    let marked = (0..<300).flatMap { y in (0..<300).map { (x: $0, y: y) } }
      .filter { Self.near(withFace.canvas[$0.x, $0.y], Self.colours[0], tolerance: 10) }
    // The face is 100 px of a 600 px-high crop: a sixth of the slot each way, every bit of it.
    #expect(marked.count > 45 * 45 && marked.count < 55 * 55, "\(marked.count) marked pixels")
    // Without the face the crop is centred and the mark is not in it.
    let centred = BoothCollage.compose([.init(frame: frame)], in: layout).canvas
    #expect(!Self.near(centred[280, 150], Self.colours[0], tolerance: 10))
  }

  @Test("a group wider than a tall slot is said to be cut")
  func cutIsSaid() {
    let frame = Self.solid(Self.colours[2], width: 2000, height: 1000)
    let faces = [
      PixelBox(x: 50, y: 400, width: 100, height: 100),
      PixelBox(x: 1850, y: 400, width: 100, height: 100),
    ]
    let layout = BoothLayout(
      name: "tall", canvas: .init(width: 300, height: 600, dpi: 300),
      slots: [.init(x: 0, y: 0, width: 300, height: 600)])
    #expect(BoothCollage.compose([.init(frame: frame, faces: faces)], in: layout).cutSlots == [0])
  }

  @Test(
    "a turned slot: its centre its shot, its corners off the canvas's straight box, smooth edges",
    arguments: [-3.0, 10, 45, 90])
  func turned(degrees: Double) {
    let slot = BoothLayout.Slot(x: 200, y: 200, width: 400, height: 200, rotation: degrees)
    let layout = BoothLayout(
      name: "turned", canvas: .init(width: 800, height: 600, dpi: 300), background: "#ffffff",
      slots: [slot])
    let colour = Self.colours[2]
    let collage = BoothCollage.compose([.init(frame: Self.solid(colour))], in: layout).canvas
    #expect(collage[400, 300] == colour)
    // A point along the slot's long axis, 180 px from the centre, turned clockwise.
    let angle = degrees * .pi / 180
    let alongX = 400 + Int((180 * cos(angle)).rounded())
    let alongY = 300 + Int((180 * sin(angle)).rounded())
    #expect(Self.near(collage[alongX, alongY], colour), "\(alongX), \(alongY)")
    // Far outside the turned slot: untouched.
    #expect(collage[5, 5] == RGB(red: 255, green: 255, blue: 255))
    // Across an edge the colour goes from the shot's to white over about a pixel, never
    // beyond either.
    let across = (0..<600).map { collage[400, $0] }
    let mixed = across.filter {
      !Self.near($0, colour) && $0 != RGB(red: 255, green: 255, blue: 255)
    }
    #expect(mixed.count <= 4, "\(mixed.count) mixed pixels down the middle")
  }

  @Test("the overlay covers everything but its transparent holes; half alpha mixes")
  func overlayHoles() {
    let layout = BoothLayout.postcard
    let shots = Self.colours.map { BoothCollage.Shot(frame: Self.solid($0)) }
    var overlay = RGBAImage(width: 360, height: 240)  // a tenth of the canvas, scaled up
    for y in 0..<240 {
      for x in 0..<360 {
        let hole = x >= 6 && x < 177 && y >= 6 && y < 105  // over the first slot
        let offset = (y * 360 + x) * 4
        overlay.pixels[offset + 3] = hole ? 0 : (x < 180 ? 255 : 128)
      }
    }
    let collage = BoothCollage.compose(shots, in: layout, layers: [overlay]).canvas
    let first = layout.slots[0]
    #expect(collage[first.x + 200, first.y + 200] == Self.colours[0])
    #expect(collage[10, 2300] == RGB(red: 0, green: 0, blue: 0))
    // The second slot is under half-transparent black: its colour at half strength.
    let second = layout.slots[1]
    let seen = collage[second.x + 200, second.y + 200]
    let half = Self.colours[1]
    #expect(
      Self.near(
        seen,
        RGB(red: half.red / 2 + 0, green: half.green / 2, blue: half.blue / 2), tolerance: 2),
      "\(seen)")
  }

  @Test("a background picture is scaled to the canvas")
  func backgroundPicture() {
    let layout = BoothLayout(
      name: "plain", canvas: .init(width: 400, height: 200, dpi: 100),
      slots: [.init(x: 0, y: 0, width: 100, height: 100)])
    let background = Self.solid(Self.colours[3], width: 40, height: 20)
    let collage = BoothCollage.compose([], in: layout, background: background).canvas
    #expect(collage[399, 199] == Self.colours[3])
  }

  @Test("the same shots give the same bytes")
  func deterministic() {
    let shots = Self.colours.map {
      BoothCollage.Shot(frame: Self.solid($0, width: 640, height: 480))
    }
    var layout = BoothLayout.strip
    layout.slots[1].rotation = -4
    #expect(
      BoothCollage.compose(shots, in: layout).canvas.pixels
        == BoothCollage.compose(shots, in: layout).canvas.pixels)
  }
}
