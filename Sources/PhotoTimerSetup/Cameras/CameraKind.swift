import Foundation
import PhotoTimer
import PhotoTimerImaging

/// A kind of camera: everything the programs decide about it, in one place.
///
/// Each kind says how `--camera` writes it and parses it, which of its cameras are present now
/// (for `auto`, `doctor` and the window's menu), how one opens and takes photos, its sizes for
/// the menu, and how it is named in the output and remembered in the window's settings.
/// ``CameraKinds/all`` registers them; no front end constructs a camera type.
///
/// Adding a camera kind: its camera (a `CameraSource`) in a target of its own, a type
/// conforming to this protocol beside the others here, and one line in ``CameraKinds/all``.
package protocol CameraKind: Sendable {
  /// What `--camera` writes before the colon: `v4l2`, `scene`.
  var scheme: String { get }
  /// How `--camera` writes it, for `--help` and the unknown-camera error:
  /// `v4l2:/dev/videoN`, `pipewire[:NODE]`; `nil` for a kind no option names.
  var usage: String? { get }
  /// What the kind is, in a sentence without its final stop, for the manual page:
  /// `a JPEG or PNG file as the sensor`.
  var summary: String { get }
  /// Whether `auto` may choose it (kinds are tried in ``CameraKinds/all``'s order).
  var automatic: Bool { get }
  /// Whether the camera takes the photo itself, the stream being only its live view (a
  /// DSLR): a lost live view does not end the command, and the services know the count.
  var shootsItself: Bool { get }

  /// The camera `--camera SCHEME[:ARGUMENT]` names.
  ///
  /// - Parameter argument: What follows the colon, `nil` when there is none.
  /// - Throws: ``CommandOptions/UsageError`` saying what is missing or wrong, with an example.
  func choice(_ argument: String?) throws(CommandOptions.UsageError) -> CameraChoice

  /// This kind's cameras present now, the likeliest first; may run a program or read a
  /// device, so call it off the main thread.
  func discover() async -> [CameraChoice]

  /// The command line's mistake about `choice` found before anything opens (a missing file),
  /// said with what to do; `nil` when there is none.
  func check(_ choice: CameraChoice) -> (any Error)?

  /// Opens `choice` as the options ask (its mode, its size), or `nil` for no pixels at all.
  ///
  /// - Throws: ``CameraOpenError/usage(_:)`` when the options ask for what the camera cannot
  ///   do (a size it lacks), any other error when it cannot be opened.
  func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?

  /// The engine's services over `camera` (the source ``open(_:_:)`` gave, or the screen's
  /// live camera over it), `nil` for a camera whose photos the store's pipeline takes.
  func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices?

  /// Whether the preview is mirrored unless asked otherwise: a camera facing the user.
  func mirrored(_ choice: CameraChoice) -> Bool

  /// The camera's name in the window's camera menu.
  func menuName(_ choice: CameraChoice) -> String

  /// The camera as the output names it (never a user or a password), from `source`, the
  /// camera ``open(_:_:)`` gave.
  func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity

  /// The sizes the window's menu offers for `choice`; empty when it has no choice of size.
  func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)]

  /// What `doctor` says about this kind on this machine, each line with its fix.
  func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine]
}

extension CameraKind {
  package var usage: String? { scheme }
  package var automatic: Bool { false }
  package var shootsItself: Bool { false }
  package func discover() async -> [CameraChoice] { [] }
  package func check(_ choice: CameraChoice) -> (any Error)? { nil }
  package func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices? { nil }
  package func mirrored(_ choice: CameraChoice) -> Bool { false }
  package func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)] {
    []
  }
  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] { [] }

  /// The argument a kind cannot do without, or the usage error that says so.
  ///
  /// - Parameters:
  ///   - argument: What followed the colon.
  ///   - what: What it names (`a device`).
  ///   - examples: How it is written (`v4l2:/dev/video0`).
  package func required(
    _ argument: String?, _ what: String, examples: String
  ) throws(CommandOptions.UsageError) -> String {
    guard let argument, !argument.isEmpty else {
      throw CommandOptions.UsageError(problems: [
        "--camera \(scheme): needs \(what), for example \(examples)"
      ])
    }
    return argument
  }

  /// The camera `--camera` names by this kind's scheme alone.
  package var bare: CameraChoice { CameraChoice(kind: self) }
}

