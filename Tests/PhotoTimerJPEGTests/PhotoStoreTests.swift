import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerJPEG

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Saving photos atomically", .serialized)
struct PhotoStoreTests {
  @Test("Names follow the shutter time; a collision gets a suffix, never an overwrite")
  func namesAndCollisions() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let store = PhotoStore(folder: folder.url)
    let metadata = testMetadata()
    let first = try await store.save(gradient(), metadata: metadata, variant: nil)
    let second = try await store.save(gradient(), metadata: metadata, variant: nil)
    let original = try await store.save(gradient(), metadata: metadata, variant: "original")
    #expect(first.lastPathComponent == "IMG_20261130_141503.jpg")
    #expect(second.lastPathComponent == "IMG_20261130_141503_2.jpg")
    #expect(original.lastPathComponent == "IMG_20261130_141503_original.jpg")
    // Nothing else: no temporary files left behind.
    #expect(
      try folder.contents() == [
        "IMG_20261130_141503.jpg", "IMG_20261130_141503_2.jpg",
        "IMG_20261130_141503_original.jpg",
      ])
    let bytes = try [UInt8](Data(contentsOf: first))
    #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF, 0xE1]))
    #expect(bytes.suffix(2) == [0xFF, 0xD9])
  }

  @Test("A full disk: a clear error, and no file at all, partial or temporary")
  func diskFull() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    // /dev/full stands in for the temporary file: every write fails with ENOSPC.
    let store = PhotoStore(folder: folder.url) { (_) throws(SystemCallError) in
      try FileDescriptor.open("/dev/full", flags: O_WRONLY)
    }
    await #expect {
      _ = try await store.save(gradient(), metadata: testMetadata(), variant: nil)
    } throws: { error in
      (error as? PhotoStoreError) == .diskFull(path: folder.path)
    }
    #expect(try folder.contents().isEmpty)
    #expect(
      PhotoStoreError.diskFull(path: "/media/card").description
        == "no space left to save the photo in /media/card; free some space or choose another "
        + "folder")
  }

  @Test("A folder that is missing, not a folder, or not writable is named, with what to do")
  func badFolders() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let file = folder.path + "/a-file"
    #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
    let cases: [(String, PhotoStoreError)] = [
      (folder.path + "/missing", .folderMissing(path: folder.path + "/missing")),
      (file, .notAFolder(path: file)),
      // sysfs refuses new files even to root.
      ("/sys/kernel", .notWritable(path: "/sys/kernel")),
    ]
    for (path, expected) in cases {
      let store = PhotoStore(folder: URL(fileURLWithPath: path))
      await #expect {
        _ = try await store.save(gradient(), metadata: testMetadata(), variant: nil)
      } throws: { error in
        (error as? PhotoStoreError) == expected
      }
    }
    #expect(
      PhotoStoreError.folderMissing(path: "/x/photos").description
        == "the output folder /x/photos does not exist; create it (mkdir -p /x/photos) or "
        + "choose another")
    #expect(try folder.contents() == ["a-file"])
  }

  @Test("The default folder is created with its parents when missing")
  func createsDefaultFolder() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let nested = folder.url.appendingPathComponent("Pictures/phototimer")
    let store = PhotoStore(folder: nested, creation: .withParents)
    try store.checkFolder()
    let file = try await store.save(gradient(), metadata: testMetadata(), variant: nil)
    #expect(FileManager.default.fileExists(atPath: file.path))
  }

  @Test(
    "The guide's PhotoStore(folder:createsFolder:) still builds, deprecated, and means what it meant"
  )
  @available(*, deprecated, message: "calls the deprecated form on purpose")
  func createsFolderOfTheGuide() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let nested = folder.url.appendingPathComponent("Pictures/phototimer")
    let store = PhotoStore(folder: nested, createsFolder: true)
    #expect(store.creation == .withParents)
    #expect(store.createsFolder)
    try store.checkFolder()
    #expect(FileManager.default.fileExists(atPath: nested.path))
    #expect(PhotoStore(folder: nested, createsFolder: false).creation == .never)
  }

  @Test("A folder given by the user is created when its parent exists, refused when not")
  func createsGivenFolder() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let given = folder.url.appendingPathComponent("party")
    try PhotoStore(folder: given, creation: .whenParentExists).checkFolder()
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: given.path, isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
    // Twice is fine: it exists now.
    try PhotoStore(folder: given, creation: .whenParentExists).checkFolder()
    let mistyped = folder.url.appendingPathComponent("typo/party")
    #expect(throws: PhotoStoreError.folderMissing(path: mistyped.path)) {
      try PhotoStore(folder: mistyped, creation: .whenParentExists).checkFolder()
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/typo"))
  }

  @Test("A cancelled save leaves nothing behind")
  func cancelled() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let store = PhotoStore(folder: folder.url)
    let big = gradient(width: 2000, height: 1500)
    let task = Task { try await store.save(big, metadata: testMetadata(), variant: nil) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try folder.contents().isEmpty)
  }

  @Test(
    "The default folder follows XDG: the variable, then user-dirs.dirs, then ~/Pictures",
    arguments: [
      (["HOME": "/home/ana", "XDG_PICTURES_DIR": "/data/Fotos"], nil, "/data/Fotos/phototimer"),
      (
        ["HOME": "/home/ana"], "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n",
        "/home/ana/Bilder/phototimer"
      ),
      (["HOME": "/home/ana"], "XDG_PICTURES_DIR=\"$HOME/\"\n", "/home/ana/Pictures/phototimer"),
      (["HOME": "/home/ana"], nil, "/home/ana/Pictures/phototimer"),
    ] as [([String: String], String?, String)])
  func xdg(environment: [String: String], userDirs: String?, expected: String) throws {
    let config = try TemporaryFolder()
    defer { config.cleanUp() }
    var environment = environment
    environment["XDG_CONFIG_HOME"] = config.path
    if let userDirs {
      try userDirs.write(toFile: config.path + "/user-dirs.dirs", atomically: true, encoding: .utf8)
    }
    #expect(PhotoStore.defaultFolder(environment: environment).path == expected)
  }
}
