import PhotoTimer
import Testing

/// A booth session through the one front-end machine: shots with their own counts, Keep and
/// Retake after each, the collage at the end, and every way it can end early.
@Suite("FrontEndSession: a booth session of shots")
struct BoothSessionTests {
  typealias Effect = FrontEndSession.Effect

  static let idle = PhotoTimerViewModel.Snapshot()
  static let counting = PhotoTimerViewModel.Snapshot(
    state: PhotoTimerState(status: .counting(remaining: 3)), isSessionRunning: true, hasRun: true)
  static let taken = PhotoTimerViewModel.Snapshot(
    state: PhotoTimerState(status: .captured(.stub)), hasRun: true)
  static let cancelled = PhotoTimerViewModel.Snapshot(hasRun: true)

  /// A framing front end with a booth of `plan`, its camera open.
  static func booth(_ plan: BoothPlan = BoothPlan()) -> FrontEndSession {
    var configuration = FrontEndSession.Configuration(
      frames: true, holdsCamera: true, autoStart: false)
    configuration.booth = plan
    var session = FrontEndSession(configuration)
    _ = session.cameraOpened(model: idle)
    return session
  }

  /// A shot's count runs and its photo is taken: what the machine says at its end.
  static func shoot(_ session: inout FrontEndSession) -> [Effect] {
    _ = session.modelChanged(counting, cameraGone: false)
    return session.modelChanged(taken, cameraGone: false)
  }

