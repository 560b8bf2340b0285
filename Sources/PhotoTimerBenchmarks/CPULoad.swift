import Foundation

/// Two busy threads outside the cooperative pool, keeping both cores loaded, as another
/// program on a shared machine would.
final class CPULoad: @unchecked Sendable {
  // NB: @unchecked because `running` is only touched under `lock`.
  private let lock = NSLock()
  private var running = true
  private var threads: [Thread] = []

  init(threads count: Int = 2) {
    for _ in 0..<count {
      let thread = Thread { [self] in
        var x: UInt64 = 1
        while isRunning {
          for _ in 0..<100_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        }
        if x == 42 { print("") }  // keeps the loop from being optimised away
      }
      thread.start()
      threads.append(thread)
    }
  }

  private var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return running
  }

  func stop() {
    lock.lock()
    running = false
    lock.unlock()
  }
}
