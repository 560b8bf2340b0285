import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerImaging
import PhotoTimerPOSIX

/// Saves photos as JPEG files with EXIF, atomically, never overwriting.
///
/// Each photo is named after its shutter time (`IMG_20261130_141503.jpg`, then
/// `IMG_20261130_141503_2.jpg` on a collision), written to a hidden temporary file in the
/// same folder, flushed to disk, then linked to its name (which fails rather than replace an
/// existing file) and the temporary name removed. A cancel, a full disk or a crash leaves no
/// partial photo; a failed or cancelled save removes its temporary file.
///
/// ```swift
/// let store = PhotoStore(folder: PhotoStore.defaultFolder())
/// let url = try await store.save(frame, metadata: metadata, variant: nil)
/// ```
public struct PhotoStore: PhotoSink {
  /// The folder photos go into.
  public let folder: URL
  /// JPEG quality, 1…100.
  public let quality: Int
  /// Whether a missing folder is created.
  public enum FolderCreation: Sendable {
    /// Never: the folder must exist.
    case never
    /// The folder itself when its parent exists (a folder given with `-o`, as Snapshot and
    /// Cheese do): a mistyped parent is still refused rather than made.
    case whenParentExists
    /// The folder and every missing parent (the default folder, `~/Pictures/phototimer`).
    case withParents
  }

  /// Whether a missing folder is created.
  public let creation: FolderCreation
  private let openTemporary: @Sendable (String) throws(SystemCallError) -> FileDescriptor

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - folder: Where photos go.
  ///   - quality: JPEG quality, 1…100 (default 92).
  ///   - creation: Whether a missing folder is created (by default it must exist).
  public init(folder: URL, quality: Int = 92, creation: FolderCreation = .never) {
    self.init(folder: folder, quality: quality, creation: creation) {
      (path) throws(SystemCallError) in
      try FileDescriptor.open(path, flags: FileSystem.OpenFlags.createNew, mode: 0o644)
    }
  }

  /// Creates a store that creates a missing folder, with its parents, when `createsFolder`
  /// (the form the library guide's example used, which 4c9a6c7 replaced without a word; kept,
  /// deprecated, for one release).
  ///
  /// - Parameters:
  ///   - folder: Where photos go.
  ///   - quality: JPEG quality, 1…100 (default 92).
  ///   - createsFolder: `true` creates a missing folder and its parents (`.withParents`);
  ///     `false` needs it to exist (`.never`).
  @available(
    *, deprecated,
    message: "use init(folder:quality:creation:): createsFolder: true is creation: .withParents"
  )
  public init(folder: URL, quality: Int = 92, createsFolder: Bool) {
    self.init(folder: folder, quality: quality, creation: createsFolder ? .withParents : .never)
  }

  /// Whether a missing folder is created with its parents (the form the library guide's
  /// example used).
  @available(*, deprecated, message: "use creation")
  public var createsFolder: Bool { creation == .withParents }

  /// Creates a store whose temporary files are opened by `openTemporary` (tests use it to
  /// write into `/dev/full`).
  package init(
    folder: URL, quality: Int = 92, creation: FolderCreation = .never,
    openTemporary: @escaping @Sendable (String) throws(SystemCallError) -> FileDescriptor
  ) {
    self.folder = folder.standardizedFileURL
    self.quality = min(max(quality, 1), 100)
    self.creation = creation
    self.openTemporary = openTemporary
  }

