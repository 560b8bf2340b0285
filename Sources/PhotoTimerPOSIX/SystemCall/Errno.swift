#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error number from the C library, as a value.
///
/// ```swift
/// if error.errno == .noSuchFile { … }
/// ```
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The number, as `errno` holds it.
  public var rawValue: Int32

  /// Wraps an error number.
  ///
  /// - Parameter rawValue: The number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The C library's words for it, for example `"No such file or directory"`.
  public var description: String { String(cString: strerror(rawValue)) }

  /// `EINTR`: interrupted by a signal (the funnel retries it).
  public static let interrupted = Errno(rawValue: EINTR)
  /// `ENOENT`.
  public static let noSuchFile = Errno(rawValue: ENOENT)
  /// `EMFILE`: this process has no descriptor left.
  public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
  /// `EBADF`.
  public static let badDescriptor = Errno(rawValue: EBADF)
  /// `EAGAIN`.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `ECHILD`.
  public static let noChild = Errno(rawValue: ECHILD)
  /// `EIO`.
  public static let ioError = Errno(rawValue: EIO)
  /// `EPIPE`: the reading end of a pipe was closed.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// `ENOSPC`.
  public static let noSpace = Errno(rawValue: ENOSPC)
  /// `EDQUOT`.
  public static let quotaExceeded = Errno(rawValue: EDQUOT)
  /// `EACCES`.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// `EPERM`.
  public static let notPermitted = Errno(rawValue: EPERM)
  /// `EROFS`.
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)
  /// `ENOTDIR`.
  public static let notADirectory = Errno(rawValue: ENOTDIR)
  /// `EEXIST`.
  public static let fileExists = Errno(rawValue: EEXIST)
  /// `ECONNREFUSED`.
  public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// `EINPROGRESS`.
  public static let inProgress = Errno(rawValue: EINPROGRESS)
  /// `EINVAL`.
  public static let invalidArgument = Errno(rawValue: EINVAL)
  /// `ENOMEM`.
  public static let outOfMemory = Errno(rawValue: ENOMEM)
}

/// A system call that failed: its name and its error number.
///
/// Its description reads like `poll failed: Bad file descriptor (errno 9)`.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call, such as `"posix_spawn"` or `"poll"`.
  public var call: String
  /// What it failed with.
  public var errno: Errno

  /// Creates the error.
  ///
  /// - Parameters:
  ///   - call: The call's name.
  ///   - errno: Its error number.
  public init(call: String, errno: Errno) {
    self.call = call
    self.errno = errno
  }

  /// `"<call> failed: <strerror> (errno N)"`.
  public var description: String { "\(call) failed: \(errno) (errno \(errno.rawValue))" }
}
