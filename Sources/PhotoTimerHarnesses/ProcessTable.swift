import Foundation
import PhotoTimerPOSIX

#if canImport(Glibc)
  import Glibc
#endif

/// One process as Linux's `/proc/PID/stat` shows it.
package struct ProcessEntry: Hashable, Sendable {
  /// Its process id.
  package var pid: Int32
  /// Its name: the program's file name, cut to 15 bytes by the kernel (`comm`).
  package var name: String
  /// The pid of its parent.
  package var parent: Int32
  /// Its state letter: `R` running, `S` sleeping, `Z` a zombie not yet reaped, and so on.
  package var state: Character
  /// The CPU time its own threads have used, user and system together, in seconds.
  package var cpuSeconds: Double

  /// Reads the entry of process `pid`, or `nil` when there is none (or it is not readable).
  package init?(pid: Int32) {
    guard let stat = ProcessTable.contents(of: "/proc/\(pid)/stat") else { return nil }
    self.init(pid: pid, stat: String(decoding: stat, as: UTF8.self))
  }

  /// Parses one `stat` line. The name sits between the first `(` and the *last* `)`: it may
  /// itself hold spaces and parentheses.
  package init?(pid: Int32, stat: String) {
    guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
      open < close
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let state = fields[0].first, let parent = Int32(fields[1]),
      let user = Double(fields[11]), let system = Double(fields[12])
    else { return nil }
    self.pid = pid
    self.name = String(stat[stat.index(after: open)..<close])
    self.parent = parent
    self.state = state
    self.cpuSeconds = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}

/// The processes on this machine, from Linux's `/proc`: for tests and benchmarks that check
/// what a run left behind (no ffmpeg, no stand-in) and what it cost.
package enum ProcessTable {
  /// Every process there is now.
  package static func all() -> [ProcessEntry] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { Int32($0) }.compactMap { ProcessEntry(pid: $0) }
  }

  /// The processes whose parent is `pid`, only those called `name` when it is given.
  package static func children(of pid: Int32, named name: String? = nil) -> [ProcessEntry] {
    all().filter { $0.parent == pid && (name == nil || $0.name == name) }
  }

  /// The arguments process `pid` was started with, its program first; empty when it is gone.
  package static func commandLine(of pid: Int32) -> [String] {
    guard let data = contents(of: "/proc/\(pid)/cmdline") else { return [] }
    return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// The whole of a `/proc` file (or any other), read to its end; `nil` when it cannot be
  /// opened.
  ///
  /// NB: not `String(contentsOfFile:)` nor `FileManager.contents(atPath:)`: a `/proc` file says
  /// its size is 0, and Foundation then reads one page of it. `/proc/net/tcp` came back cut
  /// after 26 sockets, and the gpsd tests, counting their sockets in it, missed theirs.
  ///
  /// NB: plain `open` and `read`, not the ``SystemCall`` funnel: looking at the process table
  /// must not use up the failures a test's ``FaultPlan`` planned for the code under test.
  package static func contents(of path: String) -> [UInt8]? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return bytes
  }

  /// Whether process `pid` exists; a zombie counts, as it has not been reaped.
  package static func exists(_ pid: Int32) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)")
  }
}
