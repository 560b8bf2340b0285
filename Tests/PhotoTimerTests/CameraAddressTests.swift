import PhotoTimer
import Testing

@Suite("A camera's address without its secrets")
struct CameraAddressTests {
  @Test(
    "User, password and secret parameters are removed; the rest is kept",
    arguments: [
      ("rtsp://bob:s3cret@10.0.0.5:554/stream", "rtsp://10.0.0.5:554/stream"),
      ("rtsp://admin@cam.local/live", "rtsp://cam.local/live"),
      ("rtsp://u:p@ss@host/cam", "rtsp://host/cam"),
      ("http://host/video.mjpg?user=admin&password=x&res=hd", "http://host/video.mjpg?res=hd"),
      ("http://host/cgi?PWD=x", "http://host/cgi"),
      ("rtsp://[fe80::1]:554/s?token=abc#frag", "rtsp://[fe80::1]:554/s#frag"),
      ("rtsp://host/stream", "rtsp://host/stream"),
      ("/dev/video0", "/dev/video0"),
      ("testsrc2=size=640x480:rate=30", "testsrc2=size=640x480:rate=30"),
      (
        "Input #0, rtsp, from 'rtsp://bob:s3cret@127.0.0.1:8554/cam':",
        "Input #0, rtsp, from 'rtsp://127.0.0.1:8554/cam':"
      ),
      (
        "ffmpeg rtsp://a:b@h1/x and http://c:d@h2/y?pass=e",
        "ffmpeg rtsp://h1/x and http://h2/y"
      ),
    ])
  func redacted(address: String, shown: String) {
    #expect(CameraAddress.redacted(address) == shown)
  }

  @Test(
    "The host of an address, without port, user or password",
    arguments: [
      ("rtsp://bob:s3cret@10.0.0.5:554/stream", "10.0.0.5"),
      ("rtsp://cam.local/live", "cam.local"),
      ("rtsp://[fe80::1]:554/s", "fe80::1"),
      ("http://u:p@ss@host:80", "host"),
    ])
  func host(address: String, host: String) {
    #expect(CameraAddress.host(of: address) == host)
  }

  @Test("Not a network address: no host", arguments: ["/dev/video0", "file:///tmp/a.mp4", "x"])
  func noHost(address: String) {
    #expect(CameraAddress.host(of: address) == nil)
  }
}
