import Foundation
import PhotoTimer
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerGPhoto2

#if canImport(Glibc)
  import Glibc
#endif

/// A stand-in for the gphoto2 tool: a shell script with the given body, run through
/// `/bin/sh`. No camera exists here, so the camera's side is played by scripts that print
/// what gphoto2 prints.
///
/// NB: run through `/bin/sh`, not executed itself: a freshly written script can be "text file
/// busy" for seconds when a child another test spawned meanwhile inherited its write handle.
private struct FakeGPhoto2 {
  let path: String

  init(_ body: String) throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "fake-gphoto2-\(UUID().uuidString).sh"
      ).path
    try "\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }

  /// The camera, driven by this stand-in.
  func camera(store: PhotoStore? = nil) -> GPhoto2Camera<ContinuousClock> {
    GPhoto2Camera(executable: path, launcher: ["/bin/sh"], store: store, clock: ContinuousClock())
  }
}

/// A "camera" JPEG: pixels with the camera's own EXIF (Make, Model, exposure).
private func cameraJPEG() throws -> [UInt8] {
  var frame = Frame(width: 64, height: 48)
  for y in 0..<48 {
    for x in 0..<64 { frame[x, y] = RGB(red: UInt8(x * 4), green: 90, blue: UInt8(y * 5)) }
  }
  let metadata = PhotoMetadata(
    make: "Canon", model: "Canon EOS 80D", software: "Firmware Version 1.0.3",
    date: Date(timeIntervalSince1970: 1_796_040_000),
    settings: ExposureProgram.standard.settings(forSceneEV: 13),
    filter: .natural, location: nil)
  return try JPEGFile.make(frame, metadata: metadata)
}

private let autoDetectOutput = """
  Model                          Port
  ----------------------------------------------------------
  Canon EOS 80D                  usb:001,005
  """

/// A stand-in camera that shoots the JPEG at `source`: --auto-detect prints the table,
/// --capture-image-and-download copies the file to the --filename pattern with %C as jpg,
/// --capture-preview is not supported.
private func capturingStandIn(handingOver source: String) throws -> FakeGPhoto2 {
  try FakeGPhoto2(
    """
    case "$1" in
      --auto-detect) cat <<'EOF'
    \(autoDetectOutput)
    EOF
      ;;
      --capture-preview) echo "*** Error (-6: 'Unsupported operation') ***"; exit 1 ;;
      --capture-image-and-download) target=$(echo "$3" | sed 's/%C/jpg/'); cp "\(source)" "$target" ;;
    esac
    """)
}

@Suite("DSLRs through gphoto2 (stand-ins for the camera)", .serialized, .timeLimit(.minutes(1)))
struct GPhoto2CameraTests {
  @Test("Detection reads gphoto2's table; no camera is an empty list")
  func detection() async throws {
    let fake = try FakeGPhoto2("cat <<'EOF'\n\(autoDetectOutput)\nEOF")
    defer { fake.remove() }
    let cameras = try await fake.camera().detect()
    #expect(cameras == [DetectedCamera(model: "Canon EOS 80D", port: "usb:001,005")])
    // The real tool, with no camera attached.
    let none = try await GPhoto2Camera(store: nil, clock: ContinuousClock()).detect()
    #expect(none.isEmpty)
  }

