import Foundation
import PhotoTimer
import PhotoTimerImaging

#if canImport(Glibc)
  import Glibc
#endif

/// A child process started with an argument array (never a shell), its standard output and
/// standard error on pipes, and a way to stop it that always reaps it: SIGTERM, then SIGKILL
/// if it has not gone within a grace period.
package final class ChildProcess: Sendable {
  /// The child's process id.
  package let pid: pid_t
  /// The read end of its standard output.
  package let output: Int32
  /// The read end of its standard error.
  package let errors: Int32
  private let reaped = Locked<Int32?>(nil)

  /// What ended a child.
  package enum Exit: Equatable {
    case status(Int32)
    case signal(Int32)
  }

  /// Starts `command` (the program, then its arguments); standard input is /dev/null.
  ///
  /// - Throws: `POSIXError` with the spawn's errno (`ENOENT` when the program is missing).
  package init(command: [String]) throws {
    let executable = command.first ?? ""
    var out: [Int32] = [-1, -1]
    var err: [Int32] = [-1, -1]
    guard makePipe(&out) else { throw POSIXError(.EMFILE) }
    guard makePipe(&err) else {
      close(out[0])
      close(out[1])
      throw POSIXError(.EMFILE)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_adddup2(&actions, err[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // NB: the child starts with default signal handling, whatever this process ignores.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    let argv = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
    close(out[1])
    close(err[1])
    guard result == 0 else {
      close(out[0])
      close(err[0])
      throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)
    }
    self.pid = pid
    output = out[0]
    errors = err[0]
  }

  /// How the child ended, if it has (without waiting).
  package func poll() -> Exit? {
    if let status = reaped.withLock({ $0 }) { return Self.exit(status) }
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    guard result == pid else { return nil }
    reaped.withLock { $0 = status }
    return Self.exit(status)
  }

  /// Stops the child: SIGTERM, SIGKILL after `grace`, and reaps it; closes the pipes.
  /// Safe to call more than once.
  @discardableResult
  package func stop(grace: Duration = .milliseconds(200)) -> Exit? {
    if poll() == nil {
      kill(pid, SIGTERM)
      let deadline = ContinuousClock.now + grace
      while poll() == nil, ContinuousClock.now < deadline { usleep(2_000) }
      if poll() == nil {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped.withLock { $0 = status }
      }
    }
    return poll()
  }

  /// Closes the pipes' read ends.
  package func closePipes() {
    close(output)
    close(errors)
  }

  private static func exit(_ status: Int32) -> Exit {
    // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import as macros.
    let signal = status & 0x7F
    if signal != 0, signal != 0x7F { return .signal(signal) }
    return .status((status >> 8) & 0xFF)
  }
}

/// A pipe whose both ends close on exec, so no other child inherits them.
func makePipe(_ fds: inout [Int32]) -> Bool {
  guard pipe(&fds) == 0 else { return false }
  _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
  return true
}

extension ChildProcess {
  /// Runs a program to its end and returns its exit and everything it printed (standard
  /// output and standard error together, in order of arrival). Cancelling the task stops it
  /// (SIGTERM, then SIGKILL) and reaps it.
  ///
  /// - Throws: `POSIXError(.ENOENT)` when the program is missing, `CancellationError` when
  ///   cancelled.
  package static func run(
    _ command: [String]
  ) async throws -> (
    exit: Exit, output: String
  ) {
    let child = try ChildProcess(command: command)
    let collected = Locked(Data())
    return try await withTaskCancellationHandler {
      let exit: Exit
      do {
        exit = try await OffPool.run { _ in
          var buffer = [UInt8](repeating: 0, count: 4096)
          var descriptors = [
            pollfd(fd: child.output, events: Int16(POLLIN), revents: 0),
            pollfd(fd: child.errors, events: Int16(POLLIN), revents: 0),
          ]
          var open = 2
          while open > 0 {
            guard Glibc.poll(&descriptors, 2, 200) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where descriptors[index].revents != 0 {
              let count = read(descriptors[index].fd, &buffer, buffer.count)
              if count <= 0 {
                descriptors[index].fd = -1
                open -= 1
              } else {
                collected.withLock { $0.append(contentsOf: buffer[0..<count]) }
              }
            }
          }
          // Both pipes closed: the program is ending; reap it (bounded, then stop it).
          let deadline = ContinuousClock.now + .seconds(5)
          while child.poll() == nil, ContinuousClock.now < deadline { usleep(1_000) }
          return child.poll() ?? child.stop() ?? .status(-1)
        }
      } catch {
        // Cancelled before the reading thread started: the cancel handler stopped the child.
        child.stop()
        child.closePipes()
        throw error
      }
      child.closePipes()
      try Task.checkCancellation()
      return (exit, String(decoding: collected.withLock { $0 }, as: UTF8.self))
    } onCancel: {
      child.stop(grace: .milliseconds(200))
    }
  }
}
