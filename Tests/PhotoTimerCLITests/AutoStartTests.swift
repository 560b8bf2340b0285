import PhotoTimerImaging
import PhotoTimerSetup
import Testing

/// The switch for a count that starts itself, as the terminal, the window and the phone keep
/// it: one set of decisions, the front end does what they say.
@Suite("The switch beside Start")
struct AutoStartTests {
  @Test("None where the people cannot be watched: turning it does nothing")
  func unavailable() {
    var auto = AutoStart(available: false, on: true)
    #expect(auto.isOn == nil)
    #expect(auto.set(true) == .none)
    #expect(auto.cameraOpened() == .none && auto.countEnded() == .none)
    #expect(auto.heard(.state(.ready)) == .none)
  }

  @Test("On: it watches once the camera opens, says what it waits for, and starts the count")
  func on() {
    var auto = AutoStart(available: true, on: true)
    #expect(auto.cameraOpened() == .watch(afterCount: false))
    #expect(auto.heard(.state(.waiting("hold still"))) == .none)
    #expect(auto.waiting == "hold still")
    #expect(auto.heard(.state(.ready)) == .start)
    #expect(auto.waiting == nil)
    #expect(auto.countStarts() == .stopWatching)
    // After the count the next group is waited for: the picture must empty first.
    #expect(auto.countEnded() == .watch(afterCount: true))
    #expect(auto.heard(.unavailable("the face model is not installed")) == .none)
    #expect(auto.waiting == "no count by itself: the face model is not installed")
  }

  @Test("Turned on it watches at once; turned off it stops and says nothing more; twice is once")
  func turned() {
    var auto = AutoStart(available: true, on: false)
    #expect(auto.cameraOpened() == .none)
    #expect(auto.heard(.state(.ready)) == .none, "a wait that was ended says nothing")
    #expect(auto.set(true) == .watch(afterCount: false))
    #expect(auto.set(true) == .none)
    _ = auto.heard(.state(.waiting("waiting for everyone: 2 of 3")))
    #expect(auto.set(false) == .stopWatching)
    #expect(auto.waiting == nil && auto.isOn == false)
    #expect(auto.countEnded() == .none)
  }
}
