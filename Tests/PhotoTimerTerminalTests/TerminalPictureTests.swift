import Foundation
import PhotoTimerImaging
import Testing

@testable import PhotoTimerTerminal

/// A `width` × `height` frame of one colour.
private func solid(_ color: RGB, width: Int = 8, height: Int = 6) -> Frame {
  var frame = Frame(width: width, height: height)
  for y in 0..<height { for x in 0..<width { frame[x, y] = color } }
  return frame
}

/// The cells an escape stream draws: position → (foreground, background), replaying the
/// cursor moves, colours and `▀`s the way a terminal does.
private func replay(_ bytes: [UInt8]) -> [String: (RGB, RGB)] {
  let text = String(decoding: bytes, as: UTF8.self)
  var cells: [String: (RGB, RGB)] = [:]
  var row = 1
  var column = 1
  var foreground = RGB(grey: 0)
  var background = RGB(grey: 0)
  var index = text.startIndex
  while index < text.endIndex {
    if text[index] == "\u{1B}" {
      let body = text.index(index, offsetBy: 2)
      guard let end = text[body...].firstIndex(where: { $0.isLetter }) else { break }
      let numbers = text[body..<end].split(separator: ";").compactMap { Int($0) }
      switch text[end] {
      case "H":
        row = numbers[0]
        column = numbers[1]
      case "m" where numbers.count == 10:
        foreground = RGB(red: UInt8(numbers[2]), green: UInt8(numbers[3]), blue: UInt8(numbers[4]))
        background = RGB(red: UInt8(numbers[7]), green: UInt8(numbers[8]), blue: UInt8(numbers[9]))
      default: break
      }
      index = text.index(after: end)
    } else {
      if text[index] == "▀" {
        cells["\(row),\(column)"] = (foreground, background)
        column += 1
      }
      index = text.index(after: index)
    }
  }
  return cells
}

@Suite("Pictures in the terminal")
struct TerminalPictureTests {
  @Test("Half blocks: two pixel rows to a cell, top in the foreground, bottom behind")
  func halfBlocks() {
    var frame = solid(RGB(grey: 10), width: 3, height: 5)
    frame[1, 0] = RGB(red: 255, green: 0, blue: 0)
    frame[1, 1] = RGB(red: 0, green: 0, blue: 255)
    let picture = HalfBlockPicture(frame)
    #expect(picture.columns == 3 && picture.rows == 3)
    #expect(
      picture[1, 0]
        == TerminalCell(
          top: RGB(red: 255, green: 0, blue: 0), bottom: RGB(red: 0, green: 0, blue: 255)))
    // The odd last row is doubled.
    #expect(picture[2, 2] == TerminalCell(top: RGB(grey: 10), bottom: RGB(grey: 10)))
  }

  @Test("The first picture is drawn whole, at the canvas's place, in exact 24-bit colour")
  func firstDraw() {
    var canvas = TerminalCanvas(row: 3, column: 5)
    let color = RGB(red: 0x33, green: 0x66, blue: 0xCC)
    let (bytes, cells) = canvas.draw(HalfBlockPicture(solid(color)))
    #expect(cells == 24)
    let drawn = replay(bytes)
    #expect(drawn.count == 24)
    #expect(drawn["3,5"]?.0 == color && drawn["5,12"]?.1 == color)
    #expect(drawn["2,5"] == nil && drawn["6,5"] == nil)
  }

  @Test("Only cells that changed are rewritten; noise within the tolerance is not")
  func onlyChanges() {
    var canvas = TerminalCanvas(row: 1, column: 1)
    var frame = solid(RGB(grey: 100))
    _ = canvas.draw(HalfBlockPicture(frame))
    #expect(canvas.draw(HalfBlockPicture(frame)).cells == 0)
    // Noise of ±2: nothing to draw.
    for index in frame.pixels.indices { frame.pixels[index] = index % 2 == 0 ? 102 : 98 }
    #expect(canvas.draw(HalfBlockPicture(frame)).cells == 0)
    // One pixel really changes: one cell, at its place.
    frame[6, 5] = RGB(red: 200, green: 0, blue: 0)
    let (bytes, cells) = canvas.draw(HalfBlockPicture(frame))
    #expect(cells == 1)
    #expect(replay(bytes)["3,7"]?.1 == RGB(red: 200, green: 0, blue: 0))
    // A slow drift is drawn once it passes the tolerance.
    var drifting = solid(RGB(grey: 100))
    var redrawn = 0
    for step in 1...10 {
      for index in drifting.pixels.indices { drifting.pixels[index] = UInt8(100 + step) }
      redrawn += canvas.draw(HalfBlockPicture(drifting)).cells > 0 ? 1 : 0
    }
    #expect(redrawn >= 2)
    #expect(canvas.draw(HalfBlockPicture(solid(RGB(grey: 110)))).cells == 0)
  }

  @Test("After forget (a cleared screen) or a new size, everything is drawn again")
  func forget() {
    var canvas = TerminalCanvas(row: 1, column: 1)
    let frame = solid(RGB(grey: 50))
    _ = canvas.draw(HalfBlockPicture(frame))
    canvas.forget()
    #expect(canvas.draw(HalfBlockPicture(frame)).cells == 24)
    #expect(canvas.draw(HalfBlockPicture(solid(RGB(grey: 50), width: 4, height: 2))).cells == 4)
  }

  @Test("24-bit colour and kitty graphics are read from the environment; never kitty in tmux")
  func environment() {
    #expect(TerminalGraphics(environment: ["COLORTERM": "truecolor"]).trueColor)
    #expect(TerminalGraphics(environment: ["COLORTERM": "24bit"]).trueColor)
    #expect(!TerminalGraphics(environment: ["TERM": "xterm-256color"]).trueColor)
    #expect(TerminalGraphics(environment: ["KITTY_WINDOW_ID": "1"]).method == .kitty)
    #expect(TerminalGraphics(environment: ["TERM": "xterm-kitty"]).method == .kitty)
    #expect(
      TerminalGraphics(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/t,1,0"]).method
        == .halfBlocks)
    #expect(TerminalGraphics(environment: [:]).method == .halfBlocks)
  }

  @Test("Kitty: RGB pixels in base64 chunks of at most 4096, the last one closing the image")
  func kitty() throws {
    var frame = solid(RGB(red: 1, green: 2, blue: 3), width: 64, height: 48)
    frame[0, 0] = RGB(red: 250, green: 251, blue: 252)
    let text = String(
      decoding: KittyGraphics.image(frame, id: 7, columns: 20, rows: 8), as: UTF8.self)
    let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
    #expect(chunks.count == 3)  // 9216 bytes → 12288 base64 characters
    #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=24,s=64,v=48,i=7,p=1,c=20,r=8,"))
    #expect(chunks[0].contains("m=1;") && chunks[1].hasPrefix("\u{1B}_Gm=1;"))
    #expect(chunks[2].hasPrefix("\u{1B}_Gm=0;"))
    let payload = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }.joined()
    #expect(payload.count <= 3 * 4096)
    let decoded = try #require(Data(base64Encoded: payload))
    #expect([UInt8](decoded) == frame.pixels)
    #expect(KittyGraphics.base64([1, 2]) == Array("AQI=".utf8))
    #expect(KittyGraphics.base64([1]) == Array("AQ==".utf8))
  }
}
