#if canImport(Glibc)
  import Glibc
#endif

/// A thread's time on a processor and its time waiting for one, as Linux's scheduler counts
/// them (the first two numbers of a `schedstat` file under `/proc`).
///
/// On a machine with more runnable work than processors, ``waited`` grows by seconds while
/// the thread makes no progress of its own fault; time it spends asleep (on input, a pipe, a
/// network, a device) counts in neither. A silence limit can take ``waited`` off the time it
/// measures, so that a starved machine is not mistaken for a dead source.
///
/// NB: the kernel credits a wait when it ends, as the thread gets a processor: the wait of a
/// thread still queued (``ChildProcess/isRunnable``) is not in ``waited`` yet.
package struct ProcessorTime: Hashable, Sendable {
  /// Time it has run on a processor (`sum_exec_runtime`).
  package var ran: Duration
  /// Time it was ready to run with no processor free for it (`run_delay`).
  package var waited: Duration

  /// The times.
  package init(ran: Duration, waited: Duration) {
    self.ran = ran
    self.waited = waited
  }

  /// The calling thread's (`/proc/thread-self/schedstat`); `nil` where the kernel keeps no
  /// such count (no `/proc`, or a kernel without scheduler statistics).
  package static func ofCallingThread() -> ProcessorTime? {
    read("/proc/thread-self/schedstat")
  }

  /// The times in the `schedstat` file at `path`, or `nil` when it cannot be read.
  ///
  /// NB: straight system calls, not ``SystemCall``: a measurement, never one of the calls a
  /// ``FaultPlan`` makes fail (a planned failure of `read` is meant for a stream).
  static func read(_ path: String) -> ProcessorTime? {
    guard let text = readSmallFile(path) else { return nil }
    let fields = text.split(whereSeparator: \.isWhitespace)
    guard fields.count >= 2, let ran = Int64(fields[0]), let waited = Int64(fields[1]) else {
      return nil
    }
    return ProcessorTime(ran: .nanoseconds(ran), waited: .nanoseconds(waited))
  }

  /// The first 512 bytes of a file under `/proc` (whose size reads as 0), or `nil`.
  static func readSmallFile(_ path: String) -> String? {
    #if canImport(Glibc)
      let file = Glibc.open(path, O_RDONLY | O_CLOEXEC)
      guard file >= 0 else { return nil }
      defer { _ = Glibc.close(file) }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count], as: UTF8.self)
    #else
      return nil
    #endif
  }
}

extension ChildProcess {
  /// Its main thread's ``ProcessorTime`` (`/proc/PID/schedstat`); `nil` once the child has
  /// been reaped (its pid may be another process's by then), or where the kernel keeps no
  /// such count.
  package var processorTime: ProcessorTime? {
    whileUnreaped { ProcessorTime.read("/proc/\($0)/schedstat") }
  }

  /// Whether its main thread is running or waiting for a processor (state `R` in
  /// `/proc/PID/stat`), rather than asleep, stopped or ended.
  package var isRunnable: Bool {
    whileUnreaped { pid -> Bool? in
      guard let stat = ProcessorTime.readSmallFile("/proc/\(pid)/stat"),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // "PID (name) R …": the name may hold spaces and parentheses; the state follows the last.
      return stat[stat.index(after: close)...].drop { $0 == " " }.first == "R"
    } ?? false
  }
}
