import PhotoTimerImaging

/// One character cell of a picture drawn with the upper-half block `▀`: its upper half in
/// the foreground colour, its lower half in the background colour.
public struct TerminalCell: Hashable, Sendable {
  /// The upper pixel.
  public var top: RGB
  /// The lower pixel.
  public var bottom: RGB

  /// Creates a cell.
  public init(top: RGB, bottom: RGB) {
    self.top = top
    self.bottom = bottom
  }

  /// Whether each channel of both halves is within `tolerance` of `other`'s.
  public func isClose(to other: TerminalCell, tolerance: Int) -> Bool {
    func near(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= tolerance }
    return near(top.red, other.top.red) && near(top.green, other.top.green)
      && near(top.blue, other.top.blue) && near(bottom.red, other.bottom.red)
      && near(bottom.green, other.bottom.green) && near(bottom.blue, other.bottom.blue)
  }
}

/// A frame as character cells, two pixels to a cell (one above the other): a terminal cell
/// is about twice as tall as it is wide, so each pixel comes out about square.
///
/// ```swift
/// let picture = HalfBlockPicture(frame.scaled(toFit: PreviewSize(width: 120, height: 70)))
/// ```
public struct HalfBlockPicture: Hashable, Sendable {
  /// Cells across.
  public let columns: Int
  /// Cells down: half the frame's height, rounded up.
  public let rows: Int
  /// The cells, row by row.
  public private(set) var cells: [TerminalCell]

  /// Cuts `frame` into cells; an odd last pixel row is doubled.
  public init(_ frame: Frame) {
    columns = frame.width
    rows = (frame.height + 1) / 2
    var cells: [TerminalCell] = []
    cells.reserveCapacity(columns * rows)
    for row in 0..<rows {
      let upper = row * 2
      let lower = min(upper + 1, frame.height - 1)
      for column in 0..<columns {
        cells.append(TerminalCell(top: frame[column, upper], bottom: frame[column, lower]))
      }
    }
    self.cells = cells
  }

  /// The cell at `column`, `row`.
  public subscript(column: Int, row: Int) -> TerminalCell { cells[row * columns + column] }
}

extension HalfBlockPicture {
  /// The picture as lines of text in 24-bit colour, each ending with the colours reset: for
  /// the normal screen, where it scrolls with the text around it (no cursor addressing).
  ///
  /// - Parameter indent: Spaces before each line.
  /// - Returns: One string per row of cells, without newlines.
  public func lines(indent: Int = 0) -> [String] {
    (0..<rows).map { y in
      var out = EscapeWriter()
      var colours: (RGB, RGB)?
      for x in 0..<columns {
        let cell = self[x, y]
        if colours.map({ $0.0 != cell.top || $0.1 != cell.bottom }) ?? true {
          out.colours(foreground: cell.top, background: cell.bottom)
          colours = (cell.top, cell.bottom)
        }
        out.upperHalfBlock()
      }
      out.reset()
      return String(repeating: " ", count: indent) + String(decoding: out.bytes, as: UTF8.self)
    }
  }
}
