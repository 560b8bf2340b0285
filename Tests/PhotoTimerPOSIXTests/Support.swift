import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import Testing

@testable import PhotoTimerPOSIX

/// Whether a process with this pid exists (a zombie counts: it has not been reaped).
func processExists(_ pid: pid_t) -> Bool { ProcessTable.exists(pid) }

/// Runs `body` under a fresh fault plan and checks, after it, that every descriptor opened
/// under the plan was closed.
@discardableResult
func withPlan<T>(
  _ configure: (FaultPlan) -> Void = { _ in },
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> T
) async rethrows -> T {
  let plan = FaultPlan()
  configure(plan)
  let result = try await FaultPlan.$current.withValue(plan) { try await body() }
  #expect(
    plan.openDescriptors.isEmpty, "leaked \(plan.openDescriptors)", sourceLocation: sourceLocation)
  #expect(plan.remaining == 0, "planned failures not reached", sourceLocation: sourceLocation)
  let unreaped = plan.children.filter { $0.value == nil }.map(\.key)
  #expect(unreaped.isEmpty, "not reaped: \(unreaped)", sourceLocation: sourceLocation)
  return result
}

/// A child that prints "ready" once its traps are set, then spins until a signal.
func spinningChild(trap: String) throws -> ChildProcess {
  try ChildProcess(command: ["/bin/sh", "-c", "\(trap); echo ready; while :; do :; done"])
}

/// Reads the child's output until it has printed `ready`, on a thread of its own (never a
/// blocking read on the cooperative pool).
func awaitReady(_ child: ChildProcess) async throws {
  let seen = Locked("")
  let reader = ReaderThread(name: "ready") {
    while !seen.withLock({ $0.contains("ready") }) {
      guard let bytes = try? child.output.read(upTo: 64), !bytes.isEmpty else { return }
      seen.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
    }
  }
  await reader.join()
  try #require(seen.withLock { $0.contains("ready") }, "the child ended before it was ready")
}
