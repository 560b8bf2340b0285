import PhotoTimerImaging
import PhotoTimerRemote
import PhotoTimerTerminal

/// Where things go on the full-screen live view with a preview.
///
/// ```
/// row 1            header
/// row 3 …          the preview (the count drawn over it)
/// below it         status line, then the checklist (three lines)
/// ```
struct ScreenLayout: Equatable {
  /// The preview's rectangle in cells, or `nil` when the terminal is too small for one.
  struct Cells: Equatable {
    var row: Int
    var columns: Int
    var rows: Int
  }

  /// The smallest terminal the preview is drawn in: 40 × 16.
  static let minimum = (columns: 40, rows: 16)

  var preview: Cells?
  var statusRow: Int
  var checklistRow: Int

  init(size: (columns: Int, rows: Int)) {
    let previewRows = size.rows - 8
    if size.columns >= Self.minimum.columns, size.rows >= Self.minimum.rows {
      preview = Cells(row: 3, columns: size.columns - 2, rows: previewRows)
      statusRow = 3 + previewRows + 1
    } else {
      preview = nil
      statusRow = 3
    }
    checklistRow = statusRow + 2
  }

  /// Whether a terminal of `size` is big enough for the preview.
  static func fits(_ size: (columns: Int, rows: Int)) -> Bool {
    ScreenLayout(size: size).preview != nil
  }
}

/// The remote's QR code drawn over the preview's top right corner, black on white with its
/// quiet zone, as large as fits in half the picture's height (whole pixels a module, so it
/// stays sharp); nothing when even one pixel a module does not fit.
enum CodeOverlay {
  static func draw(_ code: QRCode, on frame: inout Frame) {
    let side = code.size + 2 * 2
    let scale = min(frame.height * 6 / 10, frame.width / 2) / side
    guard scale >= 1 else { return }
    code.draw(
      on: &frame, quiet: 2, scale: scale, left: frame.width - side * scale - 1, top: 1)
  }
}

/// The count drawn over the preview: big white digits with a soft shadow, in the picture's
/// own pixels, so it works the same in half blocks and in kitty's graphics.
enum CountOverlay {
  /// Draws `number` centred on `frame`, about 45 % of its height.
  static func draw(_ number: Int, on frame: inout Frame) {
    let rows = BigDigits.rows(number)
    let glyph = rows.map { Array($0) }
    let width = glyph.map(\.count).max() ?? 0
    guard width > 0 else { return }
    let scale = max(1, min(frame.height * 45 / 100 / 5, frame.width * 8 / 10 / width))
    let left = (frame.width - width * scale) / 2
    let top = (frame.height - 5 * scale) / 2
    let shadow = max(1, scale / 3)
    func isInk(_ x: Int, _ y: Int) -> Bool {
      let gx = (x - left) / scale
      let gy = (y - top) / scale
      guard x >= left, y >= top, gy < glyph.count, gx < glyph[gy].count else { return false }
      return glyph[gy][gx] == "█"
    }
    let bottom = min(frame.height, top + 5 * scale + shadow)
    let right = min(frame.width, left + width * scale + shadow)
    for y in max(0, top)..<bottom {
      for x in max(0, left)..<right {
        if isInk(x, y) {
          frame[x, y] = RGB(red: 250, green: 250, blue: 250)
        } else if isInk(x - shadow, y - shadow) {
          let pixel = frame[x, y]
          frame[x, y] = RGB(
            red: UInt8(Int(pixel.red) * 3 / 10), green: UInt8(Int(pixel.green) * 3 / 10),
            blue: UInt8(Int(pixel.blue) * 3 / 10))
        }
      }
    }
  }
}

/// What the drawing thread last put on the alternate screen.
struct ScreenState {
  var size: (columns: Int, rows: Int)?
  var canvas = TerminalCanvas(row: 1, column: 1)
  /// Where the picture was drawn and how big (cells), to clear the area when it moves.
  var pictureBox: [Int]?
  /// Each text row's last text.
  var rows: [Int: String] = [:]
}
