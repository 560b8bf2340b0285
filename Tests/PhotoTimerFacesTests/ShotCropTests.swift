import PhotoTimerImaging
import PhotoTimerJPEG
import Testing

/// A booth's shot cropped to each built-in layout's slot never cuts a face of an ordinary group
/// photo when the group fits the slot's shape, and keeps the faces' margin when that fits too.
@Suite("Shot crops on the group photos")
struct ShotCropTests {
  @Test(
    "every annotated face inside the crop, for every built-in slot's shape",
    arguments: GroupPhotos.all)
  func groups(photo: GroupPhotos.Photo) throws {
    let frame = try GroupPhotos.frame(photo)
    let faces = photo.faces.map(\.pixelBox)
    let shapes = Set(BoothLayout.builtIn.flatMap { $0.slots.map(\.aspect) }).union([1, 0.75])
    for aspect in shapes.sorted() {
      let crop = ShotCrop.crop(
        width: frame.width, height: frame.height, aspect: aspect, faces: faces)
      let box = crop.box
      #expect(abs(box.width / box.height - aspect) < 0.01)
      #expect(box.x >= 0 && box.y >= 0)
      #expect(box.x + box.width <= Double(frame.width) + 0.5)
      #expect(box.y + box.height <= Double(frame.height) + 0.5)
      // The group's span: does it fit the largest crop of this shape at all?
      let left = faces.map(\.x).min() ?? 0
      let right = faces.map { $0.x + $0.width }.max() ?? 0
      let top = faces.map(\.y).min() ?? 0
      let bottom = faces.map { $0.y + $0.height }.max() ?? 0
      let fits = right - left <= box.width && bottom - top <= box.height
      #expect(crop.cutsFaces == !fits, "\(photo.file) at \(aspect)")
      if fits {
        for face in faces {
          #expect(
            face.x >= box.x - 0.5 && face.x + face.width <= box.x + box.width + 0.5
              && face.y >= box.y - 0.5 && face.y + face.height <= box.y + box.height + 0.5,
            "\(photo.file) at \(aspect): \(face) cut by \(box)")
        }
      }
    }
  }
}
