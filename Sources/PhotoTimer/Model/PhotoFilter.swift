/// A look applied to the photo, shown to people by its name ("Vivid").
///
/// The engine only carries the choice; applying it to pixels is the camera service's work.
/// ``natural`` is the neutral look, used when no suggestion arrived before the shutter.
///
/// ```swift
/// let look: PhotoFilter = .vivid
/// print(look)  // Vivid
/// ```
public struct PhotoFilter: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The name shown to people, for example `"Vivid"`.
  public var rawValue: String

  /// Creates a filter from its name.
  ///
  /// - Parameter rawValue: The name shown to people.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The neutral look: the picture as the camera saw it.
  public static let natural = PhotoFilter(rawValue: "Natural")
  /// More saturation and contrast, for flat light.
  public static let vivid = PhotoFilter(rawValue: "Vivid")
  /// A warmer white balance.
  public static let warm = PhotoFilter(rawValue: "Warm")
  /// A cooler white balance.
  public static let cool = PhotoFilter(rawValue: "Cool")
  /// Black and white.
  public static let mono = PhotoFilter(rawValue: "Mono")
  /// Strong contrast and deep shadows.
  public static let dramatic = PhotoFilter(rawValue: "Dramatic")
  /// Lifted blacks and muted colour.
  public static let fade = PhotoFilter(rawValue: "Fade")
  /// Every look there is, in the order menus and help list them.
  public static let all: [PhotoFilter] = [.natural, .vivid, .warm, .cool, .mono, .dramatic, .fade]

  /// The name shown to people.
  public var description: String { rawValue }
}

/// The filter step's result: a look, how sure the analysis is, and why.
public struct FilterSuggestion: Hashable, Sendable, CustomStringConvertible {
  /// The suggested look.
  public var filter: PhotoFilter
  /// How sure the analysis is, from 0 (a guess) to 1 (certain).
  public var confidence: Double
  /// One line a person understands, for example `"flat, low-saturation light → Vivid"`.
  public var reason: String

  /// Creates a suggestion.
  ///
  /// - Parameters:
  ///   - filter: The suggested look.
  ///   - confidence: From 0 to 1; values outside are clamped.
  ///   - reason: Why this look, in one line.
  public init(filter: PhotoFilter, confidence: Double = 1, reason: String = "") {
    self.filter = filter
    self.confidence = min(max(confidence, 0), 1)
    self.reason = reason
  }

  /// The look's name, followed by the reason when there is one.
  public var description: String {
    reason.isEmpty ? filter.rawValue : "\(filter.rawValue) (\(reason))"
  }
}
