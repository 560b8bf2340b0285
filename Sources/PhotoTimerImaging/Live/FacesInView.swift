import PhotoTimer
import PhotoTimerConcurrency

/// The faces followed in a camera's picture now, for the screens that show it: what the
/// people watcher saw at its last look (``PeopleWatcher``), as marks to outline over the
/// preview.
///
/// A ``LiveCamera`` has one (``LiveCamera/faces``). Whoever follows the people on that
/// camera (the people step during a count, a count that starts itself while framing) shows
/// each look here and clears it when it stops, so no box stays over a picture nobody
/// watches. A screen reads the changes:
///
/// ```swift
/// for try await marks in camera.faces.changes() {
///   context.faces = marks  // drawn over the next preview
/// }
/// ```
public final class FacesInView: Sendable {
  private struct State: Sendable {
    /// The watcher that showed the marks last, if they are still up.
    var shownBy: ObjectIdentifier?
  }

  private let state = Locked(State())
  private let mailbox = Mailbox<[FaceMark]>(capacity: 1)

  /// Nothing shown yet.
  public init() {}

  /// The marks up now: empty when no one follows the people.
  public var marks: [FaceMark] { mailbox.latest ?? [] }

  /// Shows what `watcher` sees now, in place of whatever was up.
  ///
  /// - Parameters:
  ///   - marks: The faces it follows.
  ///   - watcher: Who shows them: only it takes them down.
  public func show(_ marks: [FaceMark], by watcher: AnyObject) {
    let id = ObjectIdentifier(watcher)
    state.withLock { state in
      state.shownBy = id
      mailbox.deliver(marks)
    }
  }

  /// Takes down what `watcher` showed, if its marks are still the ones up (another watcher
  /// that took over keeps its own).
  public func clear(by watcher: AnyObject) {
    let id = ObjectIdentifier(watcher)
    state.withLock { state in
      guard state.shownBy == id else { return }
      state.shownBy = nil
      mailbox.deliver([])
    }
  }

  /// Ends every stream of ``changes()`` (the camera closed).
  func close() {
    mailbox.close()
  }

  /// The marks each time they change: the ones up now first (if any were shown), then each
  /// newer set; a reader slower than the watcher gets the newest. Ends when the camera
  /// closes.
  public func changes() -> Changes { Changes(view: self) }

  /// The changes of a ``FacesInView``.
  public struct Changes: AsyncSequence, Sendable {
    /// A set of marks.
    public typealias Element = [FaceMark]
    let view: FacesInView

    /// Starts at the marks up now.
    public func makeAsyncIterator() -> Iterator { Iterator(view: view) }

    /// Reads the changes.
    public struct Iterator: AsyncIteratorProtocol {
      let view: FacesInView
      var seen = 0

      /// The next set of marks; `nil` once the camera closed.
      ///
      /// - Throws: `CancellationError` when the task is cancelled.
      public mutating func next() async throws -> [FaceMark]? {
        guard let (sequence, marks) = try await view.mailbox.next(after: seen) else { return nil }
        seen = sequence
        return marks
      }
    }
  }
}