  /// The default folder: the XDG Pictures directory plus `phototimer`.
  ///
  /// `XDG_PICTURES_DIR` from the environment, else from `user-dirs.dirs` in
  /// `XDG_CONFIG_HOME` (default `~/.config`), else `~/Pictures`.
  ///
  /// - Parameter environment: The environment to read (default: this process's).
  public static func defaultFolder(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    func expand(_ value: String) -> String {
      var text = value
      if text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 {
        text = String(text.dropFirst().dropLast())
      }
      if text.hasPrefix("$HOME") { text = home + text.dropFirst(5) }
      if text.hasPrefix("~/") { text = home + text.dropFirst(1) }
      while text.count > 1, text.hasSuffix("/") { text.removeLast() }
      return text
    }
    var pictures: String?
    if let value = environment["XDG_PICTURES_DIR"], !value.isEmpty {
      pictures = expand(value)
    } else {
      let config =
        environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? home + "/.config"
      if let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8) {
        for line in text.split(separator: "\n") {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          guard trimmed.hasPrefix("XDG_PICTURES_DIR=") else { continue }
          pictures = expand(String(trimmed.dropFirst("XDG_PICTURES_DIR=".count)))
        }
      }
    }
    // NB: user-dirs.dirs sets a directory to $HOME itself to disable it; fall back then.
    let base = pictures.flatMap { $0.hasPrefix("/") && $0 != home ? $0 : nil } ?? home + "/Pictures"
    return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent(
      "phototimer", isDirectory: true)
  }

  /// The file name for a shot: `IMG_20261130_141503.jpg`, `IMG_20261130_141503_original.jpg`,
  /// with `_2`, `_3`… before the extension on a collision.
  public static func fileName(
    for date: Date, timeZone: TimeZone, variant: String?, collision: Int = 1
  ) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let number = value ?? 0
      return number < 10 ? "0\(number)" : "\(number)"
    }
    var name =
      "IMG_\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))_"
      + "\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    if let variant { name += "_\(variant)" }
    if collision > 1 { name += "_\(collision)" }
    return name + ".jpg"
  }

  /// Encodes and saves one photo (see the type's description for the guarantees).
  public func save(_ frame: Frame, metadata: PhotoMetadata, variant: String?) async throws -> URL {
    let quality = quality
    let bytes: [UInt8]
    do {
      bytes = try await OffPool.run { isCancelled in
        let file = try JPEGFile.make(frame, metadata: metadata, quality: quality)
        if isCancelled() { throw CancellationError() }
        return file
      }
    } catch let error as ImageFileError {
      throw PhotoStoreError.encoding(error)
    }
    try Task.checkCancellation()
    return try await write(
      bytes, date: metadata.date, timeZone: metadata.timeZone, variant: variant)
  }

  /// Saves a finished JPEG file (a camera's own, say) as a new photo, atomically.
  ///
  /// - Parameters:
  ///   - jpeg: The whole file.
  ///   - date: The shutter time, for the name.
  ///   - timeZone: The time zone of the name.
  ///   - variant: A suffix for a second file of the same shot, or `nil`.
  public func save(
    jpeg: [UInt8], date: Date, timeZone: TimeZone, variant: String?
  ) async throws
    -> URL
  {
    try await write(jpeg, date: date, timeZone: timeZone, variant: variant)
  }

  /// Writes `bytes` as a new photo file, atomically.
  func write(
    _ bytes: [UInt8], date: Date, timeZone: TimeZone, variant: String?
  ) async throws
    -> URL
  {
    try prepareFolder()
    let folderPath = folder.path
    let temporary =
      "\(folderPath)/.\(Self.fileName(for: date, timeZone: timeZone, variant: variant))"
      + ".partial-\(FileSystem.processID)-\(UInt32.random(in: 0...UInt32.max))"
    let openTemporary = openTemporary
    // NB: the file system calls block (fsync can take a while): a thread of their own, off
    // the cooperative pool and the CPU executor.
    return try await OffPool.blocking { isCancelled in
      var linked = false
      defer { if !linked { try? FileSystem.unlink(temporary) } }
      do throws(SystemCallError) {
        let descriptor = try openTemporary(temporary)
        defer { descriptor.closeQuietly() }
        try descriptor.writeAll(bytes)
        try descriptor.sync()
        try descriptor.close()
      } catch {
        throw PhotoStoreError.from(error, path: temporary, folder: folderPath)
      }
      if isCancelled() { throw CancellationError() }
      // link() never replaces an existing file: on a collision, try the next suffix.
      for collision in 1...1000 {
        let name = Self.fileName(
          for: date, timeZone: timeZone, variant: variant, collision: collision)
        let target = "\(folderPath)/\(name)"
        do throws(SystemCallError) {
          try FileSystem.link(temporary, target)
          linked = true
          try? FileSystem.unlink(temporary)
          Self.syncFolder(folderPath)
          return URL(fileURLWithPath: target)
        } catch  where error.errno == .fileExists {
          continue
        } catch {
          throw PhotoStoreError.from(error, path: target, folder: folderPath)
        }
      }
      throw PhotoStoreError.system(
        SystemCallError(call: "link", errno: .fileExists), path: folderPath)
    }
  }

  /// Checks, before any counting, that photos can be written: the folder exists (or is
  /// created, for the default folder), is a folder and is writable.
  ///
  /// - Throws: ``PhotoStoreError`` naming the folder and what to do.
  public func checkFolder() throws(PhotoStoreError) {
    try prepareFolder()
  }

  private func prepareFolder() throws(PhotoStoreError) {
    let path = folder.path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw .notAFolder(path: path) }
    } else if creation != .never {
      let parents = creation == .withParents
      let parent = folder.deletingLastPathComponent().path
      guard parents || FileManager.default.fileExists(atPath: parent) else {
        throw .folderMissing(path: path)
      }
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: parents)
      } catch {
        // NB: made meanwhile by someone else is fine; anything else is the folder's fault.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
          isDirectory.boolValue
        else { throw .notWritable(path: path) }
      }
    } else {
      throw .folderMissing(path: path)
    }
    guard FileSystem.canWriteFolder(path) else { throw .notWritable(path: path) }
  }

  /// Flushes the folder's entry for the new name, so the rename survives a power cut.
  private static func syncFolder(_ path: String) {
    guard let descriptor = try? FileDescriptor.open(path, flags: FileSystem.OpenFlags.folder) else {
      return
    }
    try? descriptor.sync()
    descriptor.closeQuietly()
  }
}
