#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one funnel for system calls: retries `EINTR`, and turns -1 into an error that keeps the
/// call's name and errno.
@discardableResult
func syscall<Result: BinaryInteger>(
  _ name: String, _ body: () -> Result
) throws(GPSDError)
  -> Result
{
  while true {
    let result = body()
    if result != -1 { return result }
    let code = errno
    if code == EINTR { continue }
    throw .system(call: name, errno: code, message: String(cString: strerror(code)))
  }
}
