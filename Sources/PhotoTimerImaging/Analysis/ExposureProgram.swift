import Foundation
import PhotoTimer

/// Turns a scene brightness into aperture, shutter speed and ISO, in standard third stops.
///
/// The program line, with EV the scene brightness at ISO 100:
///
/// | scene | ISO | aperture | shutter |
/// | --- | --- | --- | --- |
/// | EV ≥ 19 | 100 | f/16 | from 1/2000s at EV 19, to 1/4000s |
/// | 9 ≤ EV < 19 | 100 | from f/2.8 at EV 9 to f/16 at EV 19 (half of each extra stop) | from 1/60s, the other half of each stop |
/// | 3 ≤ EV < 9 | 100…6400, one stop per stop of light | f/2.8 | 1/60s (hand-held) |
/// | EV < 3 | 6400 | f/2.8 | longer than 1/60s, to 30s |
///
/// So EV 7 (a bright room) gives f/2.8 · 1/60s · ISO 400 and EV 15 (sunny daylight) gives
/// f/8 · 1/500s · ISO 100. The shutter speed is chosen first and never gets longer as the
/// scene gets brighter.
///
/// ```swift
/// let settings = ExposureProgram.standard.settings(forSceneEV: 7)
/// print(settings)  // f/2.8 · 1/60s · ISO 400
/// ```
public struct ExposureProgram: Hashable, Sendable {
  /// The standard program described above.
  public static let standard = ExposureProgram()

  /// Creates the standard program.
  public init() {}

  /// The settings for a scene of brightness `sceneEV` (EV at ISO 100).
  public func settings(forSceneEV sceneEV: Double) -> CameraSettings {
    let ev = sceneEV.isFinite ? sceneEV : 10
    // Time value (Tv = log2 of 1/seconds), continuous and non-decreasing in ev.
    let timeValue: Double =
      if ev >= 19 { ev - 8 } else if ev >= 9 { 6 + (ev - 9) / 2 } else if ev >= 3 { 6 } else {
        ev + 3
      }
    let timeIndex = min(
      max(Int((timeValue * 3).rounded()), Self.shutterRange.lowerBound),
      Self.shutterRange.upperBound)
    let roundedTime = Double(timeIndex) / 3
    // ISO: one third stop at a time, enough that f/2.8 at the chosen time exposes correctly.
    let isoStops = min(max(9 - ev, 0), 6)
    let isoIndex = min(max(Int((isoStops * 3).rounded()), 0), Self.isoSteps.count - 1)
    let iso = Self.isoSteps[isoIndex]
    // Aperture value (Av = log2 of N²) makes up the rest: Ev = Av + Tv at this ISO.
    let evAtISO = ev + Double(isoIndex) / 3
    let apertureIndex = min(max(Int(((evAtISO - roundedTime) * 3).rounded()), 9), 24)
    let fNumber = Self.apertureNames[apertureIndex - 9]
    return CameraSettings(
      aperture: "f/\(fNumber)", shutterSpeed: Self.shutterName(timeIndex), iso: iso,
      fNumber: Double(fNumber), exposureTime: Self.exposureTime(timeIndex), sceneEV: ev)
  }

  /// Third stops from 30 s (−15) to 1/4000 s (36), as thirds of a time value.
  static let shutterRange = -15...36

  /// The nominal exposure time of third stop `index` in seconds.
  static func exposureTime(_ index: Int) -> Double {
    let name = shutterName(index).dropLast()  // "1/60", "0.3", "30"
    if name.hasPrefix("1/"), let denominator = Double(name.dropFirst(2)) { return 1 / denominator }
    return Double(name) ?? pow(2, -Double(index) / 3)
  }

  /// The nominal name of third stop `index`, as cameras show it: `"1/60s"`, `"0.3s"`, `"30s"`.
  static func shutterName(_ index: Int) -> String {
    let fast = [
      "1", "0.8", "0.6", "0.5", "0.4", "0.3", "1/4", "1/5", "1/6", "1/8", "1/10", "1/13",
      "1/15", "1/20", "1/25", "1/30", "1/40", "1/50", "1/60", "1/80", "1/100", "1/125",
      "1/160", "1/200", "1/250", "1/320", "1/400", "1/500", "1/640", "1/800", "1/1000",
      "1/1250", "1/1600", "1/2000", "1/2500", "1/3200", "1/4000",
    ]
    let slow = [
      "1", "1.3", "1.6", "2", "2.5", "3.2", "4", "5", "6", "8", "10", "13", "15", "20", "25",
      "30",
    ]
    return (index >= 0 ? fast[index] : slow[-index]) + "s"
  }

  /// Third-stop f-numbers from f/2.8 (Av index 9) to f/16 (24).
  static let apertureNames = [
    "2.8", "3.2", "3.5", "4", "4.5", "5", "5.6", "6.3", "7.1", "8", "9", "10", "11", "13", "14",
    "16",
  ]

  /// Third-stop ISO sensitivities from 100 to 6400.
  static let isoSteps = [
    100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000,
    5000, 6400,
  ]
}

/// Scene brightness from a frame taken at a known exposure.
///
/// A frame exposed for EV *e* shows an average scene as mid-grey (18 % linear). Its
/// centre-weighted mean linear luminance *m* therefore says the scene is
/// *e* + log2(*m* / 0.18): twice as bright as mid-grey is one stop brighter than *e*.
public enum Metering {
  /// The linear level an average scene is exposed to.
  public static let midGrey = 0.18

  /// The scene's brightness (EV at ISO 100) seen in `frame`.
  ///
  /// - Parameters:
  ///   - frame: A preview frame; its ``Frame/exposureEV`` is used when known.
  ///   - assumedExposure: The exposure assumed when the frame does not say (default EV 10).
  public static func sceneEV(of frame: Frame, assumedExposure: Double = 10) -> Double {
    sceneEV(SceneStatistics(frame), exposureEV: frame.exposureEV ?? assumedExposure)
  }

  /// The scene's brightness from measured statistics and the frame's exposure.
  package static func sceneEV(_ statistics: SceneStatistics, exposureEV: Double) -> Double {
    exposureEV + log2(max(statistics.meanLinear, 1e-4) / midGrey)
  }
}