/// Why a camera did not open.
package enum CameraOpenError: Error, CustomStringConvertible {
  /// The options ask for what the camera cannot do (a size it lacks): the command line's
  /// mistake, exit status 2.
  case usage(any Error)

  package var description: String {
    switch self {
    case .usage(let error): "\(error)"
    }
  }
}

/// A camera as `--camera` names it: its kind and what follows the colon.
///
/// Two choices are the same camera when their kind, argument and input format agree.
package struct CameraChoice: Hashable, Sendable, CustomStringConvertible {
  /// Its kind, which decides everything about it.
  package let kind: any CameraKind
  /// What follows the colon in `--camera` (a device, a node, a preset, a path, an input),
  /// `nil` for the kind's default camera.
  package var argument: String?
  /// ffmpeg's input format (`--ffmpeg-format`), for a kind that takes one.
  package var format: String?

  /// Creates a choice of `kind`.
  package init(kind: any CameraKind, argument: String? = nil, format: String? = nil) {
    self.kind = kind
    self.argument = argument
    self.format = format
  }

  /// The `--camera` text that names this camera (its input format apart), or `nil` for one
  /// no option names (the simulation).
  package var text: String? {
    guard kind.usage != nil else { return nil }
    return argument.map { "\(kind.scheme):\($0)" } ?? kind.scheme
  }

  /// Whether this is `auto`, to be resolved before anything opens.
  package var isAuto: Bool { kind.scheme == AutoKind().scheme }

  package var description: String { text ?? kind.scheme }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind.scheme == rhs.kind.scheme && lhs.argument == rhs.argument && lhs.format == rhs.format
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(kind.scheme)
    hasher.combine(argument)
    hasher.combine(format)
  }
}

/// One line of `doctor`: a mark, what it is about, what was found or what to do, and the
/// indented lines under it.
package struct DoctorLine: Sendable, Equatable {
  /// How it stands.
  package enum Mark: String, Sendable {
    case ok = "✓"
    case warning = "!"
    case problem = "✗"
  }

  package var mark: Mark
  package var subject: String
  package var text: String
  /// Lines printed under it, already indented.
  package var details: [String]

  package init(_ mark: Mark, _ subject: String, _ text: String, details: [String] = []) {
    self.mark = mark
    self.subject = subject
    self.text = text
    self.details = details
  }
}

/// The registry: every kind of camera the programs know, in the order `auto` tries them and
/// `doctor` reports them.
package enum CameraKinds {
  /// Every kind, `auto` and the simulation last. Registering a new kind is one line here.
  package static let all: [any CameraKind] = [
    V4L2Kind(), PipeWireKind(), FFmpegKind(), GPhoto2Kind(), SceneKind(), FileKind(),
    AutoKind(), SimulatedKind(),
  ]

  /// The kind `--camera` names by `scheme`.
  package static func named(_ scheme: String) -> (any CameraKind)? {
    all.first { $0.scheme == scheme }
  }

  /// The camera `--camera TEXT` names.
  ///
  /// - Throws: ``CommandOptions/UsageError`` for an unknown kind (listing every kind) or an
  ///   argument the kind refuses.
  package static func parse(_ text: String) throws(CommandOptions.UsageError) -> CameraChoice {
    let scheme = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
    guard let kind = named(scheme), kind.usage != nil else {
      throw CommandOptions.UsageError(problems: [
        "unknown camera '\(text)'; use " + usages.dropLast().joined(separator: ", ")
          + " or \(usages.last ?? "auto")"
      ])
    }
    let argument = text.count > scheme.count ? String(text.dropFirst(scheme.count + 1)) : nil
    return try kind.choice(argument)
  }

  /// How `--camera` writes each kind, `auto` first.
  package static var usages: [String] {
    let named = all.compactMap(\.usage)
    return named.filter { $0 == "auto" } + named.filter { $0 != "auto" }
  }

  /// `auto`'s camera: the first camera present of the first automatic kind that has one, else
  /// the scene camera; asks devices and may run a program, so call it off the main thread.
  package static func resolveAuto() async -> CameraChoice {
    for kind in all where kind.automatic {
      if let first = await kind.discover().first { return first }
    }
    return .scene(.daylight)
  }

  /// Every camera present now, kind by kind in the registry's order: the window's menu.
  package static func discoverAll() async -> [CameraChoice] {
    var found: [CameraChoice] = []
    for kind in all { found += await kind.discover() }
    return found
  }
}
