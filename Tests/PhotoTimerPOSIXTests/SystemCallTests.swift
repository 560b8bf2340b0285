import Foundation
import Testing

@testable import PhotoTimerPOSIX

@Suite("The syscall funnel")
struct SystemCallTests {
  @Test("EINTR is retried: three interrupted pipe calls, then a pipe")
  func retriesInterrupts() async throws {
    let plan = FaultPlan()
    plan.fail("pipe", with: .interrupted, times: 3)
    try await withPlan({ _ in }) {
      try FaultPlan.$current.withValue(plan) {
        let pipe = try PipeDescriptors()
        pipe.close()
      }
    }
    #expect(plan.injected == ["pipe", "pipe", "pipe"])
    #expect(plan.openDescriptors.isEmpty)
  }

  @Test(
    "A failing call throws its own name and errno",
    arguments: [
      ("pipe", Errno.tooManyOpenFiles), ("pipe", Errno.outOfMemory),
      ("poll", Errno.invalidArgument),
      ("read", Errno.ioError),
    ])
  func failureKeepsNameAndErrno(call: String, errno: Errno) async throws {
    await withPlan({ $0.fail(call, with: errno) }) {
      let error = #expect(throws: SystemCallError.self) {
        let pipe = try PipeDescriptors()
        defer { pipe.close() }
        try pipe.writeEnd.writeAll([1, 2, 3])
        _ = try Poll.wait([(pipe.readEnd, .readable)], timeout: .seconds(1))
        _ = try pipe.readEnd.read(upTo: 3)
      }
      #expect(error == SystemCallError(call: call, errno: errno))
      #expect(error?.description.hasPrefix("\(call) failed: \(errno) (errno ") == true)
    }
  }

  @Test("A closed descriptor is closed once and refuses I/O with EBADF")
  func closedOnce() async throws {
    try await withPlan {
      let pipe = try PipeDescriptors()
      try pipe.readEnd.close()
      try pipe.readEnd.close()
      #expect(!pipe.readEnd.isOpen)
      #expect(throws: SystemCallError(call: "read", errno: .badDescriptor)) {
        _ = try pipe.readEnd.read(upTo: 1)
      }
      pipe.close()
    }
  }

  @Test("A wake pipe wakes a poller once, and a signal after close does nothing")
  func wakePipe() async throws {
    try await withPlan {
      let wake = try WakePipe()
      #expect(try Poll.wait([(wake.descriptor, .readable)], timeout: .zero) == [[]])
      wake.signal()
      wake.signal()
      #expect(try Poll.wait([(wake.descriptor, .readable)], timeout: .zero) == [.readable])
      #expect(try wake.descriptor.read(upTo: 8) == [1])
      wake.close()
      wake.signal()
    }
  }

  @Test("A reader thread can be joined by several tasks, before and after it ended")
  func readerThreadJoins() async throws {
    try await withPlan {
      let wake = try WakePipe()
      let reader = ReaderThread(name: "test") {
        _ = try? Poll.wait([(wake.descriptor, .readable)])
      }
      async let first: Void = reader.join()
      async let second: Void = reader.join()
      wake.signal()
      _ = await (first, second)
      #expect(reader.isFinished)
      await reader.join()
      wake.close()
    }
  }

  @Test("A TCP connect to a closed port is refused, and leaks no socket")
  func connectRefused() async throws {
    try await withPlan {
      let wake = try WakePipe()
      defer { wake.close() }
      #expect(throws: ConnectError.refused) {
        // NB: port 1 on loopback: nothing listens there, and it is never a server of ours.
        _ = try FileDescriptor.connectTCP(
          host: "127.0.0.1", port: 1, timeout: .seconds(2), wake: wake)
      }
      #expect(
        throws: ConnectError.system(SystemCallError(call: "socket", errno: .tooManyOpenFiles))
      ) {
        try FaultPlan.$current.withValue(
          {
            let plan = FaultPlan()
            plan.fail("socket", with: .tooManyOpenFiles)
            return plan
          }()
        ) {
          _ = try FileDescriptor.connectTCP(
            host: "127.0.0.1", port: 1, timeout: .seconds(2), wake: wake)
        }
      }
    }
  }

  @Test("File-system calls go through the funnel: link refuses a taken name with EEXIST")
  func linkRefusesTakenName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a").path
    let b = folder.appendingPathComponent("b").path
    try Data("a".utf8).write(to: URL(fileURLWithPath: a))
    try Data("b".utf8).write(to: URL(fileURLWithPath: b))
    #expect(throws: SystemCallError(call: "link", errno: .fileExists)) {
      try FileSystem.link(a, b)
    }
    try FileSystem.unlink(b)
    try FileSystem.link(a, b)
    #expect(FileSystem.canWriteFolder(folder.path))
    #expect(FileSystem.isExecutable("/bin/sh"))
  }
}
