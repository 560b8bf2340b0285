import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerRemote
import PhotoTimerSetup

/// What the window shows: the preview, or the photo just taken (once its file is decoded,
/// off the main thread); or it is closing.
@MainActor
final class WindowPages {
  /// A page of the window.
  enum Page {
    case preview
    case photo
    case closing
  }

  /// The page shown now.
  private(set) var page = Page.preview
  /// Whether the window is closing: nothing new starts.
  var closing: Bool { page == .closing }
  /// Called when the page changed: the window renders.
  var changed: @MainActor () -> Void = {}
  private let views: WindowViews
  private let chores: Chores
  private let tracer: WindowTracer?

  /// The pages of `views`, decoding photos in `chores`.
  init(views: WindowViews, chores: Chores, tracer: WindowTracer?) {
    self.views = views
    self.chores = chores
    self.tracer = tracer
  }

  /// The photo page for `photo`: its details at once, its picture once decoded.
  func showPhoto(_ photo: CapturedPhoto) {
    views.photo.show(photo)
    chores.start { [self] in
      guard let frame = await PhotoPage.picture(of: photo), !closing, views.photo.photo == photo
      else { return }
      views.photo.show(frame)
      page = .photo
      views.preview.showPhotoPage(true)
      changed()
      tracer?.photoBounds(
        in: views.window, picture: views.photo.picture, width: frame.width, height: frame.height
      ) { [weak self] in
        (up: self?.page == .photo, changing: self?.views.preview.isChangingPage ?? false)
      }
    }
  }

  /// The photo page for a booth's collage: the collage with the guests' QR code beside it
  /// (a card as large as a screen, composed off the main thread), until the next count.
  func showCollage(_ file: URL, guest: String?) {
    let code = guest.flatMap { QRCode(encoding: $0) }
    chores.start { [self] in
      let card = await Task.detached { () -> Frame? in
        guard let data = FileManager.default.contents(atPath: file.path),
          let collage = try? JPEGCodec.decode([UInt8](data), path: file.path)
        else { return nil }
        return GuestCard.frame(
          collage: collage, code: code, room: PreviewSize(width: 1600, height: 900))
      }.value
      guard let card, !closing else { return }
      views.photo.showCollage(
        card, caption: code != nil ? "Scan the code with your phone to get your photos" : nil)
      page = .photo
      views.preview.showPhotoPage(true)
      changed()
    }
  }

  /// Back to the preview from the photo page.
  func showPreview() {
    guard page == .photo else { return }
    page = .preview
    views.photo.clear()
    views.preview.showPhotoPage(false)
    changed()
  }

  /// The window is closing.
  func close() {
    page = .closing
  }
}
