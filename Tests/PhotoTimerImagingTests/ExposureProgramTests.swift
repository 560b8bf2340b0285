import Foundation
import PhotoTimer
import Testing

@testable import PhotoTimerImaging

@Suite("Exposure program and metering")
struct ExposureProgramTests {
  @Test(
    "The program line's table",
    arguments: [
      (20.0, "f/16", "1/4000s", 100),
      (15.0, "f/8", "1/500s", 100),
      (12.0, "f/4.5", "1/200s", 100),
      (9.0, "f/2.8", "1/60s", 100),
      (7.0, "f/2.8", "1/60s", 400),
      (3.0, "f/2.8", "1/60s", 6400),
      (0.0, "f/2.8", "1/8s", 6400),
      (-2.0, "f/2.8", "0.5s", 6400),
      (-8.0, "f/2.8", "30s", 6400),
    ])
  func table(ev: Double, aperture: String, shutter: String, iso: Int) {
    let settings = ExposureProgram.standard.settings(forSceneEV: ev)
    #expect(settings.aperture == aperture, "EV \(ev): \(settings)")
    #expect(settings.shutterSpeed == shutter, "EV \(ev): \(settings)")
    #expect(settings.iso == iso, "EV \(ev): \(settings)")
    #expect(settings.sceneEV == ev)
  }

  @Test("EV 7 gives the seed's f/2.8 · 1/60s · ISO 400, with the numbers for EXIF")
  func seedValues() {
    let settings = ExposureProgram.standard.settings(forSceneEV: 7)
    #expect(settings.description == "f/2.8 · 1/60s · ISO 400")
    #expect(settings.fNumber == 2.8)
    #expect(settings.exposureTime == 1.0 / 60)
  }

  @Test("Brighter never gives a longer exposure, and the exposure stays right within a stop")
  func monotonicAndCorrect() throws {
    var previous = Double.infinity
    for hundredth in -1000...2200 {
      let ev = Double(hundredth) / 100
      let settings = ExposureProgram.standard.settings(forSceneEV: ev)
      let time = try #require(settings.exposureTime)
      let fNumber = try #require(settings.fNumber)
      #expect(time <= previous, "EV \(ev): \(settings) is longer than the dimmer scene's")
      previous = time
      // Within the program's range the settings expose the scene correctly (nominal values
      // are within a third of a stop of the exact ones, so allow a little over half a stop).
      if (-7.9...20).contains(ev) {
        let iso = try #require(settings.iso)
        let given = log2(fNumber * fNumber / time) - log2(Double(iso) / 100)
        #expect(abs(given - ev) < 0.55, "EV \(ev): \(settings) exposes for EV \(given)")
      }
    }
  }

  @Test(
    "Shutter speeds are shown the way cameras show them",
    arguments: [(36, "1/4000s"), (18, "1/60s"), (6, "1/4s"), (5, "0.3s"), (0, "1s"), (-15, "30s")]
  )
  func shutterNames(index: Int, name: String) {
    #expect(ExposureProgram.shutterName(index) == name)
  }

  @Test("Metering: a frame twice as bright as mid-grey is one stop brighter than its exposure")
  func metering() {
    // Linear 0.36 is sRGB code 161; 0.18 is code 118.
    var frame = Frame(width: 8, height: 8, exposureEV: 10)
    for y in 0..<8 { for x in 0..<8 { frame[x, y] = RGB(grey: 161) } }
    #expect(abs(Metering.sceneEV(of: frame) - 11) < 0.05)
    for y in 0..<8 { for x in 0..<8 { frame[x, y] = RGB(grey: 118) } }
    #expect(abs(Metering.sceneEV(of: frame) - 10) < 0.05)
    // Without a recorded exposure, EV 10 is assumed.
    frame.exposureEV = nil
    #expect(abs(Metering.sceneEV(of: frame, assumedExposure: 12) - 12) < 0.05)
  }
}
