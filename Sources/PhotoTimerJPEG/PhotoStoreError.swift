import PhotoTimerPOSIX

/// A photo that could not be saved, with the path involved.
public enum PhotoStoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The output folder does not exist.
  case folderMissing(path: String)
  /// The output path is not a folder.
  case notAFolder(path: String)
  /// The folder cannot be written to.
  case notWritable(path: String)
  /// The disk (or the user's quota) is full.
  case diskFull(path: String)
  /// Another system call failed, on this path.
  case system(SystemCallError, path: String)
  /// The photo could not be encoded.
  case encoding(ImageFileError)

  /// What failed, where, and what to do.
  public var description: String {
    switch self {
    case .folderMissing(let path):
      "the output folder \(path) does not exist; create it (mkdir -p \(path)) or choose "
        + "another"
    case .notAFolder(let path):
      "the output path \(path) is not a folder; choose a folder"
    case .notWritable(let path):
      "cannot write to the output folder \(path) (permission denied); fix its permissions "
        + "or choose another"
    case .diskFull(let path):
      "no space left to save the photo in \(path); free some space or choose another folder"
    case .system(let error, let path):
      "\(error.call) failed for \(path): \(error.errno) (errno \(error.errno.rawValue))"
    case .encoding(let error):
      error.description
    }
  }

  static func from(_ error: SystemCallError, path: String, folder: String) -> Self {
    switch error.errno {
    case .noSpace, .quotaExceeded: .diskFull(path: folder)
    case .permissionDenied, .notPermitted, .readOnlyFileSystem: .notWritable(path: folder)
    case .noSuchFile: .folderMissing(path: folder)
    case .notADirectory: .notAFolder(path: folder)
    default: .system(error, path: path)
    }
  }
}
