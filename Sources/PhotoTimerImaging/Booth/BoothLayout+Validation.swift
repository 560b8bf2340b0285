import Foundation

/// Why a layout was refused: for each problem, the field, what is wrong with it and what to
/// change; all of them at once, so one edit can fix them all.
public struct LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
  /// One problem of the layout.
  public struct Problem: Equatable, Sendable {
    /// Where: `slots[2].width`, `overlay`, `canvas`.
    public var field: String
    /// What is wrong.
    public var problem: String
    /// What to change.
    public var fix: String

    /// A problem.
    public init(field: String, problem: String, fix: String) {
      self.field = field
      self.problem = problem
      self.fix = fix
    }
  }

  /// The layout's file, or the built-in's name.
  public var file: String
  /// Every problem found.
  public var problems: [Problem]

  /// `strip.json: slots[2]: …; …`, a line a problem.
  public var description: String {
    problems.map { "\(file): \($0.field): \($0.problem); \($0.fix)" }.joined(separator: "\n")
  }
}

extension BoothLayout {
  /// The placeholders a text field may hold.
  public static let placeholders = ["{event}", "{date}"]

  /// The layout `name` names: a built-in (`strip`, `postcard`, `single`) or a JSON file,
  /// checked for a session of `shots`; a file's overlay and background pictures come back as
  /// paths found from the file's folder.
  ///
  /// - Parameters:
  ///   - name: A built-in's name, or a file's path.
  ///   - shots: How many shots the session takes.
  ///   - read: Reads a file (the layout's).
  ///   - exists: Whether a file is there (its background and overlay PNGs).
  /// - Throws: ``LayoutError`` with every problem found, each with its field and what to change.
  public static func load(
    _ name: String, shots: Int,
    read: (String) throws -> Data = { try Data(contentsOf: URL(fileURLWithPath: $0)) },
    exists: (String) -> Bool = { FileManager.default.isReadableFile(atPath: $0) }
  ) throws(LayoutError) -> BoothLayout {
    if let builtIn = builtIn.first(where: { $0.name == name }) {
      try builtIn.check(file: name, shots: shots, folder: "", exists: exists)
      return builtIn
    }
    guard name.hasSuffix(".json") || name.contains("/") else {
      throw LayoutError(
        file: name,
        problems: [
          LayoutError.Problem(
            field: "--layout", problem: "no built-in layout of that name",
            fix: "use " + builtIn.map(\.name).joined(separator: ", ") + ", or a JSON file's path")
        ])
    }
    let data: Data
    do {
      data = try read(name)
    } catch {
      throw LayoutError(
        file: name,
        problems: [
          LayoutError.Problem(
            field: "file", problem: "cannot be read (\(error.localizedDescription))",
            fix: "give the path of a layout's JSON file")
        ])
    }
    let folder = (name as NSString).deletingLastPathComponent
    var layout = try parse(data, file: name, shots: shots, folder: folder, exists: exists)
    // NB: the pictures it names, found where the layout's file is, whatever the current folder.
    layout.overlay = layout.overlay.map { Self.path($0, in: folder) }
    if let background = layout.background, !isColour(background) {
      layout.background = Self.path(background, in: folder)
    }
    return layout
  }

  /// A layout from its JSON, checked for a session of `shots`.
  ///
  /// - Parameters:
  ///   - data: The JSON.
  ///   - file: The file's name, for the messages.
  ///   - shots: How many shots the session takes.
  ///   - folder: The folder relative paths are in.
  ///   - exists: Whether a file is there.
  /// - Throws: ``LayoutError``.
  public static func parse(
    _ data: Data, file: String, shots: Int, folder: String,
    exists: (String) -> Bool
  ) throws(LayoutError) -> BoothLayout {
    let layout: BoothLayout
    do {
      layout = try JSONDecoder().decode(BoothLayout.self, from: data)
    } catch let error as DecodingError {
      throw LayoutError(file: file, problems: [Self.problem(error)])
    } catch {
      throw LayoutError(
        file: file,
        problems: [
          LayoutError.Problem(field: "file", problem: "\(error)", fix: "write the layout as JSON")
        ])
    }
    try layout.check(file: file, shots: shots, folder: folder, exists: exists)
    return layout
  }

