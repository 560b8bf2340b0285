import Foundation
import PhotoTimerHarnesses
import Testing

@testable import PhotoTimerPOSIX

@Suite("The process table (/proc)", .timeLimit(.minutes(1)))
struct ProcessTableTests {
  @Test("A stat line: the name may hold spaces and parentheses; parent, state and CPU time")
  func parsesStat() throws {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let line =
      "4242 (a (b) c) S 17 4242 4242 0 -1 4194560 120 0 0 0 \(Int(ticks) * 3) \(Int(ticks)) 0 0"
      + " 20 0 1 0 100 1000 10\n"
    let entry = try #require(ProcessEntry(pid: 4242, stat: line))
    #expect(entry.name == "a (b) c")
    #expect(entry.parent == 17)
    #expect(entry.state == "S")
    #expect(entry.cpuSeconds == 4)
  }

  @Test(
    "A damaged stat line is no entry", arguments: ["", "12 (sh", "12 sh) S 1", "12 (sh) S x 1"])
  func refusesDamaged(_ line: String) {
    #expect(ProcessEntry(pid: 12, stat: line) == nil)
  }

  @Test("A child shows as ours, by name, with its arguments; once reaped it is gone")
  func findsChild() async throws {
    let child = try ChildProcess(command: ["/bin/sleep", "30"])
    await untilExecuted(child.pid)
    let mine = ProcessTable.children(of: getpid(), named: "sleep")
    #expect(mine.map(\.pid).contains(child.pid))
    #expect(!ProcessTable.children(of: getpid(), named: "no-such").contains { $0.pid == child.pid })
    #expect(ProcessTable.commandLine(of: child.pid) == ["/bin/sleep", "30"])
    #expect(ProcessTable.exists(child.pid))
    _ = try await child.stop(grace: .seconds(1))
    child.closePipes()
    #expect(!ProcessTable.exists(child.pid))
    #expect(ProcessTable.commandLine(of: child.pid).isEmpty)
    #expect(ProcessEntry(pid: child.pid) == nil)
  }

  @Test("An empty argument keeps its place on the command line")
  func emptyArgument() async throws {
    let command = ["/bin/sh", "-c", "sleep 30; :", "", "b"]
    let child = try ChildProcess(command: command)
    await untilExecuted(child.pid)
    #expect(ProcessTable.commandLine(of: child.pid) == command)
    _ = try await child.stop(grace: .seconds(1))
    child.closePipes()
  }

  @Test("A /proc file longer than a page is read whole: 60 listening sockets in /proc/net/tcp")
  func readsWhole() throws {
    var listeners: [Int32] = []
    defer { for fd in listeners { close(fd) } }
    var ports: Set<UInt16> = []
    for _ in 0..<60 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      try #require(fd >= 0)
      listeners.append(fd)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
      }
      try #require(bound && listen(fd, 1) == 0)
      ports.insert(UInt16(bigEndian: address.sin_port))
    }
    let table = String(
      decoding: try #require(ProcessTable.contents(of: "/proc/net/tcp")), as: UTF8.self)
    #expect(table.utf8.count > 4_096)
    let listed = Set(
      table.split(separator: "\n").dropFirst().compactMap { line in
        line.split(separator: " ").dropFirst().first?.split(separator: ":").last.flatMap {
          UInt16($0, radix: 16)
        }
      })
    #expect(ports.isSubset(of: listed), "missing: \(ports.subtracting(listed).sorted())")
    #expect(ProcessTable.contents(of: "/proc/no-such-file") == nil)
  }
}

/// Waits until process `pid` shows its new program. NB: posix_spawn returns once the kernel
/// has swapped the child's memory, a moment before it sets the new name and arguments, so a
/// look right away can still see the parent's name and an empty command line.
private func untilExecuted(_ pid: Int32) async {
  let ours = ProcessEntry(pid: getpid())?.name
  // NB: a cancelled task (the test's time limit) stops: its sleep throws at once, and the
  // loop would spin on a thread of the pool for ever.
  while ProcessTable.commandLine(of: pid).isEmpty || ProcessEntry(pid: pid)?.name == ours {
    guard (try? await Task.sleep(for: .milliseconds(1))) != nil else { return }
  }
}
