import PhotoTimerImaging

/// What the terminal can show, from its environment.
public struct TerminalGraphics: Hashable, Sendable {
  /// How pictures are drawn.
  public enum Method: Hashable, Sendable {
    /// Half-block cells in 24-bit colour.
    case halfBlocks
    /// The kitty graphics protocol: the picture itself, placed over a block of cells.
    case kitty
  }

  /// Whether the terminal takes 24-bit colour (`COLORTERM=truecolor` or `24bit`).
  public var trueColor: Bool
  /// The best method the terminal announces.
  public var method: Method

  /// Reads the environment: `COLORTERM` for 24-bit colour; kitty's graphics where the
  /// terminal is kitty (`KITTY_WINDOW_ID`, `TERM=xterm-kitty`) or another that speaks its
  /// protocol (`TERM=xterm-ghostty`, `TERM_PROGRAM=WezTerm`), never inside tmux or screen,
  /// which do not pass it through.
  public init(environment: [String: String]) {
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    trueColor = colorTerm == "truecolor" || colorTerm == "24bit"
    let term = environment["TERM"] ?? ""
    let multiplexed =
      environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux")
    let kitty =
      environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty"
      || environment["TERM_PROGRAM"] == "WezTerm"
    method = kitty && !multiplexed ? .kitty : .halfBlocks
  }
}

/// The kitty graphics protocol: a picture sent as RGB pixels, shown over a block of cells,
/// replaced in place by the next one with the same id.
public enum KittyGraphics {
  /// The escape sequences that show `frame` at the cursor, scaled by the terminal to
  /// `columns` × `rows` cells, replacing the image `id` shown before; the cursor does not
  /// move. Sent in chunks of 4096 base64 characters, as the protocol asks.
  public static func image(_ frame: Frame, id: Int, columns: Int, rows: Int) -> [UInt8] {
    let payload = base64(frame.packed.pixels)
    var out: [UInt8] = []
    out.reserveCapacity(payload.count + payload.count / 4096 * 16 + 96)
    var offset = 0
    var first = true
    repeat {
      let end = min(offset + 4096, payload.count)
      let more = end < payload.count ? 1 : 0
      let control =
        first
        ? "a=T,f=24,s=\(frame.width),v=\(frame.height),i=\(id),p=1,c=\(columns),r=\(rows),"
          + "C=1,q=2,z=-1,m=\(more)"
        : "m=\(more)"
      out += Array("\u{1B}_G\(control);".utf8)
      out += payload[offset..<end]
      out += Array("\u{1B}\\".utf8)
      offset = end
      first = false
    } while offset < payload.count
    return out
  }

  /// Deletes image `id` and its placements.
  public static func delete(id: Int) -> [UInt8] {
    Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
  }

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Standard base64 with padding.
  static func base64(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 2 < bytes.count {
      let value =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      out.append(alphabet[Int(value >> 18 & 63)])
      out.append(alphabet[Int(value >> 12 & 63)])
      out.append(alphabet[Int(value >> 6 & 63)])
      out.append(alphabet[Int(value & 63)])
      index += 3
    }
    let left = bytes.count - index
    if left > 0 {
      let value = UInt32(bytes[index]) << 16 | (left > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
      out.append(alphabet[Int(value >> 18 & 63)])
      out.append(alphabet[Int(value >> 12 & 63)])
      out.append(left > 1 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
      out.append(UInt8(ascii: "="))
    }
    return out
  }
}
