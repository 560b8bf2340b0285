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

@Suite("The scene camera as a live source")
struct SceneCameraLiveTests {
  @Test(
    "The photo (a clear still with its moving parts drawn at zero) is the whole picture at that instant",
    arguments: [(480, 270), (320, 320), (400, 300)])
  func composedPhoto(width: Int, height: Int) throws {
    let renderer = SceneRenderer(preset: .daylight)
    let time: Float = 7.3
    var composed = try renderer.render(
      width: width, height: height, exposureEV: 15, timestamp: .zero)
    try renderer.drawMoving(into: &composed, exposureEV: 15, time: time, frameIndex: 11)
    let whole = try renderer.render(
      width: width, height: height, exposureEV: 15, timestamp: .zero, clouds: true, time: time)
    var worst = 0
    var total = 0
    for index in composed.pixels.indices {
      let difference = abs(Int(composed.pixels[index]) - Int(whole.pixels[index]))
      worst = max(worst, difference)
      total += difference
    }
    // Only the interpolated cloud cover differs, a little, and nowhere much.
    #expect(worst <= 16, "worst channel difference \(worst)")
    #expect(Double(total) / Double(composed.pixels.count) < 0.5)
  }

  @Test("Each preview differs: fresh noise every frame, clouds and the tree moving over time")
  func previewsMove() {
    let renderer = SceneRenderer(preset: .daylight)
    let (width, height) = (320, 180)
    let map = renderer.radianceMap(width: width, height: height)
    let moving = renderer.movingPixels(width: width, height: height)
    func preview(_ index: Int, _ time: Float) -> Frame {
      renderer.preview(
        map: map, moving: moving, width: width, height: height, exposureEV: 15,
        frameIndex: index, time: time, timestamp: .zero)
    }
    // Noise: two frames at the same instant differ in many pixels.
    let a = preview(1, 0)
    let b = preview(2, 0)
    let noisy = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
    #expect(noisy > a.pixels.count / 4)
    // Motion: ten seconds later the sky and the canopy changed; the ground did not move.
    let later = preview(1, 10)
    func changed(_ rows: Range<Int>, _ columns: Range<Int>) -> Int {
      var count = 0
      for y in rows {
        for x in columns where a[x, y] != later[x, y] { count += 1 }
      }
      return count
    }
    #expect(changed(0..<60, 0..<320) > 500)  // the clouds drifted
    #expect(changed(60..<90, 200..<250) > 20)  // the canopy swayed
    #expect(changed(130..<180, 0..<320) == 0)  // the path, the ball, the ground
  }

  @Test("A cancelled capture keeps the still: the next capture is the photo")
  func cancelledCapture() async throws {
    let camera = SceneCamera(preset: .overcast, width: 640, height: 360, clock: TestClock())
    let session = try await camera.open()
    let cancelled = Task { try await session.capture() }
    cancelled.cancel()
    _ = try? await cancelled.value
    let photo = try await session.capture()
    #expect(photo.width == 640 && photo.height == 360)
    await session.close()
    await #expect(throws: CancellationError.self) { _ = try await session.capture() }
  }
}
