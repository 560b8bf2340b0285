import PhotoTimer
import PhotoTimerImaging
import PhotoTimerLocation

/// The values options take: a camera, a look, a webcam's mode, each parsed from its text and
/// written back as the text that names it.
extension CommandOptions {
  /// `--resolution`'s value: `max` is the largest mode, `WxH` that size; `nil` for anything
  /// else.
  package static func resolution(_ text: String) -> ModeRequest? {
    if text.lowercased() == "max" { return .largest }
    return FrameSize(text).map { .size($0) }
  }

  /// The text `--resolution` takes for `request` (`nil` for the best mode, the default).
  package static func resolutionArgument(_ request: ModeRequest) -> String? {
    switch request {
    case .best: nil
    case .largest: "max"
    case .size(let size): "\(size.width)x\(size.height)"
    }
  }

  /// The look `--filter TEXT` names.
  package static func filter(_ text: String) throws(UsageError) -> FilterChoice {
    switch text.lowercased() {
    case "auto": return .auto
    case "none": return .none
    default:
      let looks = PhotoFilter.all
      guard let look = looks.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
        throw UsageError(problems: [
          "no look '\(text)'; choose one of "
            + looks.map { $0.rawValue.lowercased() }.joined(separator: ", ") + ", auto or none"
        ])
      }
      return .fixed(look)
    }
  }
}

extension FilterChoice {
  /// The `--filter` text that names this choice.
  package var argument: String {
    switch self {
    case .auto: "auto"
    case .none: "none"
    case .fixed(let look): look.rawValue.lowercased()
    }
  }
}

extension CommandOptions.LocationChoice {
  /// Whether the location comes from gpsd.
  var isGPSD: Bool {
    if case .gpsd = self { return true }
    return false
  }
}
