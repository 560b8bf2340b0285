/// The window's own tasks (finding the cameras, decoding a photo, turning the remote on): each
/// is kept only while it runs, and all of them end with the window.
///
/// A task removes itself when it finishes, so the set holds what is running now, not every
/// task the window ever started.
@MainActor
final class Chores {
  private var running: [Int: Task<Void, Never>] = [:]
  private var next = 0

  /// How many run now.
  var count: Int { running.count }

  /// Starts `work` on the main actor and keeps it until it ends.
  func start(_ work: @escaping @MainActor () async -> Void) {
    let id = next
    next += 1
    running[id] = Task { [weak self] in
      await work()
      self?.running[id] = nil
    }
  }

  /// Cancels every task and waits until each has ended.
  func end() async {
    let tasks = Array(running.values)
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    running = [:]
  }
}