  /// Every problem of the layout for a session of `shots`, or none.
  ///
  /// - Parameters:
  ///   - shots: How many shots the session takes.
  ///   - folder: The folder relative paths are in.
  ///   - exists: Whether a file is there.
  public func problems(
    shots: Int, folder: String, exists: (String) -> Bool
  ) -> [LayoutError.Problem] {
    var found: [LayoutError.Problem] = []
    func add(_ field: String, _ problem: String, _ fix: String) {
      found.append(LayoutError.Problem(field: field, problem: problem, fix: fix))
    }
    if !(1...20_000).contains(canvas.width) || !(1...20_000).contains(canvas.height) {
      add(
        "canvas", "\(canvas.width) × \(canvas.height) pixels",
        "give a width and height from 1 to 20000 (a 2 × 6 in strip at 600 dpi: 1200 × 3600)")
    }
    if !(72...2400).contains(canvas.dpi) {
      add(
        "canvas.dpi", "\(canvas.dpi)",
        "give the printer's dots per inch, 72 to 2400 (often 300 or 600)")
    }
    if slots.count < shots {
      let missing = shots - slots.count
      add(
        "slots", "\(slots.count) slot\(slots.count == 1 ? "" : "s") for \(shots) shots",
        "add \(missing) slot\(missing == 1 ? "" : "s"), or take \(slots.count) (--shots \(slots.count))"
      )
    }
    for (index, slot) in slots.enumerated() {
      let field = "slots[\(index)]"
      guard slot.width > 0, slot.height > 0 else {
        add(field, "\(slot.width) × \(slot.height) pixels", "give it a width and height above 0")
        continue
      }
      guard slot.rotation.isFinite, (-360...360).contains(slot.rotation) else {
        add("\(field).rotation", "\(slot.rotation)", "give degrees from -360 to 360")
        continue
      }
      let bounds = slot.bounds
      if bounds.left < 0 || bounds.top < 0 || bounds.right > Double(canvas.width)
        || bounds.bottom > Double(canvas.height)
      {
        let turned = slot.rotation == 0 ? "" : " turned \(slot.rotation)°"
        add(
          field,
          "reaches outside the canvas\(turned) (x \(Int(bounds.left.rounded(.down)))…"
            + "\(Int(bounds.right.rounded(.up))), y \(Int(bounds.top.rounded(.down)))…"
            + "\(Int(bounds.bottom.rounded(.up))) on a \(canvas.width) × \(canvas.height) canvas)",
          "move or shrink it to fit within 0…\(canvas.width) × 0…\(canvas.height)")
      }
    }
    if let background, !Self.isColour(background) {
      if !background.lowercased().hasSuffix(".png") {
        add(
          "background", "'\(background)' is neither a colour nor a PNG",
          "give #rrggbb or a PNG's path")
      } else if !exists(Self.path(background, in: folder)) {
        add(
          "background", "no file \(Self.path(background, in: folder))",
          "give the path of a PNG, relative to the layout's file")
      }
    }
    if let overlay {
      if !overlay.lowercased().hasSuffix(".png") {
        add(
          "overlay", "'\(overlay)' is not a PNG", "give a PNG with transparent holes over the slots"
        )
      } else if !exists(Self.path(overlay, in: folder)) {
        add(
          "overlay", "no file \(Self.path(overlay, in: folder))",
          "give the path of a PNG, relative to the layout's file")
      }
    }
    for (index, text) in texts.enumerated() {
      let field = "texts[\(index)]"
      if text.text.isEmpty {
        add("\(field).text", "is empty", "write what it says, or take the field out")
      }
      for placeholder in text.text.matches(of: /\{[^}]*\}/)
      where !Self.placeholders.contains(String(placeholder.output)) {
        add(
          "\(field).text", "\(placeholder.output) is not a placeholder",
          "use " + Self.placeholders.joined(separator: " or "))
      }
      if !(1...canvas.height).contains(text.size) {
        add(
          "\(field).size", "\(text.size)",
          "give the font's size in canvas pixels, 1 to \(canvas.height)")
      }
      if !Self.isColour(text.colour) { add("\(field).colour", "'\(text.colour)'", "give #rrggbb") }
      if !(0...canvas.width).contains(text.x) || !(0...canvas.height).contains(text.y) {
        add(
          field, "its anchor (\(text.x), \(text.y)) is outside the canvas",
          "place it within 0…\(canvas.width) × 0…\(canvas.height)")
      }
      if !["left", "center", "right"].contains(text.align) {
        add("\(field).align", "'\(text.align)'", "give left, center or right")
      }
    }
    return found
  }

  func check(
    file: String, shots: Int, folder: String, exists: (String) -> Bool
  ) throws(LayoutError) {
    let found = problems(shots: shots, folder: folder, exists: exists)
    if !found.isEmpty { throw LayoutError(file: file, problems: found) }
  }

  /// Whether `text` is `#rrggbb`.
  public static func isColour(_ text: String) -> Bool {
    text.count == 7 && text.first == "#" && text.dropFirst().allSatisfy(\.isHexDigit)
  }

  private static func path(_ path: String, in folder: String) -> String {
    path.hasPrefix("/") || folder.isEmpty ? path : folder + "/" + path
  }

  private static func problem(_ error: DecodingError) -> LayoutError.Problem {
    func field(_ path: [any CodingKey]) -> String {
      var text = ""
      for key in path {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += (text.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return text.isEmpty ? "file" : text
    }
    let example = "see docs/booth.md for a layout's fields"
    switch error {
    case .keyNotFound(let key, let context):
      let place = field(context.codingPath + [key])
      return .init(field: place, problem: "is missing", fix: "add it; " + example)
    case .typeMismatch(let type, let context):
      let what = type == Int.self ? "a whole number" : type == String.self ? "text" : "\(type)"
      return .init(
        field: field(context.codingPath), problem: "is not \(what)", fix: "write \(what)")
    case .valueNotFound(let type, let context):
      return .init(field: field(context.codingPath), problem: "is null", fix: "give \(type)")
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"]
      return .init(
        field: field(context.codingPath),
        problem: "is not JSON" + (underlying.map { " (\($0))" } ?? ""),
        fix: "check the commas, quotes and brackets")
    @unknown default:
      return .init(field: "file", problem: "\(error)", fix: example)
    }
  }
}

extension BoothLayout.Slot {
  /// The box the slot covers once turned about its centre.
  var bounds: (left: Double, top: Double, right: Double, bottom: Double) {
    let radians = rotation * .pi / 180
    let cosine = abs(cos(radians))
    let sine = abs(sin(radians))
    let width = Double(self.width) * cosine + Double(height) * sine
    let height = Double(self.width) * sine + Double(self.height) * cosine
    let centerX = Double(x) + Double(self.width) / 2
    let centerY = Double(y) + Double(self.height) / 2
    return (centerX - width / 2, centerY - height / 2, centerX + width / 2, centerY + height / 2)
  }
}
