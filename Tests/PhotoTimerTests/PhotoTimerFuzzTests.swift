import PhotoTimer
import PhotoTimerTesting
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@MainActor
@Suite("Seeded fuzz of cancels and restarts", .timeLimit(.minutes(5)))
struct PhotoTimerFuzzTests {
  /// 10,000 by default; `PHOTOTIMER_FUZZ_RUNS` sets it (lower for the sanitizer build,
  /// 125,000 a seed in `make fuzz`'s release build).
  static let runs =
    ProcessInfo.processInfo.environment["PHOTOTIMER_FUZZ_RUNS"].flatMap(Int.init)
    ?? 10_000
  /// The first schedule's seed; schedule k uses seed + k. A failure names its schedule's
  /// seed: `PHOTOTIMER_FUZZ_SEED=that PHOTOTIMER_FUZZ_RUNS=1` replays it alone.
  static let seed =
    ProcessInfo.processInfo.environment["PHOTOTIMER_FUZZ_SEED"].flatMap {
      UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: $0.hasPrefix("0x") ? 16 : 10)
    } ?? 0xF0CC_A017

  enum Operation: CaseIterable {
    case advance, cancel, restart, yield
  }

  @Test("Random cancels and restarts at random instants always end consistent")
  func fuzz() async throws {
    for index in 0..<Self.runs {
      let seed = Self.seed &+ UInt64(index)
      var random = SeededRandomNumberGenerator(seed: seed)
      try await fuzzOne(
        run: "seed 0x\(String(seed, radix: 16)) (PHOTOTIMER_FUZZ_SEED)", random: &random)
    }
  }

  private func fuzzOne(run: String, random: inout SeededRandomNumberGenerator) async throws {
    let seconds = Int.random(in: 0...3, using: &random)
    let camera: SimulatedStep =
      [
        .succeed(after: ms(Int.random(in: 1...3000, using: &random))),
        .fail(after: ms(Int.random(in: 1...3000, using: &random)), message: "unplugged"),
        .never,
      ].randomElement(using: &random) ?? .never
    let clock = TestClock()
    let model = PhotoTimerViewModel(
      countdownSeconds: seconds,
      services: .simulated(
        clock: clock, camera: camera, location: .succeed(after: ms(700)),
        filter: .fail(after: ms(900), message: "dark")),
      clock: clock, cameraWaitLimit: .seconds(3600))
    var history: [PhotoTimerStatus] = []
    model.didWriteState = { status, _ in history.append(status) }
    model.startTimer()
    var now = Duration.zero
    var running = true
    var lastStart = Duration.zero
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      switch Operation.allCases.randomElement(using: &random) ?? .advance {
      case .advance:
        now += ms(Int.random(in: 0...2500, using: &random))
        clock.advance(to: now)  // NB: deliberately no waiting: the run races the next action
      case .yield:
        // Lets the runs make progress in whatever interleaving the scheduler picks; the
        // assertions hold for all of them, so this adds variety, not flakiness.
        for _ in 0..<Int.random(in: 1...50, using: &random) { await Task.yield() }
      case .cancel:
        model.cancel()
        running = false
        #expect(model.status == .idle, "\(run)")
        history.removeAll()
      case .restart:
        history.removeAll()
        model.startTimer()
        running = true
        lastStart = now
        #expect(model.status == .counting(remaining: seconds), "\(run)")
      }
    }
    // End with a cancel or a fresh restart, so the end state is known whatever the races
    // above left behind.
    if Bool.random(using: &random) {
      model.cancel()
      history.removeAll()
      running = false
    } else {
      history.removeAll()
      model.startTimer()
      running = true
      lastStart = now
      // A fresh run sleeps on exactly four deadlines: three steps (all ≥ 1 ms) and the first
      // tick, or the bounded wait when the count is 0.
      await clock.waitForSleepers(4)
      #expect(
        model.status == .counting(remaining: seconds) || model.status == .waiting(for: [.camera]))
      // Every step and the count end within 5 s; the one-hour wait limit is not reached, so
      // the order in which simultaneous wake-ups arrive cannot change the outcome.
      clock.advance(to: lastStart + .seconds(seconds) + .seconds(5))
      if camera == .never {
        await clock.waitForSleepers(2)  // the camera and the bounded wait
        clock.advance(to: lastStart + .seconds(seconds) + .seconds(7200))
      }
    }
    await model.waitForRun()
    #expect(clock.sleeperCount == 0, "\(run)")
    // Since the last cancel or restart, no stale run wrote over the state.
    #expect(!history.contains(.idle), "\(run)")
    switch (running, model.status, camera) {
    case (false, .idle, _):
      #expect(model.prep == PreparationProgress(), "\(run)")
      #expect(history.isEmpty, "\(run): state written after cancel: \(history)")
    case (true, .captured(let photo), .succeed):
      #expect(photo.settings == Seed.settings, "\(run)")
      #expect(photo.filter == .natural, "\(run)")
      // The filter failed, or was dropped when the shutter's wake-up was handled first.
      let filter = photo.report(for: .filter)?.outcome
      #expect(filter == .failed(reason: "dark") || filter.map { !$0.succeeded } == true)
      #expect(photo.reports.map(\.step) == PreparationStep.allCases, "\(run)")
    case (true, .failed(let failure), .fail):
      #expect(failure.cause == .stepFailed(.camera), "\(run)")
    case (true, .failed(let failure), .never):
      #expect(failure.cause == .notReadyInTime([.camera]), "\(run)")
    default:
      Issue.record("\(run): inconsistent end \(model.status) (running: \(running), \(camera))")
    }
  }
}
