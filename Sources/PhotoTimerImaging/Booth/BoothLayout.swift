import Foundation

/// A collage's layout, as data: the canvas, the slots the session's shots go in, an optional
/// background and overlay, and the text fields (the event's name, the date).
///
/// Written as JSON (`--layout FILE`), or one of the built-ins by name (`strip`, `postcard`,
/// `single`):
///
/// ```json
/// {
///   "name": "strip",
///   "canvas": {"width": 1200, "height": 3600, "dpi": 600},
///   "background": "#ffffff",
///   "overlay": "frame.png",
///   "slots": [{"x": 60, "y": 60, "width": 1080, "height": 720, "rotation": 0}],
///   "texts": [{"text": "{event}", "font": "Sans Bold", "size": 72, "colour": "#202020",
///              "x": 600, "y": 3330, "align": "center"}]
/// }
/// ```
///
/// Pixels are the canvas's; a slot's rotation is in degrees, clockwise, about its centre. A
/// background is a colour (`#rrggbb`) or a PNG; the overlay is a PNG drawn over the shots,
/// with transparent holes where they show; both paths are relative to the layout's file. A
/// text field's `{event}` and `{date}` are replaced by the event's name and the session's date.
/// ``load(_:shots:read:exists:)`` refuses a wrong layout with the file, the field and what to
/// change.
public struct BoothLayout: Codable, Equatable, Sendable {
  /// The canvas: its size in pixels, and the dots per inch it prints at.
  public struct Canvas: Codable, Equatable, Sendable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// The dots per inch it prints at.
    public var dpi: Int

    /// Creates a canvas.
    public init(width: Int, height: Int, dpi: Int) {
      self.width = width
      self.height = height
      self.dpi = dpi
    }
  }

  /// Where one shot goes.
  public struct Slot: Codable, Equatable, Sendable {
    /// The left edge, in canvas pixels.
    public var x: Int
    /// The top edge, in canvas pixels.
    public var y: Int
    /// The width, in canvas pixels.
    public var width: Int
    /// The height, in canvas pixels.
    public var height: Int
    /// Degrees, clockwise, about the slot's centre.
    public var rotation: Double

    /// Creates a slot.
    public init(x: Int, y: Int, width: Int, height: Int, rotation: Double = 0) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
      self.rotation = rotation
    }

    /// The slot's width over its height: the shape its shot is cropped to.
    public var aspect: Double { Double(width) / Double(height) }

    enum CodingKeys: String, CodingKey { case x, y, width, height, rotation }

    /// Decodes a slot; `rotation` may be left out (0).
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      x = try container.decode(Int.self, forKey: .x)
      y = try container.decode(Int.self, forKey: .y)
      width = try container.decode(Int.self, forKey: .width)
      height = try container.decode(Int.self, forKey: .height)
      rotation = try container.decodeIfPresent(Double.self, forKey: .rotation) ?? 0
    }
  }

  /// A line of text on the collage.
  public struct Text: Codable, Equatable, Sendable {
    /// What it says; `{event}` and `{date}` are filled in.
    public var text: String
    /// A Pango font description: `Sans Bold`.
    public var font: String
    /// The font's size in canvas pixels.
    public var size: Int
    /// `#rrggbb`.
    public var colour: String
    /// Where it is anchored across, in canvas pixels (the baseline's start, middle or end).
    public var x: Int
    /// Where it is anchored down: the baseline, in canvas pixels.
    public var y: Int
    /// `left`, `center` or `right` of the anchor.
    public var align: String

    /// Creates a text field.
    public init(
      text: String, font: String = "Sans", size: Int, colour: String = "#000000", x: Int, y: Int,
      align: String = "center"
    ) {
      self.text = text
      self.font = font
      self.size = size
      self.colour = colour
      self.x = x
      self.y = y
      self.align = align
    }
  }

  /// The layout's name (`strip`).
  public var name: String
  /// The canvas.
  public var canvas: Canvas
  /// A colour (`#rrggbb`) or a PNG's path; white when left out.
  public var background: String?
  /// A PNG's path, drawn over the shots.
  public var overlay: String?
  /// Where the shots go, one a shot, in order.
  public var slots: [Slot]
  /// The lines of text.
  public var texts: [Text]

  /// Creates a layout.
  public init(
    name: String, canvas: Canvas, background: String? = nil, overlay: String? = nil,
    slots: [Slot], texts: [Text] = []
  ) {
    self.name = name
    self.canvas = canvas
    self.background = background
    self.overlay = overlay
    self.slots = slots
    self.texts = texts
  }

  enum CodingKeys: String, CodingKey { case name, canvas, background, overlay, slots, texts }

  /// Decodes a layout; `name`, `background`, `overlay` and `texts` may be left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? "layout"
    canvas = try container.decode(Canvas.self, forKey: .canvas)
    background = try container.decodeIfPresent(String.self, forKey: .background)
    overlay = try container.decodeIfPresent(String.self, forKey: .overlay)
    slots = try container.decode([Slot].self, forKey: .slots)
    texts = try container.decodeIfPresent([Text].self, forKey: .texts) ?? []
  }

  // MARK: - Built in

  /// A 2 × 6 in strip at 600 dpi: four 3:2 shots one above the other, the event and the date
  /// below them.
  public static let strip = BoothLayout(
    name: "strip", canvas: Canvas(width: 1200, height: 3600, dpi: 600), background: "#ffffff",
    slots: (0..<4).map { Slot(x: 60, y: 60 + $0 * 780, width: 1080, height: 720) },
    texts: [
      Text(text: "{event}", font: "Sans Bold", size: 84, colour: "#202020", x: 600, y: 3330),
      Text(text: "{date}", font: "Sans", size: 56, colour: "#505050", x: 600, y: 3470),
    ])

  /// A 6 × 4 in postcard at 600 dpi: four shots two by two, the event and the date below.
  public static let postcard = BoothLayout(
    name: "postcard", canvas: Canvas(width: 3600, height: 2400, dpi: 600), background: "#ffffff",
    slots: [(60, 60), (1830, 60), (60, 1110), (1830, 1110)].map {
      Slot(x: $0.0, y: $0.1, width: 1710, height: 990)
    },
    texts: [
      Text(
        text: "{event} · {date}", font: "Sans Bold", size: 96, colour: "#202020", x: 1800,
        y: 2320)
    ])

  /// A 6 × 4 in print at 600 dpi: one shot in a white frame, the event and the date below.
  public static let single = BoothLayout(
    name: "single", canvas: Canvas(width: 3600, height: 2400, dpi: 600), background: "#ffffff",
    slots: [Slot(x: 120, y: 120, width: 3360, height: 1920)],
    texts: [
      Text(
        text: "{event} · {date}", font: "Sans Bold", size: 110, colour: "#202020", x: 1800,
        y: 2290)
    ])

  /// The built-in layouts, by name.
  public static let builtIn = [strip, postcard, single]
}
