import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote

/// What the command writes besides the model's changes: the display for the screen, the
/// camera's title, and where the phone's remote is.
extension CommandSession {
  func makeDisplay(_ sink: any OutputSink) -> any CommandDisplay {
    switch screen.mode {
    case .json: return JSONDisplay(sink: sink)
    case .plain: return PlainDisplay(sink: sink)
    case .live:
      return LiveDisplay(
        title: title, color: options.color, beep: options.beep ?? true, sink: sink,
        terminal: Terminal(), preview: screen.preview,
        code: remote?.links.first.flatMap { QRCode(encoding: $0) })
    }
  }

  var title: String {
    guard let remote else { return cameraName }
    return "\(cameraName) · remote \(remote.links.first ?? "")"
  }

  var cameraName: String {
    switch options.camera {
    case .simulated: "simulation"
    case .scene(let preset): "scene camera (\(preset.name))"
    case .file(let path): "image file \((path as NSString).lastPathComponent)"
    case .ffmpeg(let input, _): "ffmpeg \(CameraAddress.redacted(input))"
    case .v4l2(let path): "webcam \(path)"
    case .pipewire(let node): "PipeWire camera \(node ?? "(default)")"
    case .gphoto2: "gphoto2"
    case .auto: "scene camera (daylight)"
    }
  }

  /// Says where the remote is, in the output's own form: a JSON event, a plain line, or in
  /// the live view the link and its QR code above the view.
  func announceRemote() {
    guard let remote else { return }
    switch screen.mode {
    case .json: try? sink.write(remote.jsonLine + "\n")
    case .plain: try? sink.write(remote.line + "\n")
    case .live:
      let code = remote.qrLines.map { "  " + $0 }.joined(separator: "\n")
      try? sink.write(code + "\n  " + remote.line + "\n\n")
    }
  }

  static func advice(for error: RemoteError) -> String {
    switch error {
    case .badAddress: "give --remote=PORT or --remote=ADDR:PORT, or --remote alone"
    case .noNetworkAddress: "connect to a network, or keep it on this machine: --remote=127.0.0.1"
    case .cannotListen: "is another program on that port? choose another: --remote=PORT"
    }
  }
}
