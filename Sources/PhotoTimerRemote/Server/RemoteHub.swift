import Foundation
import PhotoTimer

/// Where the program and the remote's connections meet: the newest preview, the events, the
/// photos, and the intents on their way to the program.
///
/// The program (on its own tasks) publishes into the hub; each connection's thread waits in
/// it for something newer than what it sent last: the newest preview only (a slow phone gets
/// fewer frames, never older ones, and never holds up another viewer, the screen or the
/// shutter), and the events after its last one. Every wait ends at once when the hub closes.
///
/// ```swift
/// let hub = RemoteHub(camera: "webcam /dev/video0", mirrored: true, seconds: 5)
/// hub.publish(presentation)                       // each change of the screen
/// for await command in hub.intents { … command.reply(.accepted) }
/// ```
public final class RemoteHub: Sendable {
  /// One encoded preview.
  package struct Preview: Sendable {
    /// Its number: each is newer than the one before.
    package var sequence: Int
    /// The JPEG.
    package var jpeg: [UInt8]
    /// Its size.
    package var width: Int
    package var height: Int
    /// When the camera took it, on the monotonic clock (the page's latency stamp).
    package var captured: ContinuousClock.Instant
  }

  /// One event for the event streams.
  package struct Event: Sendable {
    /// Its number: the stream's `id:`.
    package var id: Int
    /// Its name (`presentation`, `photo`, `bye`), or `nil` for a `--json` event line.
    package var name: String?
    /// Its JSON.
    package var data: String
  }

  /// A photo served by number.
  package struct Photo: Sendable {
    package var id: Int
    package var path: String
    /// The photo's summary as JSON (for the list and the page).
    package var json: String
  }

  /// A booth session published for its guests: its collage and its shots, by photo number.
  package struct GuestSession: Sendable, Equatable {
    /// The session's number (the booth's).
    package var number: Int
    /// The collage's photo number.
    package var collage: Int
    /// The kept shots' photo numbers, in order.
    package var shots: [Int]
    /// When it was published.
    package var date: Date
    /// The guests' link to it (the QR code's), when the server has guest links.
    package var link: String?
  }

  /// An intent from a remote, with the way to answer it.
  public struct Command: Sendable {
    /// What the remote asks.
    public let intent: RemoteIntent
    fileprivate let box: ReplyBox

    /// Performs the intent with `perform` and sends its answer to the remote, unless the
    /// remote stopped waiting (it was told the program did not answer in time): then the
    /// intent is dropped, never done behind its back.
    public func answer(_ perform: (RemoteIntent) -> RemoteReply) {
      guard box.claim() else { return }
      box.fulfil(perform(intent))
    }
  }

  struct State {
    var preview: Preview?
    var events: [Event] = []
    var nextEvent = 1
    var presentation = "null"
    var photos: [Photo] = []
    var sessions: [GuestSession] = []
    var guestTitle = "Photos"
    var viewers = 0
    var streams = 0
    var previews = 0
    var previewBytes = 0
    var closed = false
    /// Tasks waiting for a viewer or an event stream, each with what it waits for.
    var demand: [(kind: Demand, continuation: CheckedContinuation<Void, Never>)] = []

    /// Whether what `kind` waits for is there now.
    func has(_ kind: Demand) -> Bool {
      switch kind {
      case .viewers: viewers > 0
      case .streams: streams > 0
      }
    }
  }

  /// What a task can wait for: someone to watch, or an event stream to open.
  enum Demand {
    case viewers
    case streams
  }

  /// The viewers of the preview served at once; more are told the camera is busy.
  public static let maximumViewers = 16
  /// The event streams served at once.
  public static let maximumStreams = 32
  /// The events kept for a stream that fell behind.
  static let keptEvents = 256

  /// What the camera is called on the page.
  public let camera: String
  /// Whether the page mirrors the preview (a webcam's, as the screen does).
  public let mirrored: Bool
  /// The count's length the page offers first.
  public let seconds: Int
  /// The intents from every remote, in the order they came; ends when the hub closes.
  public let intents: AsyncStream<Command>
  private let intentsInput: AsyncStream<Command>.Continuation
  // NB: @unchecked Sendable is not needed: NSCondition is Sendable, and `state` is reached
  // only with it locked (see `locked`).
  private let condition = NSCondition()
  private nonisolated(unsafe) var state = State()

