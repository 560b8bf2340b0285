import Foundation

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
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return nil
    }
    self.init(pid: pid, stat: stat)
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
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
      return []
    }
    return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Whether process `pid` exists; a zombie counts, as it has not been reaped.
  package static func exists(_ pid: Int32) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)")
  }
}