  @Test("four shots, one retaken: each its count, each its review, then the collage")
  func wholeSession() {
    var session = Self.booth()
    #expect(
      session.ask(.start, model: Self.idle)
        == .accepted([.boothStarted(shots: 4), .startCount(seconds: nil)]))
    #expect(Self.shoot(&session) == [.review(shot: 1, seconds: 4)])
    let review = session.presentation(of: Self.taken)
    #expect(review.actions == [.keep, .retake, .cancel])
    #expect(review.status.text == "Shot 1 of 4: press space to keep it · press r to take it again")
    #expect(
      session.presentation(of: Self.taken, audience: .phone).status.text
        == "Shot 1 of 4: tap Keep to keep it · tap Retake to take it again")
    #expect(
      session.ask(.start, model: Self.taken)
        == .refused("shot 1 of 4 is waiting: keep it or take it again"))
    #expect(
      session.ask(.keep, model: Self.taken) == .accepted([.keepShot(1), .startCount(seconds: 3)]))
    #expect(session.presentation(of: Self.counting).status.text == "Shot 2 of 4 · Counting down: 3")
    #expect(Self.shoot(&session) == [.review(shot: 2, seconds: 4)])
    #expect(
      session.ask(.retake, model: Self.taken)
        == .accepted([.discardShot(2), .startCount(seconds: 3)]))
    #expect(Self.shoot(&session) == [.review(shot: 2, seconds: 4)])
    // One retake a shot: the second is refused, in words.
    #expect(session.presentation(of: Self.taken).actions == [.keep, .cancel])
    #expect(session.ask(.retake, model: Self.taken) == .refused("no retakes left for shot 2 of 4"))
    #expect(
      session.ask(.keep, model: Self.taken) == .accepted([.keepShot(2), .startCount(seconds: 3)]))
    // The third shot has its own retake again.
    #expect(Self.shoot(&session) == [.review(shot: 3, seconds: 4)])
    #expect(session.booth?.retakesLeft == 1)
    _ = session.ask(.keep, model: Self.taken)
    #expect(Self.shoot(&session) == [.review(shot: 4, seconds: 4)])
    #expect(
      session.ask(.keep, model: Self.taken)
        == .accepted([
          .keepShot(4), .composeCollage(shots: 4), .boothEnded(kept: 4, complete: true),
        ]))
    #expect(session.booth == nil)
    // Framing again: the next guest starts the next session.
    #expect(session.ask(.keep, model: Self.taken) == .refused("no shot to keep now"))
    #expect(
      session.ask(.start, model: Self.taken)
        == .accepted([.boothStarted(shots: 4), .startCount(seconds: nil)]))
  }

  @Test(
    "a key pressed as a shot's run ends, before the front end told the machine: only Cancel, in words; the review follows as usual"
  )
  func keyAsTheRunEnds() {
    var session = Self.booth(BoothPlan(shots: 2))
    _ = session.ask(.start, model: Self.idle)
    _ = session.modelChanged(Self.counting, cameraGone: false)
    // The model has its photo; the machine has not heard it yet.
    #expect(session.presentation(of: Self.taken).actions == [.cancel])
    for action in [PhotoTimerPresentation.Action.start, .restart, .retake, .keep, .takeNow] {
      #expect(
        session.ask(action, model: Self.taken) == .refused("shot 1 of 2 is being saved: a moment"),
        "\(action)")
    }
    #expect(session.modelChanged(Self.taken, cameraGone: false) == [.review(shot: 1, seconds: 4)])
    #expect(session.presentation(of: Self.taken).actions == [.keep, .retake, .cancel])
    // Cancel in that moment ends the session; its end, heard next, starts nothing.
    var cancelled = Self.booth(BoothPlan(shots: 2))
    _ = cancelled.ask(.start, model: Self.idle)
    _ = cancelled.modelChanged(Self.counting, cameraGone: false)
    #expect(
      cancelled.ask(.cancel, model: Self.taken)
        == .accepted([.cancelRun, .boothEnded(kept: 0, complete: false)]))
    #expect(cancelled.modelChanged(Self.taken, cameraGone: false) == [])
    #expect(cancelled.booth == nil)
  }

  @Test("without review every shot is kept as it is taken")
  func noReview() {
    var session = Self.booth(BoothPlan(shots: 2, between: 2, review: 0, retakes: 0))
    _ = session.ask(.start, model: Self.idle)
    #expect(Self.shoot(&session) == [.keepShot(1), .startCount(seconds: 2)])
    #expect(
      Self.shoot(&session)
        == [.keepShot(2), .composeCollage(shots: 2), .boothEnded(kept: 2, complete: true)])
  }

  @Test("a review's end keeps the shot; a review timer that fires late does nothing, silently")
  func reviewTimesOut() {
    var session = Self.booth(BoothPlan(shots: 3, review: 4))
    _ = session.ask(.start, model: Self.idle)
    #expect(Self.shoot(&session) == [.review(shot: 1, seconds: 4)])
    #expect(
      session.reviewEnded(shot: 1, model: Self.taken) == [.keepShot(1), .startCount(seconds: 3)])
    // Shot 2 kept by a key: its timer, firing after, finds nothing to do and says nothing.
    #expect(Self.shoot(&session) == [.review(shot: 2, seconds: 4)])
    _ = session.ask(.keep, model: Self.taken)
    #expect(session.reviewEnded(shot: 2, model: Self.counting) == [])
    #expect(session.presentation(of: Self.counting).note == nil)
    // Shot 1's old timer while shot 3 is shown: not this shot's.
    #expect(Self.shoot(&session) == [.review(shot: 3, seconds: 4)])
    #expect(session.reviewEnded(shot: 1, model: Self.taken) == [])
    #expect(session.booth?.reviewing == true)
  }

  @Test("cancel during a review ends the session and keeps the shots kept")
  func cancelInReview() {
    var session = Self.booth()
    _ = session.ask(.start, model: Self.idle)
    _ = Self.shoot(&session)
    _ = session.ask(.keep, model: Self.taken)
    _ = Self.shoot(&session)
    #expect(
      session.ask(.cancel, model: Self.taken)
        == .accepted([.cancelRun, .boothEnded(kept: 1, complete: false)]))
    #expect(session.booth == nil)
    #expect(session.presentation(of: Self.cancelled).actions.contains(.start))
  }

  @Test("cancel during a shot's count ends the session when the run has ended")
  func cancelMidCount() {
    var session = Self.booth()
    _ = session.ask(.start, model: Self.idle)
    _ = Self.shoot(&session)
    _ = session.ask(.keep, model: Self.taken)
    _ = session.modelChanged(Self.counting, cameraGone: false)
    #expect(session.ask(.cancel, model: Self.counting) == .accepted([.cancelRun]))
    #expect(
      session.modelChanged(Self.cancelled, cameraGone: false)
        == [.boothEnded(kept: 1, complete: false)])
    #expect(session.booth == nil)
  }

  @Test("a signal mid-session ends the program after the run; a failed shot ends the session")
  func signalAndFailure() {
    var session = Self.booth()
    _ = session.ask(.start, model: Self.idle)
    _ = session.modelChanged(Self.counting, cameraGone: false)
    #expect(session.signal(model: Self.counting) == [.cancelRun])
    #expect(
      session.modelChanged(Self.cancelled, cameraGone: false)
        == [.boothEnded(kept: 0, complete: false), .end])
    // A signal while a shot is shown: the session ends, said, then the program.
    var reviewing = Self.booth()
    _ = reviewing.ask(.start, model: Self.idle)
    _ = Self.shoot(&reviewing)
    _ = reviewing.ask(.keep, model: Self.taken)
    _ = Self.shoot(&reviewing)
    #expect(reviewing.signal(model: Self.taken) == [.boothEnded(kept: 1, complete: false), .end])
    var failing = Self.booth()
    _ = failing.ask(.start, model: Self.idle)
    _ = failing.modelChanged(Self.counting, cameraGone: false)
    let failed = PhotoTimerViewModel.Snapshot(
      state: PhotoTimerState(
        status: .failed(PhotoTimerFailure(cause: .stepFailed(.camera), message: "camera gone"))),
      hasRun: true)
    #expect(
      failing.modelChanged(failed, cameraGone: false) == [.boothEnded(kept: 0, complete: false)])
  }

  @Test("without framing the front end ends with the collage")
  func commandEndsWithCollage() {
    var configuration = FrontEndSession.Configuration(frames: false, holdsCamera: false)
    configuration.booth = BoothPlan(shots: 1, review: 0)
    var booth = FrontEndSession(configuration)
    // NB: a front end that starts at once starts a booth session like a key does.
    #expect(
      booth.begin(model: Self.idle) == [.boothStarted(shots: 1), .startCount(seconds: nil)])
    #expect(
      Self.shoot(&booth)
        == [.keepShot(1), .composeCollage(shots: 1), .boothEnded(kept: 1, complete: true), .end])
    #expect(booth.isOver)
  }

  @Test("keep and retake outside a booth are refused in words")
  func outsideABooth() {
    var session = FrontEndSession(.init(frames: true, holdsCamera: false))
    #expect(session.ask(.keep, model: Self.idle) == .refused("no shot to keep now"))
    #expect(session.ask(.retake, model: Self.idle) == .refused("no shot to take again now"))
  }
}
