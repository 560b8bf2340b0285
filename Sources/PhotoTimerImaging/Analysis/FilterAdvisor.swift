import Foundation
import PhotoTimer

/// Chooses a look for a scene from what its preview measures.
///
/// The rules, first match wins (EV is the metered scene brightness at ISO 100):
///
/// | when | look | reason |
/// | --- | --- | --- |
/// | EV < 5 and over 1 % clipped lights | Dramatic | dark scene with bright lights |
/// | warmth > 0.6 and EV < 10 | Cool | orange indoor light |
/// | warmth > 0.3 | Warm | warm, low sun |
/// | saturation < 0.12 and contrast < 0.1 | Mono | almost no colour |
/// | saturation < 0.25 and contrast < 0.2 | Vivid | flat, low-saturation light |
/// | mean luma > 0.65 and contrast < 0.18 | Fade | bright, soft high-key light |
/// | otherwise | Natural | balanced light and colour |
///
/// The confidence grows with how far the deciding figure is past its threshold.
///
/// ```swift
/// let suggestion = FilterAdvisor().suggest(for: preview, sceneEV: 12)
/// print(suggestion)  // Vivid (flat, low-saturation light → Vivid)
/// ```
public struct FilterAdvisor: Hashable, Sendable {
  /// Creates the advisor.
  public init() {}

  /// The look for a preview frame.
  ///
  /// - Parameters:
  ///   - frame: A preview, ideally after auto-exposure settled.
  ///   - sceneEV: The metered scene brightness (EV at ISO 100).
  public func suggest(for frame: Frame, sceneEV: Double) -> FilterSuggestion {
    suggest(for: SceneStatistics(frame), sceneEV: sceneEV)
  }

  /// The look for measured statistics.
  package func suggest(for stats: SceneStatistics, sceneEV: Double) -> FilterSuggestion {
    if sceneEV < 5, stats.highlights > 0.01 {
      return suggestion(
        .dramatic, margin: (5 - sceneEV) / 3,
        "dark scene with bright lights → Dramatic deepens the night")
    }
    if stats.warmth > 0.6, sceneEV < 10 {
      return suggestion(
        .cool, margin: (stats.warmth - 0.6) / 0.6, "orange indoor light → Cool neutralises it")
    }
    if stats.warmth > 0.3 {
      return suggestion(
        .warm, margin: (stats.warmth - 0.3) / 0.3, "warm, low sun → Warm brings out the gold")
    }
    if stats.saturation < 0.12, stats.contrast < 0.1 {
      return suggestion(
        .mono, margin: (0.12 - stats.saturation) / 0.12, "almost no colour → Mono")
    }
    if stats.saturation < 0.25, stats.contrast < 0.2 {
      return suggestion(
        .vivid, margin: (0.25 - stats.saturation) / 0.25, "flat, low-saturation light → Vivid")
    }
    if stats.meanLuma > 0.65, stats.contrast < 0.18 {
      return suggestion(
        .fade, margin: (stats.meanLuma - 0.65) / 0.35, "bright, soft high-key light → Fade")
    }
    return suggestion(
      .natural, margin: min(stats.saturation, 0.5), "balanced light and colour → Natural")
  }

  private func suggestion(
    _ filter: PhotoFilter, margin: Double, _ reason: String
  )
    -> FilterSuggestion
  {
    // 0.5 at the threshold, rising to 0.95 well past it.
    let confidence = 0.5 + 0.45 * min(max(margin, 0), 1)
    return FilterSuggestion(
      filter: filter, confidence: (confidence * 100).rounded() / 100,
      reason: reason)
  }
}
