import Foundation

/// The window's settings file, written by one task, one save after another: the file always
/// ends up with the newest settings, and saves asked for faster than the disk takes them
/// collapse into the newest.
@MainActor
final class SettingsStore {
  private let file: URL
  private let saves: AsyncStream<WindowSettings>.Continuation
  private let writer: Task<Void, Never>

  /// Starts the store's writer for `file`.
  init(file: URL) {
    self.file = file
    let (stream, saves) = AsyncStream.makeStream(
      of: WindowSettings.self, bufferingPolicy: .bufferingNewest(1))
    self.saves = saves
    writer = Task.detached(name: "phototimer settings") {
      var reported = false
      for await settings in stream {
        do {
          try settings.save(to: file)
        } catch  where !reported {
          reported = true
          FileHandle.standardError.write(
            Data("note: could not remember the settings in \(file.path): \(error)\n".utf8))
        } catch {}
      }
    }
  }

  /// Remembers `settings` (written soon, after any save before it).
  func save(_ settings: WindowSettings) {
    saves.yield(settings)
  }

  /// Writes what is pending and ends the writer.
  func close() async {
    saves.finish()
    await writer.value
  }
}
