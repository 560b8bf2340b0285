import PhotoTimerImaging
import PhotoTimerRemote

/// A booth's collage as its screen shows it after a session: the collage as large as fits
/// on the left, the guests' QR code on the right, one pixel a module or more, so a phone (or
/// `zbarimg`) reads it off the screen. A picture too small for the code (a terminal under
/// about 100 × 30) shows the collage alone; the text view then gives the link in words.
package enum GuestCard {
  /// The card, `room`'s size: `collage` scaled to fit beside `code` (the collage alone
  /// without a code, or when the code does not fit).
  package static func frame(collage: Frame, code: QRCode?, room: PreviewSize) -> Frame {
    var card = Frame(width: room.width, height: room.height)
    for y in 0..<room.height {
      for x in 0..<room.width { card[x, y] = RGB(red: 24, green: 24, blue: 24) }
    }
    var quiet = 4
    var codeWidth = 0
    var scale = 0
    // NB: the full quiet zone when it fits, a narrower one on a smaller terminal (phones
    // read two modules, and one beside a dark surround, but not none).
    if let code {
      for margin in [4, 2, 1] {
        let side = code.size + 2 * margin
        let fits = min(room.height, room.width * 6 / 10) / side
        if fits >= 1 {
          (quiet, scale, codeWidth) = (margin, fits, side * fits)
          break
        }
      }
    }
    let room = PreviewSize(
      width: max(1, room.width - codeWidth - (codeWidth > 0 ? 2 : 0)),
      height: room.height)
    let picture = collage.scaled(toFit: room)
    let left = (room.width - picture.width) / 2
    let top = (room.height - picture.height) / 2
    for y in 0..<picture.height {
      for x in 0..<picture.width { card[left + x, top + y] = picture[x, y] }
    }
    if let code, codeWidth > 0 {
      code.draw(
        on: &card, quiet: quiet, scale: scale, left: card.width - codeWidth,
        top: (card.height - codeWidth) / 2)
    }
    return card
  }
}

extension QRCode {
  /// Draws the code on `frame`, black on white, with `quiet` light modules around it,
  /// `scale` pixels a module, its top left corner at (`left`, `top`).
  package func draw(on frame: inout Frame, quiet: Int, scale: Int, left: Int, top: Int) {
    let side = size + 2 * quiet
    for y in 0..<(side * scale) {
      for x in 0..<(side * scale) {
        let dark = isDark(x: x / scale - quiet, y: y / scale - quiet)
        let value: UInt8 = dark ? 0 : 255
        frame[left + x, top + y] = RGB(red: value, green: value, blue: value)
      }
    }
  }
}
