/// A manual page, as blocks of text, rendered as roff for `man`.
///
/// Text in a block is plain UTF-8 with two marks of its own: `` `code` `` is set in bold, and
/// `*word*` in italics. Everything roff would read as a request or an escape is escaped; the
/// characters outside ASCII the help uses are set as roff's own (`…` as `...`, `·` as a
/// bullet), any other as `\[uXXXX]`, so `groff -ww` has nothing to warn about.
package struct ManualPage: Equatable, Sendable {
  /// One block of a section.
  package enum Block: Equatable, Sendable {
    /// A paragraph.
    case paragraph(String)
    /// A term (set as given: use the marks) and its description, as in a list of options.
    case item(term: String, text: [String])
    /// Lines shown as they are, in a fixed font (a command and its output).
    case example([String])
  }

  /// A titled section (`OPTIONS`).
  package struct Section: Equatable, Sendable {
    package var title: String
    package var blocks: [Block]

    package init(_ title: String, _ blocks: [Block]) {
      self.title = title
      self.blocks = blocks
    }
  }

  /// The program's name (`phototimer`).
  package var name: String
  /// The manual's section number (1: user commands).
  package var section: Int
  /// The program's version, shown in the page's footer.
  package var version: String
  /// What it is, in the NAME line.
  package var summary: String
  /// The SYNOPSIS lines, with marks.
  package var synopsis: [String]
  /// Every section after SYNOPSIS, in order.
  package var sections: [Section]

  /// The page as roff (the `man` macros).
  package var roff: String {
    var lines = [
      ".\\\" Generated from phototimer's option declarations (phototimer __generate man);"
        + " do not edit.",
      ".TH \(Self.quoted(name.uppercased())) \(section) \"\" \(Self.quoted("phototimer \(version)"))"
        + " \"User Commands\"",
      // NB: no hyphenation and a ragged right edge: an option or a path is never broken.
      ".nh",
      ".ad l",
      ".SH NAME",
      Self.escape(name) + " \\- " + Self.escape(summary),
      ".SH SYNOPSIS",
    ]
    for (index, line) in synopsis.enumerated() {
      if index > 0 { lines.append(".br") }
      lines.append(Self.text(line))
    }
    for section in sections {
      lines.append(".SH " + Self.quoted(section.title))
      for block in section.blocks {
        switch block {
        case .paragraph(let text):
          lines += [".PP", Self.text(text)]
        case .item(let term, let text):
          lines += [".TP", Self.text(term)]
          for (index, paragraph) in text.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(Self.text(paragraph))
          }
        case .example(let example):
          lines += [".PP", ".nf", ".RS 4"] + example.map { Self.escape($0) } + [".RE", ".fi"]
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The characters the help text uses, as roff sets them on every device (a terminal in
  /// any locale, PostScript): `…` as `...`, `×` as `x`.
  static let plainCharacters: [Character: String] = [
    "…": "...", "×": "x", "·": "\\(bu", "—": "\\(em", "–": "\\(en", "→": "\\(->",
    "’": "'", "‘": "`", "“": "\\(lq", "”": "\\(rq", "≤": "\\(<=", "≥": "\\(>=",
  ]

  /// A roff argument in double quotes.
  static func quoted(_ text: String) -> String {
    "\"" + escape(text).replacing("\"", with: "\\(dq") + "\""
  }

  /// `text` with its marks turned into font changes, escaped.
  package static func text(_ text: String) -> String {
    var out = ""
    var inCode = false
    var inItalic = false
    var previous: Character = " "
    for (index, character) in text.enumerated() {
      let next = text.dropFirst(index + 1).first ?? " "
      if character == "`" {
        out += inCode ? "\\fR" : "\\fB"
        inCode.toggle()
      } else if character == "*", !inCode,
        inItalic ? next.isPunctuationOrSpace : !next.isWhitespace && previous.isPunctuationOrSpace
      {
        out += inItalic ? "\\fR" : "\\fI"
        inItalic.toggle()
      } else {
        out += escape(String(character), after: previous, startsLine: false)
      }
      previous = character
    }
    if inCode || inItalic { out += "\\fR" }
    return out.hasPrefix(".") || out.hasPrefix("'") ? "\\&" + out : out
  }

  /// `text` escaped for roff: backslashes, a leading control character, the hyphens of
  /// options and paths as minus signs (so `--seconds` can be copied from the page), anything
  /// outside ASCII by its code point. `startsLine`: whether `text` begins a line of roff, where
  /// a leading `.` or `'` would be read as a request.
  package static func escape(
    _ text: String, after start: Character = " ", startsLine: Bool = true
  ) -> String {
    var out = ""
    var previous = start
    for character in text {
      switch character {
      case "\\": out += "\\e"
      case "-" where previous.isPunctuationOrSpace || previous == "-": out += "\\-"
      default:
        if character.isASCII {
          out.append(character)
        } else if let plain = Self.plainCharacters[character] {
          out += plain
        } else {
          for scalar in character.unicodeScalars {
            out += "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(4) + "]"
          }
        }
      }
      previous = character
    }
    if startsLine, out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}

extension Character {
  fileprivate var isPunctuationOrSpace: Bool { isWhitespace || isPunctuation || isSymbol }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: Swift.max(0, width - count)) + self
  }
}
