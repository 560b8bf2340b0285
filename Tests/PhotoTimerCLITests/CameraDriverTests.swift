import Foundation
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGPhoto2
import PhotoTimerSetup
import Testing

/// The camera drivers: one for every kind the command line names, and how `auto` finds a
/// webcam.
@Suite("Camera drivers")
struct CameraDriverTests {
  @Test("Every registered kind has its driver")
  func everyKindHasADriver() {
    for kind in CameraKinds.all {
      #expect(kind is any CameraDriver, "\(kind.scheme) has no driver")
    }
  }

  @Test("auto's webcam: the first node that captures video; none is no webcam")
  func autoWebcam() {
    #expect(V4L2Kind.webcams(devices: [], capturesVideo: { _ in true }).isEmpty)
    let two = [
      VideoDevice(path: "/dev/video0", name: "a"), VideoDevice(path: "/dev/video1", name: "b"),
    ]
    #expect(
      V4L2Kind.webcams(devices: two, capturesVideo: { _ in true }).first == .v4l2("/dev/video0"))
    // A UVC camera's metadata node (no video capture) is skipped.
    let metadata = [
      VideoDevice(path: "/dev/video0", name: "meta"), VideoDevice(path: "/dev/video1", name: "b"),
    ]
    #expect(
      V4L2Kind.webcams(devices: metadata, capturesVideo: { $0 == "/dev/video1" }) == [
        .v4l2("/dev/video1")
      ])
  }

  @Test("auto asks gphoto2 only when a USB still-image (PTP) interface is connected")
  func stillImageInterface() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "usb-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let keyboard = root.appendingPathComponent("1-1:1.0")
    try FileManager.default.createDirectory(at: keyboard, withIntermediateDirectories: true)
    try "03\n".write(
      to: keyboard.appendingPathComponent("bInterfaceClass"), atomically: true, encoding: .utf8)
    #expect(!DetectedCamera.stillImageInterfacePresent(root: root.path))
    let camera = root.appendingPathComponent("1-2:1.0")
    try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
    try "06\n".write(
      to: camera.appendingPathComponent("bInterfaceClass"), atomically: true, encoding: .utf8)
    #expect(DetectedCamera.stillImageInterfacePresent(root: root.path))
    #expect(!DetectedCamera.stillImageInterfacePresent(root: "/nonexistent"))
  }
}
