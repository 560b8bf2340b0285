import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerRemote
import PhotoTimerSetup

/// What the command writes besides the model's changes: the display for the screen, and where
/// the phone's remote is.
extension CommandScreen {
  /// The display for this screen, writing to `sink`, for `camera`.
  ///
  /// - Parameters:
  ///   - options: The run's options (colour, beep).
  ///   - remote: The phone's remote, whose link the live view's header shows.
  func display(
    _ sink: any OutputSink, camera: CameraIdentity, options: CommandOptions.RunOptions,
    remote: RemoteLink?
  ) -> any CommandDisplay {
    switch mode {
    case .json: return JSONDisplay(sink: sink, camera: camera)
    case .plain: return PlainDisplay(sink: sink, camera: camera)
    case .live:
      let title = remote.map { "\(camera) · remote \($0.links.first ?? "")" } ?? "\(camera)"
      return LiveDisplay(
        title: title, color: options.color, beep: options.beep ?? true, sink: sink,
        terminal: Terminal(), preview: preview, mirrored: mirrored,
        code: remote?.links.first.flatMap { QRCode(encoding: $0) })
    }
  }

  /// Says where `remote` is, in the output's own form: a JSON event, a plain line, or in the
  /// live view the link and its QR code above the view.
  func announce(_ remote: RemoteLink, to sink: any OutputSink) {
    switch mode {
    case .json: try? sink.write(remote.jsonLine + "\n")
    case .plain: try? sink.write(remote.line + "\n")
    case .live:
      let code = remote.qrLines.map { "  " + $0 }.joined(separator: "\n")
      try? sink.write(code + "\n  " + remote.line + "\n\n")
    }
  }
}
