import CMallocControl
import Foundation

/// The process's resident set size, from /proc/self/statm (Linux), in bytes.
/// Free heap memory is returned to the system first, so the figure is live memory.
func residentBytes() -> Int {
  _ = phototimer_malloc_trim()
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return 0
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
