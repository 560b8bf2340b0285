import CPhotoTimerPOSIX
import Foundation
import PhotoTimerConcurrency

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn` and an argument array (never a shell), its
/// standard input on `/dev/null` and its standard output and error on pipes (or on
/// descriptors handed to it, ``Streams``).
///
/// Every return code of the spawn is checked. A child gets only what it is handed: its
/// standard streams. Every other descriptor is closed in the child before it starts
/// (`posix_spawn_file_actions_addclosefrom_np`), whether or not it closes on exec, so a
/// descriptor that the host program (or Foundation's `Pipe`) opened without `O_CLOEXEC`
/// never lives on in a camera's ffmpeg: a pipe's reader still sees its end, a closed
/// socket still disconnects, a deleted file still frees its space.
///
/// One thread of its own waits for the child (`waitid` with `WNOWAIT`, which leaves it a
/// zombie), then reaps it under the same lock that guards every signal sent to it. So the
/// exit status is read exactly once, and a pid is never signalled after it was reaped
/// (when the kernel may have given it to another process). ``wait()`` suspends until then;
/// ``terminate(grace:)`` sends SIGTERM and, if the child is still there after `grace`,
/// SIGKILL, without blocking a thread or polling.
///
/// ```swift
/// let child = try ChildProcess(command: ["ffmpeg", "-i", input, "-f", "rawvideo", "-"])
/// …
/// let exit = try await child.stop(grace: .milliseconds(200))
/// ```
package final class ChildProcess: Sendable {
  /// How a child ended.
  package enum Exit: Hashable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case status(Int32)
    /// A signal ended it.
    case signal(Int32)

    /// `exit status 1` or `killed by signal 9`.
    package var description: String {
      switch self {
      case .status(let code): "exit status \(code)"
      case .signal(let number): "killed by signal \(number)"
      }
    }
  }

  private struct State {
    var exit: Result<Exit, SystemCallError>?
    var waiters: [CheckedContinuation<Result<Exit, SystemCallError>, Never>] = []
    var blockedWaiters: [DispatchSemaphore] = []
    var terminating = false
    var escalation: KillTimer?
    /// No signal may be sent any more: the reaper is about to reap without knowing the exit.
    var unsignalled = false
  }

  /// The descriptors handed to a child as its standard streams, instead of `/dev/null` for
  /// input and a pipe for each output. The child gets its own copies; the caller keeps and
  /// closes its own. An output handed this way reads end-of-file at once on ``output`` or
  /// ``errors``.
  package struct Streams: Sendable {
    /// Standard input; `nil` is `/dev/null`.
    package var input: FileDescriptor?
    /// Standard output; `nil` is a pipe read through ``ChildProcess/output``.
    package var output: FileDescriptor?
    /// Standard error; `nil` is a pipe read through ``ChildProcess/errors``.
    package var errors: FileDescriptor?

    /// Streams with the given descriptors.
    package init(
      input: FileDescriptor? = nil, output: FileDescriptor? = nil, errors: FileDescriptor? = nil
    ) {
      self.input = input
      self.output = output
      self.errors = errors
    }

    /// All three on one descriptor: a pseudo-terminal's slave, say.
    package static func terminal(_ descriptor: FileDescriptor) -> Streams {
      Streams(input: descriptor, output: descriptor, errors: descriptor)
    }
  }

  /// The child's process id.
  package let pid: pid_t
  /// The read end of its standard output.
  package let output: FileDescriptor
  /// The read end of its standard error.
  package let errors: FileDescriptor
  // NB: every signal to `pid` and its reaping happen under this lock.
  private let state = Locked(State())

  /// Starts `command`: the program (looked up on PATH), then its arguments.
  ///
  /// - Parameters:
  ///   - command: The program and its arguments.
  ///   - streams: Descriptors handed over as its standard streams (none by default).
  /// - Throws: ``SystemCallError`` from `pipe2` or a `posix_spawn*` call; `posix_spawn`
  ///   with `ENOENT` when the program is not found.
  package init(command: [String], streams: Streams = Streams()) throws(SystemCallError) {
    guard let executable = command.first, !executable.isEmpty else {
      throw SystemCallError(call: "posix_spawn", errno: .invalidArgument)
    }
    let out = try PipeDescriptors()
    let err: PipeDescriptors
    do {
      err = try PipeDescriptors()
    } catch {
      out.close()
      throw error
    }
    do {
      pid = try Self.spawn(
        executable, command, input: streams.input, output: streams.output ?? out.writeEnd,
        errors: streams.errors ?? err.writeEnd)
    } catch {
      out.close()
      err.close()
      throw error
    }
    // The child has its own copies: ours must go, or the reader never sees the end.
    out.writeEnd.closeQuietly()
    err.writeEnd.closeQuietly()
    output = out.readEnd
    errors = err.readEnd
    let pid = pid
    let state = state
    let plan = FaultPlan.current
    plan?.spawned(pid)
    _ = ReaderThread(name: "phototimer.reap \(pid)") { Self.reap(pid, state, plan) }
  }

  private static func spawn(
    _ executable: String, _ command: [String], input: FileDescriptor?, output: FileDescriptor,
    errors: FileDescriptor
  ) throws(SystemCallError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    try SystemCall.status("posix_spawn_file_actions_init") {
      posix_spawn_file_actions_init(&actions)
    }
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input {
      try SystemCall.status("posix_spawn_file_actions_adddup2") {
        posix_spawn_file_actions_adddup2(&actions, input.rawValue, 0)
      }
    } else {
      try SystemCall.status("posix_spawn_file_actions_addopen") {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      }
    }
    try SystemCall.status("posix_spawn_file_actions_adddup2") {
      posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1)
    }
    try SystemCall.status("posix_spawn_file_actions_adddup2") {
      posix_spawn_file_actions_adddup2(&actions, errors.rawValue, 2)
    }
    // NB: after the dup2s, which they need open: every other descriptor closes in the child,
    // close-on-exec or not (a host program's, Foundation's Pipe, a library's). Refusing to
    // spawn where the C library cannot do this is the point: a leak would hang a reader.
    try SystemCall.status("posix_spawn_file_actions_addclosefrom_np") {
      phototimer_spawn_closefrom(&actions, 3)
    }
    var attributes = posix_spawnattr_t()
    try SystemCall.status("posix_spawnattr_init") { posix_spawnattr_init(&attributes) }
    defer { posix_spawnattr_destroy(&attributes) }
    // NB: the child starts with default signal handling and nothing blocked, whatever this
    // process ignores or blocks.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, number) }
    var empty = sigset_t()
    sigemptyset(&empty)
    try SystemCall.status("posix_spawnattr_setsigdefault") {
      posix_spawnattr_setsigdefault(&attributes, &defaults)
    }
    try SystemCall.status("posix_spawnattr_setsigmask") {
      posix_spawnattr_setsigmask(&attributes, &empty)
    }
    try SystemCall.status("posix_spawnattr_setflags") {
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    try SystemCall.status("posix_spawn") {
      posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
    }
    return pid
  }

  /// The reaper thread's body: waits for the child to end, then reaps it under the lock.
  private static func reap(_ pid: pid_t, _ state: Locked<State>, _ plan: FaultPlan?) {
    var info = siginfo_t()
    do {
      try SystemCall.value("waitid") { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
    } catch {
      // NB: the exit cannot be learnt. First no signal may be sent (the pid is about to be
      // reaped), then the child is reaped so it is not left a zombie, and only then is the
      // failure recorded: a waiter never returns while the child is still there.
      state.withLock { $0.unsignalled = true }
      var status: Int32 = 0
      _ = try? SystemCall.value("waitpid") { waitpid(pid, &status, 0) }
      plan?.reaped(pid, nil)
      let waiting = record(state) { .failure(error) }
      resume(waiting, with: .failure(error))
      return
    }
    // NB: the child is a zombie now, so this waitpid does not block; it reaps and records in
    // one critical section, so no signal can be sent between the two. The plan's ledger is
    // written in it too: a caller that finds the exit recorded (wait() without parking) must
    // find the child reaped in the ledger (under load the reaper thread was once descheduled
    // between the two, and a test saw the child "not reaped").
    let waiting = record(state) { () -> Result<Exit, SystemCallError> in
      var status: Int32 = 0
      let outcome: Result<Exit, SystemCallError>
      do throws(SystemCallError) {
        try SystemCall.value("waitpid") { waitpid(pid, &status, 0) }
        outcome = .success(decode(status))
      } catch {
        _ = waitpid(pid, &status, WNOHANG)
        outcome = .failure(error)
      }
      plan?.reaped(pid, try? outcome.get())
      return outcome
    }
    resume(waiting, with: waiting.outcome)
  }

  private typealias Waiting = (
    outcome: Result<Exit, SystemCallError>,
    waiters: [CheckedContinuation<Result<Exit, SystemCallError>, Never>],
    blocked: [DispatchSemaphore], escalation: KillTimer?
  )

  /// Under the lock that guards every signal: learns how the child ended (`ending` may reap
  /// it), records it (no signal is sent to it after this) and takes its waiters.
  private static func record(
    _ state: Locked<State>, _ ending: () -> Result<Exit, SystemCallError>
  ) -> Waiting {
    state.withLock { state in
      let outcome = ending()
      state.exit = outcome
      defer {
        state.waiters = []
        state.blockedWaiters = []
        state.escalation = nil
      }
      return (outcome, state.waiters, state.blockedWaiters, state.escalation)
    }
  }

  private static func resume(_ waiting: Waiting, with outcome: Result<Exit, SystemCallError>) {
    waiting.escalation?.cancel()
    for waiter in waiting.waiters { waiter.resume(returning: outcome) }
    for semaphore in waiting.blocked { semaphore.signal() }
  }

  private static func decode(_ status: Int32) -> Exit {
    // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import as macros.
    let signal = status & 0x7F
    if signal != 0, signal != 0x7F { return .signal(signal) }
    return .status((status >> 8) & 0xFF)
  }

  /// How the child ended, if it has been reaped; `nil` while it runs.
  package var exit: Exit? {
    state.withLock { state in
      if case .success(let exit) = state.exit { return exit }
      return nil
    }
  }

  /// Waits until the child has ended and been reaped.
  ///
  /// - Returns: How it ended.
  /// - Throws: ``SystemCallError`` when `waitid` or `waitpid` failed (the child is reaped
  ///   all the same).
  package func wait() async throws(SystemCallError) -> Exit {
    let outcome = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Exit, SystemCallError>, Never>) in
      let known = state.withLock { state in
        if state.exit == nil { state.waiters.append(continuation) }
        return state.exit
      }
      if let known { continuation.resume(returning: known) }
    }
    return try outcome.get()
  }

  /// Blocks the calling thread until the child has been reaped or `timeout` has passed:
  /// only for threads of one's own (a ``ReaderThread``), never on Swift's cooperative pool.
  ///
  /// - Parameter timeout: The longest wait; `nil` waits as long as it takes.
  /// - Returns: How the child ended, or `nil` when it is still running after `timeout`.
  package func waitBlocking(timeout: Duration?) -> Result<Exit, SystemCallError>? {
    let semaphore = DispatchSemaphore(value: 0)
    let known = state.withLock { state in
      if state.exit == nil { state.blockedWaiters.append(semaphore) }
      return state.exit
    }
    if let known { return known }
    if let timeout {
      let nanoseconds = Int(max(0, timeout.wholeNanoseconds))
      if semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
        // NB: the reaper may signal it later; a stale signal on a dropped semaphore is harmless.
        return state.withLock { $0.exit }
      }
    } else {
      semaphore.wait()
    }
    return state.withLock { $0.exit }
  }

  /// Sends `signal` to the child if it has not been reaped yet.
  ///
  /// - Returns: Whether it was sent.
  @discardableResult
  package func send(_ signal: Int32) -> Bool {
    state.withLock { state in
      guard state.exit == nil, !state.unsignalled else { return false }
      return (try? SystemCall.value("kill") { kill(pid, signal) }) != nil
    }
  }

  /// Asks the child to stop: SIGTERM now, SIGKILL if it is still there after `grace`.
  /// Returns at once; safe to call more than once and from any thread (a cancellation
  /// handler included).
  ///
  /// NB: the SIGKILL is a ``KillTimer``, not a task; the reaper cancels it.
  ///
  /// - Parameter grace: How long the child has to exit after SIGTERM.
  package func terminate(grace: Duration = .milliseconds(200)) {
    state.withLock { state in
      guard state.exit == nil, !state.unsignalled, !state.terminating else { return }
      state.terminating = true
      _ = try? SystemCall.value("kill") { kill(pid, SIGTERM) }
      state.escalation = KillTimer(after: grace) { [self] in send(SIGKILL) }
    }
  }

  /// A one-shot timer for a child (a SIGKILL after the grace, a run's time limit), cancelled
  /// when it is no longer due.
  ///
  /// NB: a dispatch timer on a serial queue of its own, not a task: Swift's cooperative pool
  /// can be saturated by CPU-bound work, and a kill must not wait for it. @unchecked Sendable:
  /// a dispatch source may be cancelled from any thread (libdispatch makes `cancel`
  /// thread-safe), and nothing else of it is touched after `resume`.
  final class KillTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    /// Runs `handler` once after `delay`, unless cancelled first.
    init(after delay: Duration, _ handler: @escaping @Sendable () -> Void) {
      source = DispatchSource.makeTimerSource(queue: Self.queue)
      source.schedule(deadline: .now() + .nanoseconds(Int(max(0, delay.wholeNanoseconds))))
      source.setEventHandler(handler: handler)
      source.resume()
    }

    func cancel() { source.cancel() }

    /// Where these timers fire: a serial queue of its own, off the cooperative pool.
    private static let queue = DispatchQueue(label: "phototimer.child-escalation")
  }

  /// Runs `body` with the pid while the child has not been reaped, under the lock that
  /// reaping takes (until then the pid is the child, or its zombie); `nil` after.
  func whileUnreaped<T>(_ body: (pid_t) -> T?) -> T? {
    state.withLock { state in state.exit == nil ? body(pid) : nil }
  }

  /// Stops the child (``terminate(grace:)``) and waits until it has been reaped.
  ///
  /// - Parameter grace: How long the child has to exit after SIGTERM.
  /// - Returns: How it ended.
  @discardableResult
  package func stop(grace: Duration = .milliseconds(200)) async throws(SystemCallError) -> Exit {
    terminate(grace: grace)
    return try await wait()
  }

  /// Closes the pipes' read ends.
  package func closePipes() {
    output.closeQuietly()
    errors.closeQuietly()
  }
}
