import Foundation
import PhotoTimer
import PhotoTimerTesting
import Testing

@testable import PhotoTimerImaging

/// A settled preview of `preset`, rendered directly at the preset's exposure.
func settledPreview(_ preset: ScenePreset, width: Int = 320, height: Int = 180) -> Frame {
  let renderer = SceneRenderer(preset: preset)
  let map = renderer.radianceMap(width: width, height: height)
  return renderer.preview(
    map: map, moving: [], width: width, height: height, exposureEV: preset.ev, frameIndex: 0,
    time: 0, timestamp: .zero)
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

  @Test(
    "The sun is behind the scene: it adds nothing to the house, the tree or the ground",
    arguments: [ScenePreset.goldenHour, .daylight])
  func sunBehindTheScene(preset: ScenePreset) {
    var unlit = preset
    unlit.sources = []
    let withSun = SceneRenderer(preset: preset)
    let without = SceneRenderer(preset: unlit)
    let aspect: Float = 16 / 9
    // The house's walls and roof, the tree, the ground on both sides of the path, the path.
    let occluders: [(u: Float, v: Float)] = [
      (0.15, 0.58), (0.3, 0.56), (0.23, 0.33), (0.7, 0.4), (0.2, 0.7), (0.6, 0.6), (0.5, 0.9),
    ]
    for point in occluders {
      let a = withSun.radiance(u: point.u, v: point.v, aspect: aspect)
      let b = without.radiance(u: point.u, v: point.v, aspect: aspect)
      #expect(
        a.red == b.red && a.green == b.green && a.blue == b.blue, "\(preset.name) at \(point)")
    }
    // The sky beside the sun is brighter with it.
    let sun = preset.sources[0]
    let sky = (u: sun.x + 0.06, v: sun.y - 0.04)
    #expect(
      withSun.radiance(u: sky.u, v: sky.v, aspect: aspect).red
        > without.radiance(u: sky.u, v: sky.v, aspect: aspect).red)
  }
}
