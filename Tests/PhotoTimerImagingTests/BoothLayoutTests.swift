import Foundation
import PhotoTimerImaging
import Testing

/// Layouts are data: the built-ins hold, and every mistake a layout file can make is refused
/// with its field and what to change; a shot is cropped to its slot around the faces.
@Suite("Booth layouts and shot crops")
struct BoothLayoutTests {
  static func parse(_ json: String, shots: Int = 4) -> [LayoutError.Problem] {
    do {
      _ = try BoothLayout.parse(
        Data(json.utf8), file: "party.json", shots: shots, folder: "/layouts",
        exists: { $0 == "/layouts/frame.png" })
      return []
    } catch {
      return error.problems
    }
  }

  static let canvas = #""canvas": {"width": 1200, "height": 3600, "dpi": 600}"#
  static let fourSlots =
    #""slots": [{"x": 60, "y": 60, "width": 1080, "height": 720}, {"x": 60, "y": 840, "width": 1080, "height": 720}, {"x": 60, "y": 1620, "width": 1080, "height": 720}, {"x": 60, "y": 2400, "width": 1080, "height": 720}]"#

  static let slotsPastEnd = fourSlots.replacingOccurrences(
    of: #""y": 2400"#, with: #""y": 3000"#)

  @Test("the built-ins hold for their shots, and one is refused for more shots than slots")
  func builtIns() throws {
    for (name, shots) in [("strip", 4), ("postcard", 4), ("single", 1)] {
      let layout = try BoothLayout.load(name, shots: shots)
      #expect(layout.slots.count == shots)
      #expect(layout.problems(shots: shots, folder: "", exists: { _ in false }).isEmpty)
    }
    #expect(BoothLayout.strip.canvas == .init(width: 1200, height: 3600, dpi: 600))  // 2 × 6 in
    #expect(BoothLayout.postcard.canvas == .init(width: 3600, height: 2400, dpi: 600))  // 6 × 4 in
    let error = #expect(throws: LayoutError.self) { try BoothLayout.load("single", shots: 4) }
    #expect(
      error?.description == "single: slots: 1 slot for 4 shots; add 3 slots, or take 1 (--shots 1)")
    let unknown = #expect(throws: LayoutError.self) { try BoothLayout.load("fancy", shots: 4) }
    #expect(unknown?.problems.first?.fix == "use strip, postcard, single, or a JSON file's path")
  }

  @Test(
    "every mistake of a layout file: its field, what is wrong, what to change",
    arguments: [
      (##"{"canvas": "##, "file", "is not JSON"),
      (##"{"slots": []}"##, "canvas", "is missing"),
      (
        ##"{\##(canvas), "slots": [{"x": 0, "y": 0, "width": "wide", "height": 10}]}"##,
        "slots[0].width", "is not a whole number"
      ),
      (
        ##"{\##(canvas), "slots": [{"x": 0, "y": 0, "height": 10}]}"##, "slots[0].width",
        "is missing"
      ),
      (
        ##"{\##(canvas), \##(slotsPastEnd)}"##,
        "slots[3]", "reaches outside the canvas (x 60…1140, y 3000…3720 on a 1200 × 3600 canvas)"
      ),
      (
        ##"{\##(canvas), "slots": [{"x": 60, "y": 60, "width": 1080, "height": 720, "rotation": 90}]}"##,
        "slots[0]", "reaches outside the canvas turned 90.0°"
      ),
      (
        ##"{\##(canvas), "slots": [{"x": 0, "y": 0, "width": 0, "height": 10}]}"##, "slots[0]",
        "0 × 10 pixels"
      ),
      (
        ##"{\##(canvas), "slots": [{"x": 60, "y": 60, "width": 100, "height": 100}]}"##, "slots",
        "1 slot for 4 shots"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "overlay": "missing.png"}"##, "overlay",
        "no file /layouts/missing.png"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "overlay": "frame.gif"}"##, "overlay",
        "'frame.gif' is not a PNG"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "background": "pink"}"##, "background",
        "'pink' is neither a colour nor a PNG"
      ),
      (
        ##"{"canvas": {"width": 0, "height": 3600, "dpi": 600}, \##(fourSlots)}"##, "canvas",
        "0 × 3600 pixels"
      ),
      (
        ##"{"canvas": {"width": 1200, "height": 3600, "dpi": 5}, \##(fourSlots)}"##, "canvas.dpi",
        "5"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "texts": [{"text": "{venue}", "font": "Sans", "size": 40, "colour": "#000000", "x": 600, "y": 3400, "align": "center"}]}"##,
        "texts[0].text", "{venue} is not a placeholder"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "texts": [{"text": "{event}", "font": "Sans", "size": 40, "colour": "black", "x": 600, "y": 3400, "align": "center"}]}"##,
        "texts[0].colour", "'black'"
      ),
      (
        ##"{\##(canvas), \##(fourSlots), "texts": [{"text": "{date}", "font": "Sans", "size": 40, "colour": "#000000", "x": 600, "y": 4000, "align": "middle"}]}"##,
        "texts[0]", "its anchor (600, 4000) is outside the canvas"
      ),
    ])
  func mistakes(json: String, field: String, problem: String) {
    let problems = Self.parse(json)
    #expect(
      problems.contains { $0.field == field && $0.problem.hasPrefix(problem) && !$0.fix.isEmpty },
      "\(problems)")
  }

  @Test("a good file loads; every problem is said at once, a line each")
  func goodAndMany() throws {
    #expect(Self.parse(#"{\#(Self.canvas), \#(Self.fourSlots), "overlay": "frame.png"}"#).isEmpty)
    let many = Self.parse(
      ##"{\##(Self.canvas), "slots": [{"x": -5, "y": 0, "width": 10, "height": 10}], "background": "#12345"}"##
    )
    #expect(many.map(\.field) == ["slots", "slots[0]", "background"])
  }

  @Test("a crop with no faces is centred; with faces it holds them, with their margin when it can")
  func crops() {
    let centred = ShotCrop.crop(width: 1920, height: 1080, aspect: 1, faces: [])
    #expect(centred.box == PixelBox(x: 420, y: 0, width: 1080, height: 1080))
    // A face at the left edge: the square moves left to hold it and its margin.
    let left = ShotCrop.crop(
      width: 1920, height: 1080, aspect: 1,
      faces: [PixelBox(x: 40, y: 300, width: 200, height: 200)])
    #expect(left.box.x == 0 && !left.cutsFaces)
    // Two faces at the far edges cannot both be in a square: said.
    let apart = ShotCrop.crop(
      width: 1920, height: 1080, aspect: 1,
      faces: [
        PixelBox(x: 20, y: 400, width: 150, height: 150),
        PixelBox(x: 1750, y: 400, width: 150, height: 150),
      ])
    #expect(apart.cutsFaces)
    // A wide slot from a tall picture: full width, placed on the faces' height.
    let wide = ShotCrop.crop(
      width: 1080, height: 1920, aspect: 1.5,
      faces: [PixelBox(x: 400, y: 1500, width: 200, height: 200)])
    #expect(wide.box.width == 1080 && wide.box.height == 720 && !wide.cutsFaces)
    #expect(wide.box.y <= 1500 - 50 && wide.box.y + 720 >= 1700)
  }
}
