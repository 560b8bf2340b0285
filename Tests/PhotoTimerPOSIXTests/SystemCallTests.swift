import Foundation
import PhotoTimer
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

  @Test("Interfaces are listed through the funnel: loopback is there, a failure is the call's")
  func interfaces() async throws {
    let all = try NetworkInterfaces.ipv4()
    #expect(all.contains { $0.address == "127.0.0.1" && $0.isLoopback && $0.isUp })
    await withPlan({ $0.fail("getifaddrs", with: .outOfMemory) }) {
      #expect(throws: SystemCallError(call: "getifaddrs", errno: .outOfMemory)) {
        try NetworkInterfaces.ipv4()
      }
    }
    #expect(NetworkInterfaces.isNumeric("10.0.0.5"))
    #expect(NetworkInterfaces.isNumeric("::1"))
    #expect(!NetworkInterfaces.isNumeric("camera.local"))
  }

  @Test("The remote's pure address check reads addresses as inet_pton does")
  func numericAddresses() {
    let texts = [
      "10.0.0.5", "127.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3", "1.2.3.4.5",
      "01.2.3.4", "1..2.3", "1.2.3.4 ", "", ".", "a.b.c.d", "::", "::1", "1::", "fe80::1",
      "2001:db8::8a2e:370:7334", "2001:0db8:0000:0000:0000:ff00:0042:8329", "1:2:3:4:5:6:7:8",
      "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "1::2::3", ":::", ":1::",
      "12345::", "g::1", "::ffff:10.0.0.5", "::ffff:10.0.0", "1:2:3:4:5:6:1.2.3.4",
      "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4", "[::1]", "fe80::1%eth0", "camera.local", "localhost",
      "١٢٣.1.1.1",
    ]
    for text in texts {
      #expect(RemoteAddress.isNumeric(text) == NetworkInterfaces.isNumeric(text), "\(text)")
    }
  }

  @Test("A Unix socket answers while someone listens, and not once they stop; no descriptor left")
  func unixSocket() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sock-\(UUID().uuidString.prefix(8))"
    ).path
    defer { unlink(path) }
    try await withPlan { () async throws in
      #expect(try !FileDescriptor.unixSocketAnswers(at: path))
      let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      #expect(listener >= 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      #expect(bound == 0)
      #expect(listen(listener, 4) == 0)
      #expect(try FileDescriptor.unixSocketAnswers(at: path))
      close(listener)
      #expect(try !FileDescriptor.unixSocketAnswers(at: path))
      #expect(try !FileDescriptor.unixSocketAnswers(at: String(repeating: "x", count: 200)))
    }
    await withPlan({ $0.fail("socket", with: .tooManyOpenFiles) }) {
      #expect(throws: SystemCallError(call: "socket", errno: .tooManyOpenFiles)) {
        try FileDescriptor.unixSocketAnswers(at: path)
      }
    }
  }
}
