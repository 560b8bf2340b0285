import PhotoTimerImaging
import Testing

@Suite("Choosing a camera's mode")
struct ModeRequestTests {
  static func mode(
    _ format: PixelFormat, _ width: Int, _ height: Int, _ rates: [FrameRate]
  )
    -> CameraMode
  {
    CameraMode(format: format, size: FrameSize(width: width, height: height), rates: rates)
  }

  /// vivid's sizes and top rates (one raw format).
  static let vivid = [
    mode(.yuyv, 320, 180, [FrameRate(frames: 60), FrameRate(frames: 30)]),
    mode(.yuyv, 640, 360, [FrameRate(frames: 40)]),
    mode(.yuyv, 640, 480, [FrameRate(frames: 25), FrameRate(frames: 15)]),
    mode(.yuyv, 1280, 720, [FrameRate(frames: 25, per: 2)]),
    mode(.yuyv, 1920, 1080, [FrameRate(frames: 5)]),
    mode(.yuyv, 3840, 2160, [FrameRate(frames: 2)]),
  ]

  @Test("Best: the largest at 24 fps or more, at its highest rate")
  func best() throws {
    #expect(try ModeRequest.best.choose(from: Self.vivid).description == "640×480 YUYV 25 fps")
  }

  @Test("The window's size menu: best, largest, then each size largest first, with its mode")
  func menu() {
    let menu = ModeRequest.menu(for: Self.vivid)
    #expect(
      menu.map(\.title) == [
        "Best: 640×480 YUYV 25 fps", "Largest: 3840×2160 YUYV 2 fps", "3840×2160 YUYV 2 fps",
        "1920×1080 YUYV 5 fps", "1280×720 YUYV 12.5 fps", "640×480 YUYV 25 fps",
        "640×360 YUYV 40 fps", "320×180 YUYV 60 fps",
      ])
    #expect(menu.first?.request == .best && menu[1].request == .largest)
    #expect(menu[4].request == .size(FrameSize(width: 1280, height: 720)))
    // One mode only: best is also the largest, listed once.
    let one = ModeRequest.menu(for: [Self.mode(.mjpeg, 1280, 720, [FrameRate(frames: 30)])])
    #expect(one.map(\.title) == ["Best: 1280×720 MJPEG 30 fps", "1280×720 MJPEG 30 fps"])
    #expect(ModeRequest.menu(for: []).isEmpty)
  }

  @Test("Max: the largest whatever its rate; a size: that size at its highest rate")
  func largestAndSize() throws {
    #expect(try ModeRequest.largest.choose(from: Self.vivid).description == "3840×2160 YUYV 2 fps")
    #expect(
      try ModeRequest.size(FrameSize(width: 1280, height: 720)).choose(from: Self.vivid)
        .description == "1280×720 YUYV 12.5 fps")
  }

  @Test("A raw format wins a tie with MJPEG; MJPEG wins where only it reaches the rate")
  func formats() throws {
    let modes = [
      Self.mode(.mjpeg, 1280, 720, [FrameRate(frames: 30)]),
      Self.mode(.yuyv, 1280, 720, [FrameRate(frames: 30)]),
      Self.mode(.mjpeg, 1920, 1080, [FrameRate(frames: 30)]),
      Self.mode(.yuyv, 1920, 1080, [FrameRate(frames: 5)]),
    ]
    #expect(try ModeRequest.best.choose(from: modes).description == "1920×1080 MJPEG 30 fps")
    #expect(
      try ModeRequest.size(FrameSize(width: 1280, height: 720)).choose(from: modes).description
        == "1280×720 YUYV 30 fps")
  }

  @Test("No mode fast enough: the fastest, largest first")
  func slowCamera() throws {
    let modes = [
      Self.mode(.yuyv, 640, 480, [FrameRate(frames: 15)]),
      Self.mode(.yuyv, 1280, 720, [FrameRate(frames: 15)]),
      Self.mode(.yuyv, 1920, 1080, [FrameRate(frames: 5)]),
    ]
    #expect(try ModeRequest.best.choose(from: modes).description == "1280×720 YUYV 15 fps")
  }

  @Test("A size not offered lists the sizes there are; no modes at all says so")
  func errors() {
    #expect(
      throws: ModeChoiceError.sizeNotOffered(
        FrameSize(width: 1000, height: 1000),
        offered: Self.vivid.map(\.size))
    ) { try ModeRequest.size(FrameSize(width: 1000, height: 1000)).choose(from: Self.vivid) }
    #expect(throws: ModeChoiceError.noModes) { try ModeRequest.best.choose(from: []) }
  }

  @Test("Sizes and rates read and shown as people write them")
  func text() {
    #expect(FrameSize("1280x720") == FrameSize(width: 1280, height: 720))
    #expect(FrameSize("1280×720") == FrameSize(width: 1280, height: 720))
    #expect(FrameSize("0x720") == nil && FrameSize("big") == nil && FrameSize("70000x1") == nil)
    #expect(FrameRate(frames: 30_000, per: 1001).description == "30 fps")
    #expect(FrameRate(frames: 25, per: 2).description == "12.5 fps")
    #expect(FrameRate(frames: 50, per: 2) == FrameRate(frames: 25))
  }
}