  @Test(
    "Well-known failures become plain advice",
    arguments: [
      ("*** Error (-53: 'Could not claim the USB device') ***", GPhoto2Error.cameraClaimed(by: [])),
      ("*** Error (-110: 'PTP Device Busy') ***", .busy),
      ("*** Error ***\nCould not detect any camera", .noCamera),
      ("*** Error (-7: 'I/O problem') ***", .failed("*** Error (-7: 'I/O problem') ***")),
      (
        "*** Error (-6: 'Unsupported operation') ***",
        .unsupported("*** Error (-6: 'Unsupported operation') ***")
      ),
    ])
  func failures(output: String, expected: GPhoto2Error) async throws {
    let fake = try FakeGPhoto2("cat <<'EOF'\n\(output)\nEOF\nexit 1")
    defer { fake.remove() }
    await #expect(throws: expected) {
      _ = try await fake.camera()
        .detect()
    }
    #expect(GPhoto2Error.cameraClaimed(by: []).description.contains("gio mount -s gphoto2"))
  }

  @Test("gphoto2 missing: how to install it")
  func notInstalled() async {
    await #expect(throws: GPhoto2Error.notInstalled) {
      _ = try await GPhoto2Camera(
        executable: "/nonexistent/gphoto2", store: nil, clock: ContinuousClock()
      )
      .detect()
    }
  }

  @Test("The camera's JPEG is kept byte for byte in its image data, with its EXIF and ours")
  func captureKeepsCameraJPEG() async throws {
    let original = try cameraJPEG()
    let source = FileManager.default.temporaryDirectory.appendingPathComponent(
      "camera-\(UUID().uuidString).jpg"
    ).path
    try Data(original).write(to: URL(fileURLWithPath: source))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-gphoto2-out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer {
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(atPath: source)
    }
    let fake = try capturingStandIn(handingOver: source)
    defer { fake.remove() }
    let camera = fake.camera(store: PhotoStore(folder: folder))
    let location = LocationTag(
      name: "Sydney", coordinate: Coordinate(latitude: -33.8568, longitude: 151.2153, altitude: 58))
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0),
      services: camera.services(location: Preparation(isRequired: false) { location }),
      clock: ContinuousClock())
    guard case .captured(let photo) = await engine.run(onEvent: { _ in }) else {
      Issue.record("expected a photo")
      return
    }
    // Reported with the exposure the camera recorded (EV 13 here), not the estimate made
    // without a preview (EV 10).
    #expect(
      photo.settings.description == ExposureProgram.standard.settings(forSceneEV: 13).description)
    #expect(photo.settings != ExposureProgram.standard.settings(forSceneEV: 10))
    #expect(photo.settingsNote == nil)
    let file = try #require(photo.file)
    let saved = try [UInt8](Data(contentsOf: file))
    // Everything after the EXIF segment (the image itself) is unchanged: no re-encoding.
    let originalSegment = try #require(ExifBlock.exifSegment(in: original) as Range<Int>?)
    let savedSegment = try #require(ExifBlock.exifSegment(in: saved) as Range<Int>?)
    #expect(
      saved[savedSegment.upperBound...].elementsEqual(original[originalSegment.upperBound...]))
    // The camera's own tags stay; ours are added.
    let data = Data(
      try await ChildProcess.run(["exiftool", "-j", "-n", file.path]).standardOutput.utf8)
    let tags = try #require(
      (try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first)
    #expect(tags["Make"] as? String == "Canon")
    #expect(tags["Model"] as? String == "Canon EOS 80D")
    #expect(tags["ISO"] as? Int == 100)
    #expect(tags["Software"] as? String == "phototimer \(PhotoTimerVersion.current)")
    #expect((tags["ImageDescription"] as? String)?.hasSuffix("look, Sydney") == true)
    #expect(tags["GPSLatitudeRef"] as? String == "S")
    #expect(abs((tags["GPSLongitude"] as? Double ?? 0) - 151.2153) < 1e-6)
  }

  @Test("Cancelling stops gphoto2 at once and reaps it")
  func cancel() async throws {
    let fake = try FakeGPhoto2("exec sleep 30")
    defer { fake.remove() }
    let camera = fake.camera()
    let task = Task { try await camera.detect() }
    // NB: waits for the stand-in itself (our child `sleep`), not for a time.
    let deadline = ContinuousClock.now + .seconds(20)
    while Self.sleepingChildren().isEmpty, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(!Self.sleepingChildren().isEmpty)
    let start = ContinuousClock.now
    task.cancel()
    await #expect(throws: CancellationError.self) { _ = try await task.value }
    // "At once": the stand-in would take 30 s; stopped, it takes the signal's time, and the
    // bound leaves room for a loaded or sanitised build.
    #expect(start.duration(to: .now) < .seconds(10))
    #expect(Self.sleepingChildren().isEmpty)
  }

  /// Our children called `sleep`: the stand-in's.
  private static func sleepingChildren() -> [ProcessEntry] {
    ProcessTable.children(of: getpid(), named: "sleep")
  }

  @Test("A camera JPEG without exposure tags: the camera's own, no numbers invented, and says so")
  func noRecordedExposure() async throws {
    var frame = Frame(width: 32, height: 24)
    for y in 0..<24 { for x in 0..<32 { frame[x, y] = RGB(red: 200, green: 120, blue: 40) } }
    let source = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bare-\(UUID().uuidString).jpg"
    ).path
    try Data(try JPEGCodec.encode(frame)).write(to: URL(fileURLWithPath: source))
    defer { try? FileManager.default.removeItem(atPath: source) }
    let fake = try capturingStandIn(handingOver: source)
    defer { fake.remove() }
    let engine = PhotoTimerEngine(
      configuration: PhotoTimerConfiguration(countdownSeconds: 0),
      services: fake.camera().services(location: .disabled(reason: "off")),
      clock: ContinuousClock())
    guard case .captured(let photo) = await engine.run(onEvent: { _ in }) else {
      Issue.record("expected a photo")
      return
    }
    #expect(photo.settings.isCameraOwn)
    #expect(photo.settings.aperture == nil && photo.settings.shutterSpeed == nil)
    #expect(photo.settings.iso == nil)
    #expect(photo.settings.description == "exposure: the camera's own")
    #expect(photo.settingsNote?.contains("recorded no exposure") == true)
  }
}

@Suite("Settings a camera recorded")
struct RecordedSettingsTests {
  @Test(
    "Named as cameras show them",
    arguments: [
      (9.0, 0.005, 200, "f/9 · 1/200s · ISO 200"), (5.6, 2.0, 100, "f/5.6 · 2s · ISO 100"),
      (2.8, 1.0 / 60, 400, "f/2.8 · 1/60s · ISO 400"), (11.0, 0.5, 100, "f/11 · 0.5s · ISO 100"),
      (1.8, 1.0 / 4000, 3200, "f/1.8 · 1/4000s · ISO 3200"),
    ])
  func names(fNumber: Double, time: Double, iso: Int, expected: String) {
    let settings = CameraSettings.recorded(fNumber: fNumber, exposureTime: time, iso: iso)
    #expect(settings.description == expected)
    #expect(settings.fNumber == fNumber && settings.exposureTime == time)
  }
}
