import PhotoTimerConcurrency

extension ChildProcess {
  /// Starts `command` with a wake pipe for the thread that will read its output (the one
  /// way to stop that thread's poll); when the pipe cannot be made, the child is stopped and
  /// reaped (this waits, on that rare path, for it to end) and nothing is left open.
  ///
  /// - Throws: ``SystemCallError`` (`posix_spawn` with `ENOENT` when the program is missing).
  package static func startWithWake(
    _ command: [String], streams: Streams = Streams()
  ) throws(SystemCallError) -> (
    ChildProcess, WakePipe
  ) {
    let child = try ChildProcess(command: command, streams: streams)
    do {
      return (child, try WakePipe())
    } catch {
      child.terminate()
      _ = child.waitBlocking(timeout: nil)
      child.closePipes()
      throw error
    }
  }

  /// What a program run to its end printed, and how it ended.
  package struct Completion: Sendable {
    /// How it ended.
    package var exit: Exit
    /// Its standard output.
    package var standardOutput: String
    /// Its standard error.
    package var standardError: String
    /// Both, in order of arrival.
    package var output: String

    /// Whether it exited with status 0.
    package var succeeded: Bool { exit == .status(0) }
  }

  /// A program that ran longer than its time limit: it was stopped (SIGTERM, then SIGKILL).
  package struct TimeLimitExceeded: Error, CustomStringConvertible {
    /// The program and its arguments.
    package var command: [String]
    /// The limit it overran.
    package var limit: Duration
    /// What it printed before it was stopped (both streams).
    package var output: String

    /// `` `exiftool -j photo.jpg` ran longer than 60 seconds and was stopped; it printed: … ``
    package var description: String {
      let printed = output.isEmpty ? "nothing" : String(output.suffix(2000))
      return
        "`\(command.joined(separator: " "))` ran longer than \(limit) and was stopped; "
        + "it printed: \(printed)"
    }
  }