  /// Creates a hub.
  ///
  /// - Parameters:
  ///   - camera: What the camera is called on the page.
  ///   - mirrored: Whether the page mirrors the preview.
  ///   - seconds: The count's length the page offers first.
  public init(camera: String, mirrored: Bool, seconds: Int = 5) {
    // NB: a phone shows it, so never an address's user or password.
    self.camera = CameraAddress.redacted(camera)
    self.mirrored = mirrored
    self.seconds = seconds
    (intents, intentsInput) = AsyncStream.makeStream(of: Command.self)
  }

  /// Runs `body` on the state with the lock held.
  ///
  /// NB: never wait on the condition inside `body`: the wait lets other threads change the
  /// state while `body`'s exclusive access to it lasts, and the optimizer may keep what it
  /// read before the wait (a release build crashed on a stale array). The waits below lock,
  /// read the state afresh on each turn and wait between reads.
  func locked<Result>(_ body: (inout State) -> Result) -> Result {
    condition.lock()
    defer { condition.unlock() }
    return body(&state)
  }

  // MARK: The program's side

  /// Publishes what the screen shows now; streams get it as a `presentation` event when it
  /// changed.
  public func publish(_ presentation: PhotoTimerPresentation) {
    let json = presentation.remoteJSON
    locked { state in
      guard state.presentation != json else { return }
      state.presentation = json
      append(&state, name: "presentation", data: json)
    }
  }

  /// Publishes one `--json` event line to the event streams.
  public func publish(eventLine: String) {
    locked { append(&$0, name: nil, data: eventLine) }
  }

  /// Publishes a preview (newest wins).
  ///
  /// - Parameters:
  ///   - jpeg: The encoded picture.
  ///   - width: Its width.
  ///   - height: Its height.
  ///   - captured: When the camera took it.
  public func publish(jpeg: [UInt8], width: Int, height: Int, captured: ContinuousClock.Instant) {
    locked { state in
      let next = (state.preview?.sequence ?? 0) + 1
      state.preview = Preview(
        sequence: next, jpeg: jpeg, width: width, height: height, captured: captured)
      state.previews += 1
      state.previewBytes += jpeg.count
      condition.broadcast()
    }
  }

  /// Adds a photo the program saved; returns its number on the remote.
  ///
  /// - Parameters:
  ///   - path: The saved file.
  ///   - summary: What the page shows beside it.
  @discardableResult
  public func addPhoto(path: String, summary: [PhotoTimerPresentation.SummaryRow]) -> Int {
    locked { state in
      let id = (state.photos.last?.id ?? 0) + 1
      var object = JSONObject()
      object.add("id", id)
      object.add("name", (path as NSString).lastPathComponent)
      object.add("url", "/api/photos/\(id)")
      object.addRaw("summary", PhotoTimerPresentation.remoteJSON(summary))
      let photo = Photo(id: id, path: path, json: object.text)
      state.photos.append(photo)
      append(&state, name: "photo", data: photo.json)
      return id
    }
  }

  /// Whether an event stream is open now.
  package var hasStreams: Bool { locked { $0.streams > 0 } }

  /// How many previews were published, and their bytes in all.
  package var previewTotals: (count: Int, bytes: Int) {
    locked { ($0.previews, $0.previewBytes) }
  }

  /// The viewers watching the preview now.
  package var viewerCount: Int { locked { $0.viewers } }

  /// Whether a viewer watches the preview now.
  public var hasViewers: Bool { locked { $0.viewers > 0 } }

  /// Returns once a viewer watches the preview (at once when one does), or when the task is
  /// cancelled or the hub closes: the program encodes previews only while someone watches.
  public func waitForViewers() async {
    await wait(for: .viewers)
  }

  /// Returns once an event stream is open (at once when one is), or when the task is
  /// cancelled or the hub closes: a test publishes its events once the stream counts.
  package func waitForStreams() async {
    await wait(for: .streams)
  }

