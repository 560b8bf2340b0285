import PhotoTimer
import PhotoTimerImaging
import PhotoTimerSetup

extension CommandSession {
  /// Shows the camera's previews on the live view, the newest each time, re-asking for the
  /// terminal's size after a resize; ends when the camera closes or the task is cancelled.
  nonisolated static func feed(
    _ camera: LiveCamera, to display: LiveDisplay, mirrored: Bool,
    input: AsyncStream<Input>.Continuation
  ) async {
    while !Task.isCancelled {
      guard let room = display.previewRoom else {
        // Too small for a picture: look again at the next frame.
        guard
          (try? await camera.previews(fitting: PreviewSize(width: 1, height: 1)).first { _ in true })
            != nil
        else { return }
        continue
      }
      do {
        for try await frame in camera.previews(fitting: room, mirrored: mirrored) {
          await display.show(preview: frame)
          if display.previewRoom != room { break }
        }
        if camera.isClosed { return }
      } catch {
        if !(error is CancellationError) {
          input.yield(.previewStopped("\(CommandAdvice.advise(error))"))
        }
        return
      }
    }
  }
}
