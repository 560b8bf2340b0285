import Foundation
import PhotoTimer
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

/// A settled preview of `preset`, rendered directly at the preset's exposure.
func settledPreview(_ preset: ScenePreset, width: Int = 320, height: Int = 180) -> Frame {
  let renderer = SceneRenderer(preset: preset)
  let map = renderer.radianceMap(width: width, height: height)
  return renderer.frame(
    radiance: map, width: width, height: height, exposureEV: preset.ev, frameIndex: 0,
    timestamp: .zero)
}

@Suite("Scene camera")
struct SceneCameraTests {
  @Test("Metering a settled preview gives each preset's brightness", arguments: ScenePreset.all)
  func metering(preset: ScenePreset) {
    let frame = settledPreview(preset)
    let ev = Metering.sceneEV(of: frame)
    #expect(abs(ev - preset.ev) < 0.5, "\(preset): metered EV \(ev)")
  }

  @Test("The presets do not all get the same suggestion; each gets the look it should")
  func suggestions() {
    let advisor = FilterAdvisor()
    var looks: [String: PhotoFilter] = [:]
    for preset in ScenePreset.all {
      let frame = settledPreview(preset)
      let stats = SceneStatistics(frame)
      let suggestion = advisor.suggest(for: stats, sceneEV: Metering.sceneEV(of: frame))
      looks[preset.name] = suggestion.filter
      #expect(!suggestion.reason.isEmpty)
      #expect(
        (0.5...0.95).contains(suggestion.confidence), "\(preset): \(stats) → \(suggestion)")
    }
    #expect(
      looks == [
        "daylight": .natural, "overcast": .vivid, "golden-hour": .warm, "indoor": .cool,
        "night": .dramatic,
      ])
  }
}
