import PhotoTimer
import Testing

@Suite("Countdown")
struct CountdownTests {
  let countdown = Countdown(ticks: 5, interval: .seconds(1))

  @Test(
    "The count shown at an offset",
    arguments: [
      (0, 5), (999, 5), (1000, 4), (1001, 4), (2999, 3), (3000, 2), (4999, 1), (5000, 0),
      (60_000, 0), (-5, 5),
    ])
  func remaining(offset: Int, expected: Int) {
    #expect(countdown.remaining(at: ms(offset)) == expected)
  }

  @Test("The next deadline is always a whole tick, even after a stall")
  func nextDeadline() {
    #expect(countdown.nextDeadline(after: .zero) == ms(1000))
    #expect(countdown.nextDeadline(after: ms(1000)) == ms(2000))
    #expect(countdown.nextDeadline(after: ms(3500)) == ms(4000))
    #expect(countdown.nextDeadline(after: ms(4999)) == ms(5000))
    #expect(countdown.nextDeadline(after: ms(5000)) == nil)
  }

  @Test("Short intervals use exact integer arithmetic at their deadlines")
  func shortIntervals() {
    let fast = Countdown(ticks: 100, interval: .milliseconds(50))
    for tick in 1...100 {
      #expect(fast.ticksPassed(at: fast.deadline(ofTick: tick)) == tick)
      #expect(fast.ticksPassed(at: fast.deadline(ofTick: tick) - .nanoseconds(1)) == tick - 1)
    }
    #expect(fast.zero == .seconds(5))
  }

  @Test("A countdown of zero ticks is at zero from the start")
  func zeroTicks() {
    let none = Countdown(ticks: 0, interval: .seconds(1))
    #expect(none.remaining(at: .zero) == 0)
    #expect(none.nextDeadline(after: .zero) == nil)
    #expect(Countdown(ticks: -3, interval: .seconds(1)).ticks == 0)
  }
}
