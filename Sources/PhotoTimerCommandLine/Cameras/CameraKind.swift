import PhotoTimer
import PhotoTimerImaging

/// A kind of camera as the command line knows it: how `--camera` writes it and parses it, and
/// what it is, for the help and the manual page.
///
/// Pure: how a kind's cameras are found and opened is its driver's (`CameraDriver`, in
/// PhotoTimerSetup, which every kind here conforms to). ``CameraKinds/all`` registers them; no
/// front end constructs a camera type.
///
/// Adding a camera kind: its camera (a `CameraSource`) in a target of its own, a type
/// conforming to this protocol beside the others here, its driver beside theirs in
/// PhotoTimerSetup, and one line in ``CameraKinds/all``.
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
}

extension CameraKind {
  package var usage: String? { scheme }
  package var automatic: Bool { false }
  package var shootsItself: Bool { false }

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
}
