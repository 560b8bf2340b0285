import PhotoTimerImaging

/// A rectangle of the terminal that remembers what it shows, so a new picture rewrites only
/// the cells that changed.
///
/// A cell counts as unchanged while each channel stays within ``tolerance`` of what was
/// last written there: sensor noise does not repaint the whole preview every frame, and a
/// change that builds up past the tolerance is drawn.
///
/// ```swift
/// var canvas = TerminalCanvas(row: 3, column: 2)
/// output.write(canvas.draw(HalfBlockPicture(frame)).text)
/// ```
public struct TerminalCanvas: Sendable {
  /// The top row, counted from 1 as terminals do.
  public var row: Int
  /// The left column, counted from 1.
  public var column: Int
  /// How far a channel may drift before the cell is rewritten (default 3 of 255).
  public var tolerance: Int
  private var shown: [TerminalCell?] = []
  private var shownColumns = 0
  private var shownRows = 0

  /// Creates an empty canvas whose top left cell is at `row`, `column` (1-based).
  public init(row: Int, column: Int, tolerance: Int = 3) {
    self.row = max(row, 1)
    self.column = max(column, 1)
    self.tolerance = max(tolerance, 0)
  }

  /// Forgets what is on screen (after the screen was cleared): the next picture is drawn
  /// whole.
  public mutating func forget() {
    shown = []
    shownColumns = 0
    shownRows = 0
  }

  /// The escape sequences that turn what is shown into `picture`, and how many cells they
  /// write; the colours are reset at the end.
  public mutating func draw(_ picture: HalfBlockPicture) -> (text: [UInt8], cells: Int) {
    if picture.columns != shownColumns || picture.rows != shownRows {
      shown = Array(repeating: nil, count: picture.columns * picture.rows)
      shownColumns = picture.columns
      shownRows = picture.rows
    }
    var out = EscapeWriter()
    var written = 0
    var cursor: (row: Int, column: Int)?
    var foreground: RGB?
    var background: RGB?
    for y in 0..<picture.rows {
      for x in 0..<picture.columns {
        let index = y * picture.columns + x
        let cell = picture.cells[index]
        if let old = shown[index], old.isClose(to: cell, tolerance: tolerance) { continue }
        shown[index] = cell
        written += 1
        if cursor?.row != y || cursor?.column != x {
          out.moveTo(row: row + y, column: column + x)
        }
        if foreground != cell.top || background != cell.bottom {
          out.colours(foreground: cell.top, background: cell.bottom)
          foreground = cell.top
          background = cell.bottom
        }
        out.upperHalfBlock()
        cursor = (y, x + 1)
      }
    }
    if written > 0 { out.reset() }
    return (out.bytes, written)
  }
}

/// Escape sequences written straight into bytes (a preview writes thousands a frame).
struct EscapeWriter {
  private(set) var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(1 << 16) }

  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func number(_ value: Int) {
    if value >= 10 { number(value / 10) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  /// CSI row ; column H.
  mutating func moveTo(row: Int, column: Int) {
    append("\u{1B}[")
    number(row)
    bytes.append(UInt8(ascii: ";"))
    number(column)
    bytes.append(UInt8(ascii: "H"))
  }

  /// 24-bit foreground and background: CSI 38;2;r;g;b;48;2;r;g;b m.
  mutating func colours(foreground: RGB, background: RGB) {
    append("\u{1B}[38;2;")
    triple(foreground)
    append(";48;2;")
    triple(background)
    bytes.append(UInt8(ascii: "m"))
  }

  private mutating func triple(_ color: RGB) {
    number(Int(color.red))
    bytes.append(UInt8(ascii: ";"))
    number(Int(color.green))
    bytes.append(UInt8(ascii: ";"))
    number(Int(color.blue))
  }

  /// `▀`, U+2580.
  mutating func upperHalfBlock() { bytes.append(contentsOf: [0xE2, 0x96, 0x80]) }

  mutating func reset() { append("\u{1B}[0m") }
}
