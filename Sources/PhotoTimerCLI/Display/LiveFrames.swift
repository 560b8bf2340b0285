import PhotoTimer
import PhotoTimerImaging
import PhotoTimerRemote
import PhotoTimerTerminal

/// The live view's frames as bytes: pure functions of the presentation's words, the newest
/// preview and what the terminal shows now, so a frame is tested without a terminal.
///
/// The full-screen frame (with a preview) rewrites only the rows and cells that changed
/// since the last one; a new size clears the screen and draws everything. The text frame
/// (no preview) moves the cursor back over the lines it drew last and draws them again.
struct LiveFrames {
  /// How the preview is drawn, or `nil` for the text view.
  let method: TerminalGraphics.Method?
  /// The remote's link as a QR code, drawn over the picture while nothing counts.
  var code: QRCode?
  /// The guests' link to the last booth session and its QR code, shown until the next count.
  var guest: GuestLink?

  /// A guests' link and its QR code (`nil` when the link is too long for one).
  struct GuestLink {
    var link: String
    var code: QRCode?
  }

  /// Whether the guests' code is shown now (the picture's place shows it, not the remote's).
  var guestCode: QRCode? { guest?.code }
  /// What the last full-screen frame left on the alternate screen.
  private(set) var screen = ScreenState()
  /// How many lines the last text frame drew.
  private(set) var drawnLines = 0

  init(method: TerminalGraphics.Method?) {
    self.method = method
  }

  /// The room the preview is drawn in on a terminal of `size`, in pixels, or `nil` when it
  /// is too small for one.
  static func previewRoom(
    method: TerminalGraphics.Method?, size: (columns: Int, rows: Int)
  ) -> PreviewSize? {
    guard let method, let cells = ScreenLayout(size: size).preview else { return nil }
    switch method {
    case .halfBlocks: return PreviewSize(width: cells.columns, height: cells.rows * 2)
    // NB: kitty scales the picture to the cells, and each frame is sent whole (base64): four
    // pixels across a cell, eight down, at most 640 × 480 (about 0.8 MB a frame).
    case .kitty:
      return PreviewSize(width: min(cells.columns * 4, 640), height: min(cells.rows * 8, 480))
    }
  }

  /// The full-screen frame: header, the preview with the faces outlined on it and the count
  /// over it, status, checklist.
  ///
  /// - Parameters:
  ///   - words: The presentation's words.
  ///   - preview: The picture's place: the live preview, the flash or the photo.
  ///   - faces: The faces to outline (the presentation's, only over the live preview).
  ///   - mirrored: Whether the preview is mirrored (the faces are mirrored with it).
  ///   - size: The terminal's size.
  mutating func screen(
    _ words: ScreenText, preview: Frame?, faces: [FaceMark] = [], mirrored: Bool = false,
    size: (columns: Int, rows: Int)
  ) -> [UInt8] {
    let layout = ScreenLayout(size: size)
    var out: [UInt8] = []
    var texts: [Int: String] = [
      1: words.header(width: size.columns), layout.statusRow: words.statusLine(),
    ]
    for (offset, line) in words.checklist().enumerated() {
      texts[layout.checklistRow + offset] = line
    }
    if screen.size.map({ $0 != size }) ?? true {
      // A new size: start from a clear screen.
      out += Array("\u{1B}[0m\u{1B}[2J".utf8)
      if method == .kitty { out += KittyGraphics.delete(id: 1) }
      screen = ScreenState()
      screen.size = size
    }
    if let cells = layout.preview, var frame = preview {
      let pictureRows = method == .kitty ? cells.rows : (frame.height + 1) / 2
      let pictureColumns =
        method == .kitty
        ? min(
          cells.columns, Int(Double(frame.width) / Double(frame.height) * Double(cells.rows) * 2))
        : frame.width
      // NB: a frame scaled for the size before a resize does not fit: wait for the next.
      if pictureColumns <= cells.columns, pictureRows <= cells.rows {
        FaceOutline.draw(faces, mirrored: mirrored, on: &frame)
        if let count = words.presentation.count {
          CountOverlay.draw(count, on: &frame)
        } else if let code, guestCode == nil, words.presentation.actions.contains(.start) {
          // NB: after a collage the picture's place shows the guests' code: the control
          // link's is not drawn over it.
          CodeOverlay.draw(code, on: &frame)
        }
        let row = cells.row + (cells.rows - pictureRows) / 2
        let column = 1 + (size.columns - pictureColumns) / 2
        let box = [row, column, pictureColumns, pictureRows]
        if screen.pictureBox != box {
          if let old = screen.pictureBox {
            for line in old[0]..<(old[0] + old[3]) {
              out += Array("\u{1B}[\(line);1H\u{1B}[2K".utf8)
            }
          }
          screen.canvas = TerminalCanvas(row: row, column: column)
          screen.pictureBox = box
        }
        switch method {
        case .kitty:
          out += Array("\u{1B}[\(row);\(column)H".utf8)
          out += KittyGraphics.image(frame, id: 1, columns: pictureColumns, rows: pictureRows)
        case .halfBlocks, nil:
          out += screen.canvas.draw(HalfBlockPicture(frame)).text
        }
      }
    }
    for (row, text) in texts.sorted(by: { $0.key < $1.key }) where screen.rows[row] != text {
      out += Array("\u{1B}[\(row);1H\(Self.clip(text, to: size.columns))\u{1B}[0m\u{1B}[K".utf8)
      screen.rows[row] = text
    }
    return out
  }

  /// The text frame: header, the count in big digits (or the status), the checklist, drawn
  /// over the lines the last text frame drew.
  ///
  /// After a booth's collage the guests' QR code takes the big status's place, with the
  /// status under it, until the next count: with a full quiet zone when the terminal has the
  /// rows, a narrower one when not, and the link in words when even that does not fit.
  mutating func text(_ words: ScreenText, width: Int, height: Int = .max) -> [UInt8] {
    let lines =
      guest.map { guestLines(words, $0, width: width, height: height) }
      ?? [words.header(width: width), ""] + words.bigStatus(width: width) + [""]
      + words.checklist()
    let clipped = lines.map { Self.clip($0, to: width) }
    var text = ""
    if drawnLines > 0 { text += "\u{1B}[\(drawnLines)F" }
    text += clipped.map { $0 + "\u{1B}[K\n" }.joined()
    text += "\u{1B}[J"
    drawnLines = clipped.count
    return Array(text.utf8)
  }

  private func guestLines(
    _ words: ScreenText, _ guest: GuestLink, width: Int, height: Int
  ) -> [String] {
    let header = [words.header(width: width), ""]
    let status = ["", words.statusLine()]
    for quiet in [4, 2] {
      guard let code = guest.code?.halfBlockLines(quiet: quiet) else { break }
      let lines = header + ["  Your photos: scan this with your phone's camera", ""] + code
      if lines.count + status.count <= height, (code.first?.count ?? 0) + 2 <= width {
        return header + ["  Your photos: scan this with your phone's camera", ""]
          + code.map { "  " + $0 } + status
      }
    }
    return header + ["  Your photos: open this on your phone", "  " + guest.link] + status
  }

  /// Cuts a line to `width` visible characters (escape sequences do not count).
  static func clip(_ line: String, to width: Int) -> String {
    var visible = 0
    var result = ""
    var inEscape = false
    for character in line {
      if inEscape {
        result.append(character)
        if character.isLetter { inEscape = false }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        result.append(character)
        continue
      }
      guard visible < width - 1 else { continue }
      result.append(character)
      visible += 1
    }
    return result
  }
}
