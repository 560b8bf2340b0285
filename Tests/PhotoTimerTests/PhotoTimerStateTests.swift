import PhotoTimer
import Testing

@Suite("PhotoTimerState")
struct PhotoTimerStateTests {
  @Test("Events reduce to the statuses and flags the user sees")
  func reduces() {
    var state = PhotoTimerState()
    state.apply(PhotoTimerEvent(offset: .zero, kind: .started(countdownSeconds: 3)))
    #expect(state.status == .counting(remaining: 3))
    state.apply(
      .step(.camera, .succeeded(.camera(Seed.settings)), at: ms(1400)))
    #expect(state.prep == PreparationProgress(cameraReady: true))
    state.apply(.step(.location, .failed(reason: "no gpsd"), at: ms(1500)))
    #expect(state.prep == PreparationProgress(cameraReady: true))
    // The checklist: each step that ended, with how and when.
    #expect(
      state.reports[.location]
        == StepReport(step: .location, outcome: .failed(reason: "no gpsd"), elapsed: ms(1500)))
    #expect(state.reports[.camera]?.elapsed == ms(1400))
    #expect(state.reports[.filter] == nil)
    state.apply(PhotoTimerEvent(offset: ms(2000), kind: .waiting(for: [.camera])))
    #expect(state.status == .waiting(for: [.camera]))
    state.apply(PhotoTimerEvent(offset: ms(2000), kind: .shutter))
    #expect(state.status == .capturing)
    state.apply(PhotoTimerEvent(offset: ms(2000), kind: .cancelled))
    #expect(state == PhotoTimerState())
  }

  @Test("Descriptions are plain lines a person reads")
  func descriptions() {
    #expect(Seed.settings.description == "f/2.8 · 1/60s · ISO 400")
    #expect(PhotoTimerStatus.waiting(for: [.camera]).description == "waiting for camera")
    #expect(
      PhotoTimerEvent(offset: ms(1400), kind: .tick(remaining: 3)).description == "+1.400s 3")
    #expect(Seed.location.description == "Golden Gate Park (37.76940, -122.48620)")
    #expect(
      Coordinate(latitude: -33.8568, longitude: 151.2153).description == "-33.85680, 151.21530")
  }

  @Test("A webcam's own exposure says only what the device reported: mode, time, gain")
  func cameraOwn() {
    #expect(
      CameraSettings.cameraOwn(mode: "640×480 YUYV 25 fps").description
        == "640×480 YUYV 25 fps · exposure: the camera's own")
    let reported = CameraSettings.cameraOwn(
      mode: "1280×720 MJPEG 30 fps", exposureTime: 1.0 / 60,
      gain: CameraSettings.Gain(value: 32, isAutomatic: true))
    #expect(
      reported.description
        == "1280×720 MJPEG 30 fps · exposure 1/60 s (camera's own) · gain 32 (auto)")
    #expect(reported.aperture == nil && reported.iso == nil)
  }

  @Test("A wait at zero says what it is for: each step's own status, else the steps' names")
  func waitingLine() {
    let closing = "waiting for the camera to end its live view…"
    #expect(
      PhotoTimerStatus.waitingLine(for: [.camera], activity: [:]) == "waiting for camera")
    #expect(
      PhotoTimerStatus.waitingLine(for: [.camera, .location], activity: [.filter: "busy"])
        == "waiting for camera and location")
    #expect(PhotoTimerStatus.waitingLine(for: [.camera], activity: [.camera: closing]) == closing)
  }
}
