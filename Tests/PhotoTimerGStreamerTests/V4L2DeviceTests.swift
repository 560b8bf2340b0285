import CV4L2
import Glibc
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerGStreamer

/// A stand-in UVC webcam behind the V4L2 requests: raw YUYV up to 1080p (slow at the large
/// sizes, as real webcams are), MJPEG at 30 fps at every size, a Bayer format this program does
/// not read, and the UVC exposure controls. The real driver is tested in the VM (VividTests).
struct StandInWebcam: Sendable {
  var capture = true
  var stepwise = false

  static let yuyv = fourCC("YUYV")
  static let mjpg = fourCC("MJPG")
  static let bayer = fourCC("BA81")

  static func fourCC(_ text: String) -> UInt32 {
    text.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
  }

  static func copy<T>(_ text: String, into tuple: inout T) {
    withUnsafeMutableBytes(of: &tuple) { bytes in
      for (index, byte) in text.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
    }
  }

  /// The sizes and the rates of each, by format.
  static let table: [UInt32: [(Int, Int, [Int])]] = [
    yuyv: [(640, 480, [30, 15]), (1280, 720, [10]), (1920, 1080, [5])],
    mjpg: [(640, 480, [30]), (1280, 720, [30]), (1920, 1080, [30, 15])],
    bayer: [(1920, 1080, [30])],
  ]

  var driver: V4L2Driver {
    let capture = self.capture
    let stepwise = self.stepwise
    return .standIn(open: { path throws(SystemCallError) in
      guard path == "/dev/video0" else { throw SystemCallError(call: "open", errno: .noSuchFile) }
      return 42
    }) { _, request, pointer in
      func refuse(_ code: Int32 = EINVAL) -> Int32 {
        errno = code
        return -1
      }
      switch request {
      case phototimer_vidioc_querycap:
        let capability = pointer.assumingMemoryBound(to: v4l2_capability.self)
        Self.copy("uvcvideo", into: &capability.pointee.driver)
        Self.copy("HD Pro Webcam C920", into: &capability.pointee.card)
        Self.copy("usb-0000:00:14.0-1", into: &capability.pointee.bus_info)
        let video = capture ? UInt32(V4L2_CAP_VIDEO_CAPTURE) : UInt32(V4L2_CAP_META_CAPTURE)
        capability.pointee.device_caps = video | UInt32(V4L2_CAP_STREAMING)
        capability.pointee.capabilities =
          capability.pointee.device_caps | UInt32(V4L2_CAP_DEVICE_CAPS)
        return 0
      case phototimer_vidioc_enum_fmt:
        let format = pointer.assumingMemoryBound(to: v4l2_fmtdesc.self)
        let formats = [Self.yuyv, Self.mjpg, Self.bayer]
        guard Int(format.pointee.index) < formats.count else { return refuse() }
        format.pointee.pixelformat = formats[Int(format.pointee.index)]
        return 0
      case phototimer_vidioc_enum_framesizes:
        let size = pointer.assumingMemoryBound(to: v4l2_frmsizeenum.self)
        let sizes = Self.table[size.pointee.pixel_format] ?? []
        if stepwise {
          guard size.pointee.index == 0 else { return refuse() }
          size.pointee.type = V4L2_FRMSIZE_TYPE_STEPWISE.rawValue
          size.pointee.stepwise = v4l2_frmsize_stepwise(
            min_width: 320, max_width: 1920, step_width: 2, min_height: 240, max_height: 1080,
            step_height: 2)
          return 0
        }
        guard Int(size.pointee.index) < sizes.count else { return refuse() }
        let entry = sizes[Int(size.pointee.index)]
        size.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
        size.pointee.discrete = v4l2_frmsize_discrete(
          width: UInt32(entry.0), height: UInt32(entry.1))
        return 0
      case phototimer_vidioc_enum_frameintervals:
        let interval = pointer.assumingMemoryBound(to: v4l2_frmivalenum.self)
        let sizes = Self.table[interval.pointee.pixel_format] ?? []
        let rates =
          stepwise
          ? [30]
          : sizes.first { $0.0 == interval.pointee.width && $0.1 == interval.pointee.height }?.2
            ?? []
        guard Int(interval.pointee.index) < rates.count else { return refuse() }
        interval.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
        interval.pointee.discrete = v4l2_fract(
          numerator: 1, denominator: UInt32(rates[Int(interval.pointee.index)]))
        return 0
      case phototimer_vidioc_queryctrl:
        let query = pointer.assumingMemoryBound(to: v4l2_queryctrl.self)
        let known = [
          phototimer_cid_exposure_auto, phototimer_cid_exposure_absolute, phototimer_cid_gain,
        ]
        return known.contains(query.pointee.id) ? 0 : refuse()
      case phototimer_vidioc_g_ctrl:
        let control = pointer.assumingMemoryBound(to: v4l2_control.self)
        switch control.pointee.id {
        case phototimer_cid_exposure_auto: control.pointee.value = 3  // aperture priority
        case phototimer_cid_exposure_absolute: control.pointee.value = 167  // 16.7 ms
        case phototimer_cid_gain: control.pointee.value = 40
        default: return refuse()
        }
        return 0
      default:
        return refuse(ENOTTY)
      }
    }
  }
}

