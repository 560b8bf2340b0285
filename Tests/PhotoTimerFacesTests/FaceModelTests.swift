import Foundation
import PhotoTimerFaces
import Testing

/// dlib's model read once per process, and read again after a reading that failed: a booth
/// left running picks the model up once it is installed.
@Suite("The face model: read once, and again once it is installed")
struct FaceModelTests {
  @Test("Missing: each ask says so; installed meanwhile: the next ask reads it, once")
  func installedLater() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-model-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("shape_predictor_68_face_landmarks.dat").path
    let model = FaceModel(path: path)
    #expect(!model.isInstalled)
    for _ in 0..<2 {
      do {
        _ = try await model.finder()
        Issue.record("a model that is not there was read")
      } catch {
        #expect("\(error)".contains(path), "\(error)")
      }
    }
    // Installed (the real model, linked in its place).
    try FileManager.default.createSymbolicLink(
      atPath: path, withDestinationPath: DlibFaceFinder.standardModelPath)
    let finder = try await model.finder()
    let again = try await model.finder()
    #expect(finder === again, "read once, then kept")
  }
}
