import PhotoTimer
import Testing

/// How outputs name a camera, and how a guest's screen does: never a folder of this computer.
@Suite("CameraIdentity")
struct CameraIdentityTests {
  @Test(
    "a guest sees a file by its name alone; an address, a device's own name as they are",
    arguments: [
      ("/home/ada/Videos/party.mp4", "party.mp4 · ffmpeg"),
      ("party.mp4", "party.mp4 · ffmpeg"),
      ("rtsp://10.0.0.5/cam", "rtsp://10.0.0.5/cam · ffmpeg"),
      ("HD Pro Webcam C920", "HD Pro Webcam C920 · ffmpeg"),
      ("color=c=red:s=640x360", "color=c=red:s=640x360 · ffmpeg"),
    ])
  func guest(name: String, shown: String) {
    let camera = CameraIdentity(kind: "ffmpeg", name: name)
    #expect(camera.guestDescription == shown)
    #expect(camera.forGuests.description == shown)
    #expect(camera.description == "\(name) · ffmpeg")
  }
}
