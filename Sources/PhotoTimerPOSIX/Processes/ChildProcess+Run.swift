import PhotoTimer

extension ChildProcess {
  /// Starts `command` with a wake pipe for the thread that will read its output (the one
  /// way to stop that thread's poll); when the pipe cannot be made, the child is stopped and
  /// reaped (this waits, on that rare path, for it to end) and nothing is left open.
  ///
  /// - Throws: ``SystemCallError`` (`posix_spawn` with `ENOENT` when the program is missing).
  package static func startWithWake(
    _ command: [String]
  ) throws(SystemCallError) -> (
    ChildProcess, WakePipe
  ) {
    let child = try ChildProcess(command: command)
    do {
      return (child, try WakePipe())
    } catch {
      child.terminate()
      _ = child.waitBlocking(timeout: nil)
      child.closePipes()
      throw error
    }
  }

  /// Runs a program to its end and returns how it ended and everything it printed
  /// (standard output and standard error together, in order of arrival).
  ///
  /// The output is read on a thread of its own. Cancelling the task stops the program
  /// (``terminate(grace:)``) and waits until it has been reaped. A program that leaves a
  /// child of its own holding the pipes open does not keep this waiting: once the program
  /// has exited, what is already in the pipes is read and the rest is not waited for.
  ///
  /// - Parameter command: The program and its arguments.
  /// - Returns: The exit and the output.
  /// - Throws: ``SystemCallError`` (`posix_spawn` with `ENOENT` when the program is
  ///   missing), `CancellationError` when cancelled.
  package static func run(_ command: [String]) async throws -> (exit: Exit, output: String) {
    let (child, wake) = try startWithWake(command)
    let collected = Locked([UInt8]())
    let reader = ReaderThread(name: "phototimer.output \(child.pid)") {
      let bytes = Self.collect([child.output, child.errors], wake: wake)
      collected.withLock { $0 = bytes }
    }
    let outcome: Result<Exit, SystemCallError> = await withTaskCancellationHandler {
      do throws(SystemCallError) {
        return .success(try await child.wait())
      } catch {
        return .failure(error)
      }
    } onCancel: {
      child.terminate()
    }
    wake.signal()
    await reader.join()
    child.closePipes()
    wake.close()
    let exit = try outcome.get()
    try Task.checkCancellation()
    return (exit, String(decoding: collected.withLock { $0 }, as: UTF8.self))
  }

  /// Reads `sources` until each has ended, or until `wake` is signalled; then takes what is
  /// already there without waiting. On a thread of its own.
  static func collect(_ sources: [FileDescriptor], wake: WakePipe) -> [UInt8] {
    var bytes: [UInt8] = []
    var open = sources
    var draining = false
    while !open.isEmpty {
      let requests = open.map { ($0, PollEvents.readable) } + [(wake.descriptor, .readable)]
      guard
        let ready = try? Poll.wait(
          draining ? Array(requests.dropLast()) : requests, timeout: draining ? .zero : nil)
      else { break }
      if !draining, !ready[open.count].isEmpty {
        draining = true
        continue
      }
      let readable = open.indices.filter { !ready[$0].isEmpty }
      if readable.isEmpty {
        if draining { break }
        continue
      }
      for index in readable.reversed() {
        guard let chunk = try? open[index].read(upTo: 4096), !chunk.isEmpty else {
          open.remove(at: index)
          continue
        }
        bytes += chunk
      }
    }
    return bytes
  }
}
