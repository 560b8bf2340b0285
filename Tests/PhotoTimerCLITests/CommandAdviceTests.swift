import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerJPEG
import PhotoTimerLocation
import Testing

@testable import PhotoTimerCLI
@testable import PhotoTimerSetup

@Suite("The command's advice on the libraries' errors")
struct CommandAdviceTests {
  private static let gpsd = GPSDEndpoint(host: "127.0.0.1", port: 2947)

  @Test(
    "Each library error reads as before, with the option that fixes it",
    arguments: [
      (
        GPSDError.notRunning(gpsd) as any Error,
        "gpsd not running on 127.0.0.1:2947; start it (systemctl start gpsd) or pass --gpsd HOST:PORT"
      ),
      (
        GPSDError.unknownHost(
          GPSDEndpoint(host: "gps.local", port: 2947), "Name or service not known"),
        "cannot resolve the gpsd host gps.local: Name or service not known; check --gpsd"
      ),
      (
        FFmpegError.notInstalled(executable: "ffmpeg"),
        "ffmpeg is not installed (sudo apt-get install ffmpeg) or use --camera scene"
      ),
      (
        FFmpegError.noVideo(input: "/tmp/cam.mp4", lastLines: ["No such file or directory"]),
        "ffmpeg found no video in /tmp/cam.mp4: No such file or directory; check the input and "
          + "--ffmpeg-format"
      ),
      (
        PhotoStoreError.folderMissing(path: "/tmp/nowhere"),
        "the output folder /tmp/nowhere does not exist; create it (mkdir -p /tmp/nowhere) or "
          + "choose another with -o DIR"
      ),
      (
        ImageFileError.missing(path: "/tmp/none.jpg"),
        "no image file at /tmp/none.jpg; check the path given to --camera file:PATH"
      ),
      (
        RemoteError.cannotListen("127.0.0.1:8470", reason: "Address already in use"),
        "the remote cannot listen on 127.0.0.1:8470: Address already in use; is another "
          + "program on that port? choose another: --remote=PORT"
      ),
      (
        GazetteerError.missingResource("cities15000.tsv"),
        "the place-name data cities15000.tsv is missing from this installation; reinstall "
          + "phototimer, or turn location naming off with --no-location"
      ),
    ])
  func advice(error: any Error, message: String) {
    #expect("\(CommandAdvice.advise(error))" == message)
  }

  @Test("The libraries' own messages name no option of the command")
  func librariesSpeakForThemselves() {
    let errors: [any Error] = [
      GPSDError.notRunning(Self.gpsd), GPSDError.unknownHost(Self.gpsd, "x"),
      FFmpegError.notInstalled(executable: "ffmpeg"),
      FFmpegError.ended(input: "x", exit: "exit status 1", lastLines: []),
      FFmpegError.noVideo(input: "x", lastLines: []), PhotoStoreError.notWritable(path: "/x"),
      PhotoStoreError.diskFull(path: "/x"), ImageFileError.missing(path: "/x"),
      GazetteerError.missingResource("x"),
    ]
    for error in errors {
      #expect(!"\(error)".contains("--"), "\(error)")
      #expect(!"\(error)".contains("-o DIR"), "\(error)")
    }
  }
}