  private func wait(for kind: Demand) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = locked { state -> Bool in
          if state.closed || Task.isCancelled || state.has(kind) { return true }
          state.demand.append((kind, continuation))
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      wakeDemand(kind)
    }
  }

  /// Ends every wait and every stream (after a `bye` event), and the intents.
  public func close() {
    locked { state in
      guard !state.closed else { return }
      append(&state, name: "bye", data: "{\"reason\":\"the program was closed\"}")
      state.closed = true
    }
    wakeDemand(nil)
    intentsInput.finish()
  }

  // MARK: The connections' side

  package var isClosed: Bool { locked { $0.closed } }

  /// The presentation now, as JSON.
  package var presentationJSON: String { locked { $0.presentation } }

  /// The photos so far.
  package var photos: [Photo] { locked { $0.photos } }

  /// The photo numbered `id`.
  package func photo(_ id: Int) -> Photo? { locked { state in state.photos.first { $0.id == id } } }

  /// Takes a viewer's place; `false` when all are taken or the hub closed.
  package func enterViewer() -> Bool {
    let entered = locked { state -> Bool in
      guard !state.closed, state.viewers < Self.maximumViewers else { return false }
      state.viewers += 1
      return true
    }
    if entered { wakeDemand(.viewers) }
    return entered
  }

  /// Gives a viewer's place back.
  package func leaveViewer() { locked { $0.viewers -= 1 } }

  /// Takes an event stream's place, with where the stream starts: the newest event and the
  /// presentation now, read under the same lock, so every event published once the stream
  /// counts (``hasStreams``) is after its start and reaches it. `nil` when all places are
  /// taken or the hub closed.
  package func enterStream() -> (newest: Int, presentation: String)? {
    let start = locked { state -> (newest: Int, presentation: String)? in
      guard !state.closed, state.streams < Self.maximumStreams else { return nil }
      state.streams += 1
      return (state.nextEvent - 1, state.presentation)
    }
    if start != nil { wakeDemand(.streams) }
    return start
  }

  /// Gives an event stream's place back.
  package func leaveStream() {
    locked { state in
      state.streams -= 1
      condition.broadcast()
    }
  }

  /// Blocks until every event stream has ended (after its `bye`), or `timeout` passes.
  package func waitForStreamsToEnd(timeout: Duration) {
    let deadline = Date(timeIntervalSinceNow: timeout.secondsValue)
    condition.lock()
    defer { condition.unlock() }
    while state.streams > 0 {
      if !condition.wait(until: deadline) { return }
    }
  }

  /// Blocks the calling thread (a connection's, never the cooperative pool's) until there is
  /// a preview newer than `after`, the hub closes, or `timeout` passes.
  package func waitForPreview(after: Int, timeout: Duration) -> Preview? {
    let deadline = Date(timeIntervalSinceNow: timeout.secondsValue)
    condition.lock()
    defer { condition.unlock() }
    while !state.closed {
      if let preview = state.preview, preview.sequence > after { return preview }
      // NB: wait(until:) reacquires the lock before it returns, even on a time-out.
      if !condition.wait(until: deadline) { return nil }
    }
    return nil
  }

  /// Blocks until there are events after `after` (returned in order), the hub closes, or
  /// `timeout` passes (empty). A stream that fell behind the kept events gets the
  /// presentation now instead of what it missed.
  package func waitForEvents(after: Int, timeout: Duration) -> [Event] {
    let deadline = Date(timeIntervalSinceNow: timeout.secondsValue)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let first = state.events.first, first.id > after + 1, after > 0 {
        let newest = state.nextEvent - 1
        return [Event(id: newest, name: "presentation", data: state.presentation)]
      }
      let newer = state.events.filter { $0.id > after }
      if !newer.isEmpty || state.closed { return newer }
      if !condition.wait(until: deadline) { return [] }
    }
  }

  /// The number of the newest event (a new stream starts after it).
  package var newestEvent: Int { locked { $0.nextEvent - 1 } }

  /// Hands `intent` to the program and blocks until it answers, or `timeout` passes.
  package func ask(_ intent: RemoteIntent, timeout: Duration) -> RemoteReply {
    let box = ReplyBox()
    guard !isClosed, case .enqueued = intentsInput.yield(Command(intent: intent, box: box)) else {
      return .refused("the program is closing")
    }
    return box.wait(timeout: timeout) ?? .refused("the program did not answer in time")
  }

  func append(_ state: inout State, name: String?, data: String) {
    state.events.append(Event(id: state.nextEvent, name: name, data: data))
    state.nextEvent += 1
    if state.events.count > Self.keptEvents { state.events.removeFirst() }
    condition.broadcast()
  }

  /// Resumes the tasks waiting for `kind`, or every waiting task (`nil`).
  private func wakeDemand(_ kind: Demand?) {
    let waiting = locked { state -> [CheckedContinuation<Void, Never>] in
      let woken = state.demand.filter { kind == nil || $0.kind == kind }
      state.demand.removeAll { kind == nil || $0.kind == kind }
      return woken.map(\.continuation)
    }
    for continuation in waiting { continuation.resume() }
  }
}
