import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#endif

/// Thread priority, through the syscall funnel.
///
/// On Linux a thread's niceness is its own (`setpriority` with `PRIO_PROCESS` and 0 names the
/// calling thread), so a thread lowers only itself.
package enum ThreadPriority {
  /// The niceness of the CPU executor's threads: 5, below the cooperative pool's 0.
  ///
  /// NB: not lower. At nice 15 anything else busy on the machine (nice 0) left the camera's
  /// renderer a few per cent of a core, and a count ended with "camera not ready" (CI under
  /// AddressSanitizer, `make stress`).
  package static let cpuWork: Int32 = 5

  /// Sets the calling thread's niceness (higher is lower priority).
  ///
  /// - Parameter nice: The niceness; raising one's own is always allowed.
  /// - Throws: ``SystemCallError`` for `setpriority`.
  package static func setCallingThread(nice: Int32) throws(SystemCallError) {
    #if canImport(Glibc)
      try SystemCall.value("setpriority") {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
      }
    #endif
  }

  /// Has the executor's threads lower themselves to ``cpuWork`` before their next job, so a
  /// tick of the countdown that falls due while a photo is encoded gets a core at once.
  ///
  /// Each program calls this as it starts. A thread that cannot lower itself (the call does
  /// not fail for a thread raising its own niceness) runs its jobs at the default priority:
  /// timing margin lost, nothing else.
  ///
  /// - Parameter executor: The executor (the process's own unless given).
  package static func lowerCPUWork(_ executor: CPUExecutor = .shared) {
    executor.setUpThreads {
      // NB: a program started nicer (`nice -n 10 phototimer`) keeps its niceness: setting 5
      // would raise its priority.
      guard let now = try? callingThreadNiceness(), now < cpuWork else { return }
      try? setCallingThread(nice: cpuWork)
    }
  }

  /// The calling thread's niceness.
  ///
  /// - Throws: ``SystemCallError`` for `getpriority`.
  package static func callingThreadNiceness() throws(SystemCallError) -> Int32 {
    #if canImport(Glibc)
      // NB: -1 is a niceness as well as the failure value: errno, cleared first, tells them
      // apart, so the call goes through the funnel's error-number form.
      var value: Int32 = 0
      try SystemCall.status("getpriority") {
        errno = 0
        value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return value == -1 ? errno : 0
      }
      return value
    #else
      return 0
    #endif
  }
}
