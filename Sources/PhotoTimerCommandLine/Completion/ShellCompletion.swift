import PhotoTimer
import PhotoTimerImaging

/// What completion asks about the cameras present now; PhotoTimerSetup answers it from the
/// camera drivers, the tests with stand-ins.
package protocol CameraCatalog: Sendable {
  /// The cameras present now that completion offers: quick to find (the webcams: reading
  /// their nodes is quick; asking PipeWire or gphoto2 takes seconds, too long for a key press).
  func present() async -> [CameraChoice]
  /// A camera's name, shown beside it.
  func name(of camera: CameraChoice) -> String
  /// The sizes a camera offers, each with its title.
  func sizes(of camera: CameraChoice) async -> [(title: String, request: ModeRequest)]
}

/// What a shell offers as the next word of a `phototimer` or `phototimer-gtk` command line,
/// from the option declarations: the options, their values, the subcommand, and the cameras
/// present now with their sizes.
///
/// The completion scripts (``CompletionScript``) are thin: each asks
/// `phototimer __complete PROGRAM WORD…` and shows the answer, so every shell offers the same.
package struct ShellCompletion: Sendable {
  /// One word to offer, with what it is (zsh and fish show it beside the word).
  package struct Candidate: Equatable, Sendable {
    package var value: String
    package var description: String

    package init(_ value: String, _ description: String = "") {
      self.value = value
      self.description = description
    }
  }

  /// The answer for the word being typed.
  package enum Answer: Equatable, Sendable {
    /// These words (already matched against what was typed).
    case words([Candidate])
    /// The shell's own path completion, after `prefix` (`file:`); only folders when
    /// `foldersOnly`.
    case paths(prefix: String, foldersOnly: Bool)

    /// The answer as `phototimer __complete` prints it: a word and its description per line,
    /// tab between; or one line `:paths PREFIX` / `:folders PREFIX`.
    package var lines: [String] {
      switch self {
      case .words(let candidates):
        candidates.map { $0.description.isEmpty ? $0.value : "\($0.value)\t\($0.description)" }
      case .paths(let prefix, let foldersOnly): [(foldersOnly ? ":folders " : ":paths ") + prefix]
      }
    }
  }

  /// The cameras present now, their names and sizes: the drivers' answers.
  package var cameras: any CameraCatalog

  /// Completion over `cameras`: this machine's (PhotoTimerSetup's `DriverCatalog`) or the
  /// tests' stand-ins.
  package init(cameras: any CameraCatalog) {
    self.cameras = cameras
  }

  /// What to offer for the last of `words` (the word being typed, empty after a space), the
  /// words before it being the command line after the program's name.
  package func answer(_ program: ProgramHelp.Program, words: [String]) async -> Answer {
    let typed = words.last ?? ""
    let before = Array(words.dropLast())
    let parser = ArgumentParser(
      options: program.options, commands: program.commands.map(\.term))
    let (parsed, _) = parser.parse(before)
    if before.contains("--") { return .words([]) }
    // The value of the option before it: `--camera sce` (not `--remote`, whose value only
    // follows an '=').
    if let previous = before.last,
      let option = program.options.first(where: { $0.declaration.names.contains(previous) }),
      let value = option.declaration.value, !value.onlyAfterEquals
    {
      return await values(option, typed: typed, prefix: "", parsed: parsed)
    }
    // The value after '=': `--camera=sce`.
    if typed.hasPrefix("--"), let equals = typed.firstIndex(of: "=") {
      let name = String(typed[..<equals])
      guard let option = program.options.first(where: { $0.declaration.names.contains(name) })
      else { return .words([]) }
      return await values(
        option, typed: String(typed[typed.index(after: equals)...]), prefix: name + "=",
        parsed: parsed)
    }
    if typed.hasPrefix("-") {
      return .words(optionNames(program, given: Set(parsed.order), typed: typed))
    }
    guard parsed.command == nil, parsed.positionals.isEmpty else { return .words([]) }
    return .words(program.commands.map { Candidate($0.term, $0.text) }.matching(typed))
  }

  /// Every option of `program` not given yet whose name starts with `typed`; an option whose
  /// value may follow only after '=' is offered both bare and with it.
  private func optionNames(
    _ program: ProgramHelp.Program, given: Set<CommandOption>, typed: String
  ) -> [Candidate] {
    var candidates: [Candidate] = []
    for option in program.options where !given.contains(option) {
      let declaration = option.declaration
      let help = declaration.help.first.map(Self.short) ?? ""
      for name in declaration.names {
        candidates.append(Candidate(name, help))
        if case .optional? = declaration.value { candidates.append(Candidate(name + "=", help)) }
      }
    }
    // NB: `-` alone offers the long names only, as most programs do; `-s` is there when asked.
    let shown = typed == "-" ? candidates.filter { $0.value.hasPrefix("--") } : candidates
    return shown.matching(typed)
  }

  /// The values of `option` that start with `typed`, each written after `prefix`.
  private func values(
    _ option: CommandOption, typed: String, prefix: String, parsed: ArgumentParser.Parsed
  ) async -> Answer {
    var candidates: [Candidate]
    switch option.declaration.completion {
    case .cameras:
      if typed.hasPrefix(FileKind().scheme + ":") {
        return .paths(prefix: prefix + FileKind().scheme + ":", foldersOnly: false)
      }
      candidates = await cameraValues()
    case .cameraSizes:
      candidates = [Candidate("max", "the largest size, whatever its rate")]
      candidates += await sizes(of: parsed)
    case .folders:
      return .paths(prefix: prefix, foldersOnly: true)
    case .words(let words):
      candidates = words
    case .typed:
      candidates = []
    }
    return .words(
      candidates.matching(typed).map { Candidate(prefix + $0.value, $0.description) })
  }

  /// The kinds as `--camera` writes them, the cameras present, and the scene's presets.
  private func cameraValues() async -> [Candidate] {
    var candidates: [Candidate] = []
    let present = await cameras.present()
    for kind in CameraKinds.all {
      guard let usage = kind.usage else { continue }
      let what = Self.short(kind.summary)
      // `scheme`, alone or with `:` to go on, as its usage allows.
      if !usage.contains(":") || usage.contains("[:") {
        candidates.append(Candidate(kind.scheme, what))
      }
      if usage.contains(":") { candidates.append(Candidate(kind.scheme + ":", what)) }
      for camera in present where camera.kind.scheme == kind.scheme {
        if let text = camera.text { candidates.append(Candidate(text, cameras.name(of: camera))) }
      }
      if kind is SceneKind {
        candidates += ScenePreset.all.map {
          Candidate("\(kind.scheme):\($0.name)", "the scene camera")
        }
      }
    }
    return candidates
  }

  /// The sizes of the camera named before (`--camera v4l2:/dev/video0`), or of the webcam
  /// `auto` would open.
  private func sizes(of parsed: ArgumentParser.Parsed) async -> [Candidate] {
    var camera: CameraChoice?
    if let text = parsed.value(.camera), let named = try? CameraKinds.parse(text), !named.isAuto {
      camera = named
    } else {
      camera = await cameras.present().first
    }
    guard let camera else { return [] }
    var candidates: [Candidate] = []
    for (title, request) in await cameras.sizes(of: camera) {
      guard case .size(let size) = request else { continue }
      candidates.append(Candidate("\(size.width)x\(size.height)", title))
    }
    return candidates
  }

  /// The start of a help line, up to its first clause: what a shell shows beside a word.
  static func short(_ text: String) -> String {
    var end = text.endIndex
    for mark in [": ", ", ", " (", "; "] {
      if let range = text.range(of: mark), range.lowerBound < end { end = range.lowerBound }
    }
    return String(text[..<end])
  }
}

extension CommandOption.Value {
  /// Whether the value may only be given as `--name=VALUE` (`--remote`).
  fileprivate var onlyAfterEquals: Bool {
    if case .optional = self { return true }
    return false
  }
}

extension [ShellCompletion.Candidate] {
  /// The candidates that start with `typed`, each value once.
  fileprivate func matching(_ typed: String) -> [ShellCompletion.Candidate] {
    var seen: Set<String> = []
    return filter { $0.value.hasPrefix(typed) && seen.insert($0.value).inserted }
  }
}