@Suite("V4L2 devices: modes, names and controls through each request, and each request's fault")
struct V4L2DeviceTests {
  @Test("A webcam's modes: raw and MJPEG read, Bayer left out; MJPEG is what reaches 1080p30")
  func modes() throws {
    let device = try V4L2Device.inspect(
      "/dev/video0", driver: StandInWebcam().driver, sysfs: "/nonexistent")
    #expect(device.card == "HD Pro Webcam C920" && device.driver == "uvcvideo")
    #expect(device.capturesVideo)
    #expect(device.modes.count == 6)
    #expect(device.unreadFormats == [PixelFormat(fourCC: "BA81")])
    #expect(device.model == "HD Pro Webcam C920" && device.make == "uvcvideo")
    let best = try ModeRequest.best.choose(from: device.modes)
    #expect(best.description == "1920×1080 MJPEG 30 fps")
    #expect(
      try ModeRequest.size(FrameSize(width: 640, height: 480)).choose(from: device.modes)
        .description == "640×480 YUYV 30 fps")
  }

  @Test("A metadata node captures no video and lists no modes")
  func metadataNode() throws {
    let device = try V4L2Device.inspect(
      "/dev/video0", driver: StandInWebcam(capture: false).driver, sysfs: "/nonexistent")
    #expect(!device.capturesVideo)
    #expect(device.modes.isEmpty)
  }

  @Test("A stepwise range gives its ends and the common sizes inside it")
  func stepwise() throws {
    let device = try V4L2Device.inspect(
      "/dev/video0", driver: StandInWebcam(stepwise: true).driver, sysfs: "/nonexistent")
    let sizes = device.modes.filter { $0.format == .mjpeg }.map(\.size.description)
    #expect(sizes == ["320×240", "640×480", "1280×720", "1920×1080"])
  }

  @Test("The exposure the webcam reports: 16.7 ms, automatic, gain 40")
  func exposure() throws {
    let exposure = try #require(V4L2Exposure.read("/dev/video0", driver: StandInWebcam().driver))
    #expect(exposure.exposureTime == 0.0167)
    #expect(exposure.isAutomatic == true)
    #expect(exposure.gain == 40)
    #expect(exposure.isAutomaticGain == nil)
    let settings = CameraSettings.cameraOwn(
      mode: "1920×1080 MJPEG 30 fps", exposureTime: exposure.exposureTime)
    #expect(settings.description == "1920×1080 MJPEG 30 fps · exposure 1/60 s (camera's own)")
  }

  @Test(
    "Each request that fails is an error naming the request and the device",
    arguments: [
      "ioctl(VIDIOC_ENUM_FMT)", "ioctl(VIDIOC_ENUM_FRAMESIZES)",
      "ioctl(VIDIOC_ENUM_FRAMEINTERVALS)",
    ])
  func enumerationFaults(request: String) throws {
    let plan = FaultPlan()
    plan.fail(request, with: .ioError)
    FaultPlan.$current.withValue(plan) {
      #expect(
        throws: V4L2Error.request(
          path: "/dev/video0", SystemCallError(call: request, errno: .ioError))
      ) {
        try V4L2Device.inspect("/dev/video0", driver: StandInWebcam().driver, sysfs: "/none")
      }
    }
    #expect(plan.injected == [request])
  }

  @Test(
    "QUERYCAP's faults: not a V4L2 device, gone, refused",
    arguments: [
      (Errno(rawValue: ENOTTY), V4L2Error.notVideoDevice("/dev/video0")),
      (Errno(rawValue: ENODEV), V4L2Error.noSuchDevice("/dev/video0")),
      (
        Errno.ioError,
        V4L2Error.request(
          path: "/dev/video0", SystemCallError(call: "ioctl(VIDIOC_QUERYCAP)", errno: .ioError))
      ),
    ])
  func querycapFaults(errno: Errno, expected: V4L2Error) throws {
    let plan = FaultPlan()
    plan.fail("ioctl(VIDIOC_QUERYCAP)", with: errno)
    FaultPlan.$current.withValue(plan) {
      #expect(throws: expected) {
        try V4L2Device.inspect("/dev/video0", driver: StandInWebcam().driver, sysfs: "/none")
      }
    }
  }

  @Test(
    "A control that cannot be read is not reported (never a made-up value)",
    arguments: ["ioctl(VIDIOC_QUERYCTRL)", "ioctl(VIDIOC_G_CTRL)"])
  func controlFaults(request: String) throws {
    let plan = FaultPlan()
    plan.fail(request, with: .ioError, times: 4)
    let exposure = FaultPlan.$current.withValue(plan) {
      V4L2Exposure.read("/dev/video0", driver: StandInWebcam().driver)
    }
    let read = try #require(exposure)
    // The first three controls asked fail; the gain, asked last of those with values, too.
    #expect(read.exposureTime == nil && read.isAutomatic == nil && read.gain == nil)
  }

  @Test("Gone: a node that cannot be opened, or whose driver says ENODEV; not one that answers")
  func gone() {
    #expect(!V4L2Device.isGone("/dev/video0", driver: StandInWebcam().driver))
    let vanished = V4L2Driver.standIn(open: { _ throws(SystemCallError) in
      throw SystemCallError(call: "open", errno: .noSuchFile)
    }) { _, _, _ in -1 }
    #expect(V4L2Device.isGone("/dev/video0", driver: vanished))
    for (errno, gone) in [(Errno(rawValue: ENODEV), true), (Errno.ioError, false)] {
      let plan = FaultPlan()
      plan.fail("ioctl(VIDIOC_QUERYCAP)", with: errno)
      FaultPlan.$current.withValue(plan) {
        #expect(V4L2Device.isGone("/dev/video0", driver: StandInWebcam().driver) == gone)
      }
    }
  }

  @Test(
    "Opening: no such node, no permission",
    arguments: [
      (Errno.noSuchFile, V4L2Error.noSuchDevice("/dev/video0")),
      (Errno.permissionDenied, V4L2Error.permissionDenied("/dev/video0")),
    ])
  func openFaults(errno: Errno, expected: V4L2Error) throws {
    let driver = V4L2Driver.standIn(open: { _ throws(SystemCallError) in
      throw SystemCallError(call: "open", errno: errno)
    }) { _, _, _ in -1 }
    #expect(throws: expected) { try V4L2Device.inspect("/dev/video0", driver: driver) }
    #expect(expected.description.contains("/dev/video0"))
  }
}
