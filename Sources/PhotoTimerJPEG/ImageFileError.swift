/// An image file that cannot be used, with what to do about it.
public enum ImageFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No file at the path.
  case missing(path: String)
  /// The file exists but cannot be read.
  case unreadable(path: String, reason: String)
  /// The file is not a JPEG or PNG image.
  case notAnImage(path: String)
  /// The image is damaged or cut short.
  case damaged(path: String, reason: String)
  /// The image has no pixels.
  case empty(path: String)
  /// The image is too large to handle.
  case tooLarge(path: String, width: Int, height: Int, limit: Int)
  /// The encoder failed.
  case encodeFailed(reason: String)

  /// What is wrong, with the path and what to do.
  public var description: String {
    switch self {
    case .missing(let path):
      "no image file at \(path); check the path"
    case .unreadable(let path, let reason):
      "cannot read \(path): \(reason); check its permissions"
    case .notAnImage(let path):
      "\(path) is not a JPEG or PNG image; give a .jpg or .png file"
    case .damaged(let path, let reason):
      "\(path) is damaged or cut short (\(reason)); use an intact copy"
    case .empty(let path):
      "\(path) has no pixels (0 × 0); use a real photo"
    case .tooLarge(let path, let width, let height, let limit):
      "\(path) is \(width) × \(height) pixels, more than the \(limit / 1_000_000) megapixels "
        + "phototimer handles; scale it down first"
    case .encodeFailed(let reason):
      "could not encode the photo as JPEG: \(reason)"
    }
  }
}
