import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import Testing

@Suite("The faces outlined over the preview")
struct FaceMarksTests {
  private let green = RGB(red: 51, green: 209, blue: 122)
  private let amber = RGB(red: 255, green: 176, blue: 0)
  private let black = RGB(grey: 0)

  @Test("a mark is clipped to the frame, and mirrored left to right")
  func marks() {
    let mark = FaceMark(x: -0.1, y: 0.9, width: 0.3, height: 0.2, eyes: .open)
    #expect(mark.x == 0)
    #expect(abs(mark.width - 0.2) < 1e-9)
    #expect(abs(mark.height - 0.1) < 1e-9)
    let mirrored = FaceMark(x: 0.1, y: 0.2, width: 0.3, height: 0.4, eyes: .closed).mirrored()
    #expect(abs(mirrored.x - 0.6) < 1e-9)
    #expect(mirrored.y == 0.2 && mirrored.eyes == .closed)
    #expect(FaceMark.Eyes.open.cssColour == "rgb(51, 209, 122)")
  }

  @Test("an outline on the box's edge, inside it, nothing in the middle or outside")
  func outline() {
    var frame = Frame(width: 100, height: 60)
    FaceOutline.draw(
      [FaceMark(x: 0.2, y: 0.25, width: 0.3, height: 0.5, eyes: .open)], mirrored: false,
      on: &frame)
    // The box covers columns 20…49 and rows 15…44.
    #expect(frame[20, 30] == green && frame[49, 30] == green)
    #expect(frame[30, 15] == green && frame[30, 44] == green)
    #expect(frame[30, 30] == black, "the face itself stays visible")
    #expect(frame[19, 30] == black && frame[50, 30] == black)
    #expect(frame[30, 14] == black && frame[30, 45] == black)
  }

  @Test("mirrored with the preview; amber for a blink")
  func mirroredBlink() {
    var frame = Frame(width: 100, height: 60)
    FaceOutline.draw(
      [FaceMark(x: 0.2, y: 0.25, width: 0.3, height: 0.5, eyes: .closed)], mirrored: true,
      on: &frame)
    // Mirrored, the box covers columns 50…79.
    #expect(frame[50, 30] == amber && frame[79, 30] == amber)
    #expect(frame[20, 30] == black && frame[49, 30] == black)
  }

  @Test("lines grow with the picture: 1 pixel on a terminal's preview, 3 on a window's")
  func thickness() {
    #expect(FaceOutline.thickness(width: 118, height: 52) == 1)
    #expect(FaceOutline.thickness(width: 1280, height: 720) == 3)
    var frame = Frame(width: 1280, height: 720)
    FaceOutline.draw(
      [FaceMark(x: 0.5, y: 0.5, width: 0.1, height: 0.2, eyes: .open)], mirrored: false,
      on: &frame)
    #expect(frame[640, 400] == green && frame[642, 400] == green && frame[643, 400] == black)
  }

  @Test("a face at the frame's edge keeps its four sides; a box too small to draw is skipped")
  func edges() {
    var frame = Frame(width: 40, height: 20)
    FaceOutline.draw(
      [
        FaceMark(x: 0.75, y: 0.5, width: 0.5, height: 0.8, eyes: .open),
        FaceMark(x: 0.1, y: 0.1, width: 0.01, height: 0.01, eyes: .open),
      ], mirrored: false, on: &frame)
    #expect(frame[39, 15] == green, "the right side, at the frame's last column")
    #expect(frame[35, 19] == green, "the bottom side, at the frame's last row")
    #expect(frame[4, 2] == black)
  }
}

@Suite("Faces in view: what the watcher shows the screens")
struct FacesInViewTests {
  private final class Owner {}

  @Test("the screens read each change; only the watcher that showed the marks takes them down")
  func owners() async throws {
    let view = FacesInView()
    let first = Owner()
    let second = Owner()
    let mark = FaceMark(x: 0.1, y: 0.1, width: 0.2, height: 0.2, eyes: .open)
    var changes = view.changes().makeAsyncIterator()
    view.show([mark], by: first)
    #expect(try await changes.next() == [mark])
    view.show([mark, mark], by: second)
    view.clear(by: first)
    #expect(view.marks == [mark, mark], "the second watcher's marks stay")
    view.clear(by: second)
    #expect(view.marks.isEmpty)
    #expect(try await changes.next() == [])
  }

  @Test("closing the camera ends the screens' reading")
  func closed() async throws {
    let camera = LiveCamera(SceneCamera(clock: ContinuousClock()))
    var changes = camera.faces.changes().makeAsyncIterator()
    await camera.close()
    #expect(try await changes.next() == nil)
  }

  @Test("the watcher shows each look's people where they are, and takes them down when it ends")
  func watcher() async throws {
    let view = FacesInView()
    let a = PixelBox(x: 64, y: 36, width: 96, height: 90)
    let frames = [0, 300, 600].map {
      frame(width: 640, height: 360, squares: [a], timestamp: .milliseconds($0))
    }
    let (stream, input) = AsyncStream.makeStream(of: Frame.self)
    for frame in frames { input.yield(frame) }
    input.finish()
    let seen = Locked<[[FaceMark]]>([])
    let watcher = PeopleWatcher(search: FaceSearch(finder: SquareFinder()), shown: view)
    _ = try await watcher.watch(stream) { _ in seen.withLock { $0.append(view.marks) } }
    let marks = try #require(seen.withLock { $0.first })
    let mark = try #require(marks.first)
    #expect(marks.count == 1)
    #expect(abs(mark.x - 0.1) < 0.01 && abs(mark.y - 0.1) < 0.01, "\(mark)")
    #expect(abs(mark.width - 0.15) < 0.01 && abs(mark.height - 0.25) < 0.01, "\(mark)")
    #expect(mark.eyes == .open)
    #expect(view.marks.isEmpty, "no box stays up once no one watches")
  }
}
