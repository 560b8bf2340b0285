import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerSetup

/// The camera's previews into the window's preview area, with the suggested look once the
/// filter step chose it and the faces followed outlined on them.
@MainActor
final class PreviewFeed: PreviewTarget {
  private let area: PreviewArea
  private let tracer: WindowTracer?
  /// Whether the picture is mirrored.
  var mirrored: Bool
  /// The look shown live on the preview while a run lasts, if any.
  var look: Look?
  /// The faces outlined on the preview.
  var faces: [FaceMark] = []

  /// A feed into `area`, traced by `tracer`.
  init(area: PreviewArea, mirrored: Bool, tracer: WindowTracer?) {
    self.area = area
    self.mirrored = mirrored
    self.tracer = tracer
  }

  var previewRoom: PreviewSize? { area.room }
  var previewMirrored: Bool { mirrored }

  /// Shows a camera's frame with the look and the faces: both drawn off the main thread (on
  /// the shared queue, no thread per frame, on a copy: the photo never carries them); the
  /// main thread only hands the bytes to GTK. RGB as it is: converting to cairo's BGRA
  /// ourselves measured slower (BENCHMARKS.md).
  func show(preview frame: Frame) async {
    var shown = frame
    let look = look
    let marks = faces
    // NB: the feed mirrors the frame as the window does now; the faces follow the frame.
    let mirrored = mirrored
    if look != nil || !marks.isEmpty {
      shown = await OffPool.quick {
        var copy = frame
        look?.applyInPlace(to: &copy)
        FaceOutline.draw(marks, mirrored: mirrored, on: &copy)
        return copy
      }
    }
    guard !Task.isCancelled else { return }
    area.show(shown)
    tracer?.shown(frame)
  }
}
