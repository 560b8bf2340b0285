import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerTesting
import Testing

@Suite("TestClock", .timeLimit(.minutes(1)))
struct TestClockTests {
  @Test("Sleepers wake in deadline order when time reaches them, not before")
  func wakesAtDeadlines() async throws {
    let clock = TestClock()
    let recorder = Recorder()
    let sleepers = Task {
      await withTaskGroup(of: Void.self) { group in
        for offset in [300, 100, 200] {
          group.addTask {
            try? await clock.sleep(until: .init(offset: ms(offset)))
            recorder.append(offset)
          }
        }
      }
    }
    await clock.waitForSleepers(3)
    #expect(clock.deadlines == [ms(100), ms(200), ms(300)])
    #expect(clock.advance(by: ms(99)) == 0)
    #expect(clock.advance(by: ms(1)) == 1)
    #expect(clock.advance(to: ms(300)) == 2)
    await sleepers.value
    #expect(recorder.values.sorted() == [100, 200, 300])
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == .init(offset: ms(300)))
  }

  @Test("A wait for sleepers (or events) that never come ends when its task is cancelled")
  func waitsEndOnCancel() async {
    // NB: so that a test's time limit ends it: a sleeper that never comes fails that test,
    // instead of holding up the whole run (make stress saw a run wait for ever).
    let clock = TestClock()
    let sleepers = Task { await clock.waitForSleepers(1) }
    sleepers.cancel()
    await sleepers.value
    let recorder = EventRecorder()
    let events = Task { await recorder.waitForEvents(1) }
    events.cancel()
    #expect(await events.value.isEmpty)
    // Neither leaves a waiter behind: a later sleeper or event wakes only the new waits.
    let later = Task { await clock.waitForSleepers(1) }
    let sleeper = Task { try? await clock.sleep(until: .init(offset: .seconds(1))) }
    await later.value
    clock.advance(to: .seconds(1))
    await sleeper.value
  }

  @Test("Cancelling a sleeper removes it and throws CancellationError")
  func cancellation() async throws {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(10))) }
    await clock.waitForSleepers(1)
    sleeper.cancel()
    #expect(clock.sleeperCount == 0)
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test("A deadline already passed returns at once; time never moves backwards")
  func pastDeadline() async throws {
    let clock = TestClock()
    clock.advance(to: .seconds(5))
    try await clock.sleep(until: .init(offset: .seconds(2)))
    clock.advance(to: .seconds(1))
    #expect(clock.now.offset == .seconds(5))
    #expect(clock.sleeperCount == 0)
  }
}

final class Recorder: Sendable {
  private let storage = Locked<[Int]>([])
  func append(_ value: Int) { storage.withLock { $0.append(value) } }
  var values: [Int] { storage.withLock { $0 } }
}
