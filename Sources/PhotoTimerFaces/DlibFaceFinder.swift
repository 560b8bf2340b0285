import CDlibFaces
import Foundation
import PhotoTimerConcurrency
import PhotoTimerImaging

/// Why the face model could not be had.
public enum FaceModelError: Error, Equatable, CustomStringConvertible {
  /// The model file is not installed.
  case missing(path: String)
  /// The file is there but dlib could not read it.
  case unreadable(path: String, reason: String)
  /// dlib failed on an image.
  case failed(String)

  /// What went wrong and what to do.
  public var description: String {
    switch self {
    case .missing(let path):
      "the face model is not installed (\(path)); install it with: sudo apt install libdlib-data"
    case .unreadable(let path, let reason):
      "the face model \(path) could not be read: \(reason); reinstall libdlib-data"
    case .failed(let what): "face detection failed: \(what)"
    }
  }
}

/// dlib's HOG frontal-face detector (compiled into the library) and its 68-point landmark
/// model (Debian's `libdlib-data`), as a `FaceFinder`.
///
/// Loading the model reads 100 MB (about 0.6 s warm, 2.6 s from a cold disk): do it once per
/// process, off the cooperative pool (``load(path:)`` blocks). The detector serves one image
/// at a time; the model is shared.
public final class DlibFaceFinder: FaceFinder, @unchecked Sendable {
  /// Where Debian's `libdlib-data` puts the model.
  public static let standardModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

  // NB: the model is only read after loading (dlib's shape_predictor is const to use); the
  // detector is used under `detecting` only.
  private let model: OpaquePointer
  private let detector: OpaquePointer
  private let detecting = Locked(())

  private init(model: OpaquePointer, detector: OpaquePointer) {
    self.model = model
    self.detector = detector
  }

  deinit {
    ptfaces_model_free(model)
    ptfaces_detector_free(detector)
  }

  /// Loads the model at `path` (blocking: call it off the cooperative pool).
  ///
  /// - Throws: ``FaceModelError/missing(path:)`` when there is no file,
  ///   ``FaceModelError/unreadable(path:reason:)`` when dlib cannot read it.
  public static func load(path: String = standardModelPath) throws -> DlibFaceFinder {
    guard FileManager.default.fileExists(atPath: path) else {
      throw FaceModelError.missing(path: path)
    }
    var error = [CChar](repeating: 0, count: 512)
    guard let model = ptfaces_model_load(path, &error, error.count) else {
      let reason = String(
        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw FaceModelError.unreadable(path: path, reason: reason)
    }
    guard let detector = ptfaces_detector_new() else {
      ptfaces_model_free(model)
      throw FaceModelError.failed("the detector could not be made")
    }
    return DlibFaceFinder(model: model, detector: detector)
  }

  /// The detector's window: 80 pixels.
  public var smallestFace: Int { Int(ptfaces_detector_window()) }

  /// The faces dlib's detector finds in `image` (at most 32).
  public func faces(in image: GreyImage) throws -> [PixelBox] {
    try faces(in: image, margin: 0)
  }

  /// The faces dlib's detector finds in `image` with a score at least `margin` over its
  /// threshold (at most 32).
  public func faces(in image: GreyImage, margin: Double) throws -> [PixelBox] {
    var boxes = [ptfaces_box](repeating: ptfaces_box(), count: 32)
    let found = detecting.withLock { _ in
      image.pixels.withUnsafeBufferPointer { pixels in
        ptfaces_detect(
          detector, pixels.baseAddress, Int32(image.width), Int32(image.height),
          Int32(image.width), margin, &boxes, Int32(boxes.count))
      }
    }
    guard found >= 0 else { throw FaceModelError.failed("the detector stopped") }
    return boxes.prefix(Int(min(found, 32))).map {
      PixelBox(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
    }
  }

  /// The 68 landmarks the model places on the face in `box`.
  public func landmarks(in image: GreyImage, of box: PixelBox) throws -> [FacePoint] {
    var points = [Float](repeating: 0, count: 136)
    let rect = ptfaces_box(
      x: Float(box.x), y: Float(box.y), width: Float(box.width), height: Float(box.height),
      score: 0)
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      ptfaces_landmarks(
        model, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
        rect, &points)
    }
    guard status == 0 else { throw FaceModelError.failed("the landmarks could not be placed") }
    return (0..<68).map { FacePoint(x: Double(points[2 * $0]), y: Double(points[2 * $0 + 1])) }
  }
}