  /// Runs a program to its end and returns how it ended and everything it printed.
  ///
  /// Nothing here blocks a thread of Swift's cooperative pool: the output is read on a
  /// thread of its own and the exit awaited. Cancelling the task stops the program
  /// (``terminate(grace:)``) and waits until it has been reaped; so does the time limit,
  /// which then throws ``TimeLimitExceeded`` with what the program printed. A program that
  /// leaves a child of its own holding the pipes open does not keep this waiting: once the
  /// program has exited, what is already in the pipes is read and the rest is not waited for.
  ///
  /// ```swift
  /// let exif = try await ChildProcess.run(["exiftool", "-j", path], timeLimit: .seconds(30))
  /// guard exif.succeeded else { … exif.standardError … }
  /// ```
  ///
  /// - Parameters:
  ///   - command: The program and its arguments.
  ///   - streams: Descriptors handed over as its standard streams (a terminal, say).
  ///   - timeLimit: The longest it may run; `nil` for no limit.
  ///   - received: Called on the reading thread with all of standard output so far, after
  ///     each chunk (to act on a line as it arrives: the child is there to be signalled).
  /// - Returns: The exit and the output.
  /// - Throws: ``SystemCallError`` (`posix_spawn` with `ENOENT` when the program is
  ///   missing), ``TimeLimitExceeded``, `CancellationError` when cancelled.
  package static func run(
    _ command: [String], streams: Streams = Streams(), timeLimit: Duration? = .seconds(120),
    received: (@Sendable (ChildProcess, [UInt8]) -> Void)? = nil
  ) async throws -> Completion {
    let (child, wake) = try startWithWake(command, streams: streams)
    let collected = Locked((output: [UInt8](), errors: [UInt8](), both: [UInt8]()))
    let reader = ReaderThread(name: "phototimer.output \(child.pid)") {
      Self.collect([child.output, child.errors], wake: wake) { source, chunk in
        let output = collected.withLock { bytes -> [UInt8]? in
          if source == 0 { bytes.output += chunk } else { bytes.errors += chunk }
          bytes.both += chunk
          // NB: a copy only for a caller who watches the output.
          return source == 0 && received != nil ? bytes.output : nil
        }
        if let output { received?(child, output) }
      }
    }
    let expired = Locked(false)
    let limit = timeLimit.map { limit in
      KillTimer(after: limit) {
        expired.withLock { $0 = true }
        child.terminate()
      }
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
    limit?.cancel()
    wake.signal()
    await reader.join()
    child.closePipes()
    wake.close()
    let bytes = collected.withLock { $0 }
    if let timeLimit, expired.withLock({ $0 }) {
      throw TimeLimitExceeded(
        command: command, limit: timeLimit, output: String(decoding: bytes.both, as: UTF8.self))
    }
    let exit = try outcome.get()
    try Task.checkCancellation()
    return Completion(
      exit: exit, standardOutput: String(decoding: bytes.output, as: UTF8.self),
      standardError: String(decoding: bytes.errors, as: UTF8.self),
      output: String(decoding: bytes.both, as: UTF8.self))
  }

  /// How ``collect(_:wake:endsWith:drainOnWake:chunk:timeout:received:)`` ended.
  package enum CollectEnd: Equatable, Sendable {
    /// Every source ended, or the one whose end ends the read did.
    case ended
    /// `wake` was signalled (and, when asked, what was already there was read).
    case woken
    /// The time `timeout` allowed passed with nothing read.
    case timedOut
    /// `poll` or a read failed.
    case failed(SystemCallError)
  }

  /// The one reader of a child's streams (ffmpeg's frames, gphoto2's live view, ``run(_:streams:timeLimit:received:)``'s
  /// output): reads `sources` as they become readable and hands each chunk to `received` with
  /// its source's index, on the calling thread (a ``ReaderThread``), until the sources end,
  /// `wake` is signalled or the time runs out. Never busy: it sleeps in `poll`.
  ///
  /// - Parameters:
  ///   - sources: The descriptors to read, such as `[child.output, child.errors]`.
  ///   - wake: Ends the read when signalled.
  ///   - endsWith: The index of the source whose end ends the read (a stream of frames:
  ///     the error output may stay open), or `nil` to read until every source has ended.
  ///   - drainOnWake: Whether, once woken, what is already in the sources is read (without
  ///     waiting for more) before it returns; default true.
  ///   - chunk: The most bytes one read takes.
  ///   - timeout: Asked before each wait: how long it may wait for something to read, `nil`
  ///     for as long as it takes; zero or less ends the read as ``CollectEnd/timedOut``.
  ///   - received: Called with each chunk and its source's index.
  /// - Returns: How it ended.
  @discardableResult
  package static func collect(
    _ sources: [FileDescriptor], wake: WakePipe, endsWith: Int? = nil, drainOnWake: Bool = true,
    chunk: Int = 4096, timeout: () -> Duration? = { nil },
    received: (Int, [UInt8]) -> Void
  ) -> CollectEnd {
    var open = Array(sources.indices)
    var draining = false
    while !open.isEmpty {
      let limit = draining ? Duration.zero : timeout()
      if !draining, let limit, limit <= .zero { return .timedOut }
      var requests = open.map { (sources[$0], PollEvents.readable) }
      if !draining { requests.append((wake.descriptor, .readable)) }
      let ready: [PollEvents]
      do {
        ready = try Poll.wait(requests, timeout: limit)
      } catch {
        return .failed(error)
      }
      if !draining, !ready[open.count].isEmpty {
        guard drainOnWake else { return .woken }
        draining = true
        continue
      }
      let readable = open.indices.filter { !ready[$0].isEmpty }
      if readable.isEmpty {
        if draining { return .woken }
        continue
      }
      // NB: the last first, so that removing an ended source keeps the others' places (and
      // an error stream is heard before the frames that follow what it said).
      for index in readable.reversed() {
        let source = open[index]
        let bytes: [UInt8]
        do {
          bytes = try sources[source].read(upTo: chunk)
        } catch {
          return .failed(error)
        }
        guard !bytes.isEmpty else {
          open.remove(at: index)
          if source == endsWith { return .ended }
          continue
        }
        received(source, bytes)
      }
    }
    return draining ? .woken : .ended
  }
}

/// Text arriving in chunks, cut into lines at `\n` or `\r` (a progress line rewritten in place
/// ends with `\r`): each line trimmed, empty ones dropped.
package struct LineBuffer: Sendable {
  /// What came after the last line break.
  package private(set) var rest = ""

  package init() {}

  /// Adds `bytes` and returns the lines they complete.
  package mutating func append(_ bytes: [UInt8]) -> [String] {
    rest += String(decoding: bytes, as: UTF8.self)
    var lines: [String] = []
    while let newline = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" }) {
      let line = String(
        rest[..<newline].drop { $0 == " " || $0 == "\t" }.reversed().drop {
          $0 == " " || $0 == "\t"
        }
        .reversed())
      rest = String(rest[rest.index(after: newline)...])
      if !line.isEmpty { lines.append(line) }
    }
    return lines
  }
}
