import Foundation
import PhotoTimerImaging
import Testing

@testable import PhotoTimerFaces

/// The model, loaded once for the suite (0.6 s warm).
private let finder = Result { try DlibFaceFinder.load() }

@Suite("Faces through dlib, on a real photograph")
struct DlibFaceFinderTests {
  @Test("the astronaut: one face, 68 landmarks inside it, eyes open")
  func astronaut() throws {
    let search = FaceSearch(finder: try finder.get())
    let faces = try search.faces(in: TestFaces.astronaut, near: [], everywhere: true)
    try #require(faces.count == 1, "\(faces.map(\.box))")
    let face = faces[0]
    #expect(face.box.width > 70 && face.box.width < 110, "\(face.box)")
    #expect(face.landmarks.count == 68)
    let eyes = try #require(face.eyes)
    #expect(eyes.aspectRatio > 0.2, "\(eyes)")
    #expect(eyes.irisShare > 0.4, "\(eyes)")
  }

  @Test(
    "her eyes painted shut: the aspect ratio and the iris both fall; her baseline calls it closed")
  func shut() throws {
    let search = FaceSearch(finder: try finder.get())
    let open = try #require(
      try search.faces(in: TestFaces.astronaut, near: [], everywhere: true).first)
    let shutFrame = TestFaces.closingEyes(TestFaces.astronaut, landmarks: open.landmarks)
    TestFaces.dump(shutFrame, "astronaut-shut")
    let shut = try #require(
      try search.faces(in: shutFrame, near: [open.box], everywhere: false).first)
    let openEyes = try #require(open.eyes)
    let shutEyes = try #require(shut.eyes)
    #expect(shutEyes.irisShare < openEyes.irisShare * 0.6, "\(openEyes) → \(shutEyes)")
    var baseline = EyeBaseline()
    for _ in 0..<10 { baseline.add(openEyes) }
    #expect(!baseline.isClosed(openEyes))
    #expect(baseline.isClosed(shutEyes), "\(openEyes) → \(shutEyes)")
  }

  @Test(
    "six at a table in 1280 × 720 (faces 70–125 px): all found by a search everywhere, then each in its region"
  )
  func group() throws {
    let search = FaceSearch(finder: try finder.get())
    let frame = TestFaces.sixAtATable
    TestFaces.dump(frame, "six-at-a-table")
    let everywhere = try search.faces(in: frame, near: [], everywhere: true)
    #expect(everywhere.count == 6, "\(everywhere.map(\.box))")
    let widths = everywhere.map(\.box.width)
    #expect((widths.min() ?? 0) < 90, "\(widths)")
    let followed = try search.faces(in: frame, near: everywhere.map(\.box), everywhere: false)
    #expect(followed.count == 6, "\(followed.map(\.box))")
    #expect(followed.allSatisfy { $0.eyes != nil })
  }

  @Test(
    "the same six on a 640-pixel preview, searched as it is: the small faces are lost (why we search at full size)"
  )
  func scaledPreviewLosesFaces() throws {
    let finder = try finder.get()
    let preview = TestFaces.sixAtATable.resized(width: 640, height: 360)
    let found = try finder.faces(in: GreyImage(preview))
    #expect(found.count < 6, "\(found)")
  }

  @Test("a missing model is reported with how to install it")
  func missing() {
    #expect(throws: FaceModelError.missing(path: "/nonexistent.dat")) {
      try DlibFaceFinder.load(path: "/nonexistent.dat")
    }
    #expect("\(FaceModelError.missing(path: "/x"))".contains("apt install libdlib-data"))
  }
}

@Suite("Sharpness on a real face")
struct SharpnessTests {
  @Test("motion blur lowers the face's sharpness well below the sharp frame's")
  func blur() {
    let face = PixelBox(x: 179, y: 84, width: 86, height: 86)
    let sharp = GreyImage(TestFaces.astronaut).sharpness(in: face)
    let smeared = TestFaces.blurred(TestFaces.astronaut, length: 9)
    TestFaces.dump(smeared, "astronaut-blurred")
    let blurred = GreyImage(smeared).sharpness(in: face)
    #expect(blurred < sharp * FrameChoice.sharpEnough, "\(sharp) → \(blurred)")
  }

  @Test(
    "a blink, and the box dlib draws a few pixels larger or smaller, keep the face sharp",
    arguments: [
      PixelBox(x: 179, y: 84, width: 86, height: 86),
      PixelBox(x: 183, y: 88, width: 80, height: 80),
    ])
  func notBlurred(shutBox: PixelBox) {
    // NB: the count's reference from the largest box; the frame judged shut, in `shutBox`.
    let open = TestFaces.astronaut.faceSharpness([
      PixelBox(x: 170, y: 76, width: 104, height: 104)
    ])
    let shut = TestFaces.astronautShut.faceSharpness([shutBox])
    #expect(shut >= open * FrameChoice.sharpEnough, "\(open) → \(shut)")
    let smeared = TestFaces.blurred(TestFaces.astronaut, length: 9).faceSharpness([shutBox])
    #expect(smeared < open * FrameChoice.sharpEnough, "\(open) → \(smeared)")
  }
}
