import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup

/// What the command writes besides the model's changes: the display for the screen, the
/// camera's title, and where the phone's remote is.
extension CommandSession {
  func makeDisplay(_ sink: any OutputSink) -> any CommandDisplay {
    switch screen.mode {
    case .json: return JSONDisplay(sink: sink, camera: identity)
    case .plain: return PlainDisplay(sink: sink, camera: identity)
    case .live:
      return LiveDisplay(
        title: title, color: options.color, beep: options.beep ?? true, sink: sink,
        terminal: Terminal(), preview: screen.preview, mirrored: screen.mirrored,
        code: remote?.links.first.flatMap { QRCode(encoding: $0) })
    }
  }

  var title: String {
    guard let remote else { return cameraName }
    return "\(cameraName) · remote \(remote.links.first ?? "")"
  }

  /// The camera's name for the header and the phone's page.
  var cameraName: String { identity.description }

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
