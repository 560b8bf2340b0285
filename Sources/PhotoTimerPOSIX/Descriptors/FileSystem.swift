#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path calls of the file system, through the funnel.
package enum FileSystem {
  /// Flags for ``FileDescriptor/open(_:flags:mode:)``.
  package enum OpenFlags {
    /// A new file for writing; fails with `EEXIST` if the name is taken.
    package static let createNew = O_WRONLY | O_CREAT | O_EXCL
    /// A folder, to `fsync` its entries.
    package static let folder = O_RDONLY | O_DIRECTORY
    /// A file, to read.
    package static let readOnly = O_RDONLY
    /// A log, to add lines at its end (made when missing): each write lands whole at the end,
    /// even beside another process writing the same file.
    package static let appending = O_WRONLY | O_CREAT | O_APPEND
    /// A device node, to query and control without waiting on it.
    package static let device = O_RDWR | O_NONBLOCK
  }

  /// What `stat` says of a path (symbolic links followed).
  package struct Status: Sendable, Equatable {
    /// Whether it is a regular file.
    package let isRegularFile: Bool
    /// Whether it is a folder.
    package let isFolder: Bool
    /// Its size in bytes.
    package let size: Int64
  }

  /// `stat` of `path`, through the funnel.
  ///
  /// - Throws: ``SystemCallError`` from `stat` (`ENOENT`, `ENOTDIR` when nothing is there).
  package static func status(of path: String) throws(SystemCallError) -> Status {
    var raw = stat()
    try SystemCall.value("stat") { stat(path, &raw) }
    let kind = raw.st_mode & S_IFMT
    return Status(
      isRegularFile: kind == S_IFREG, isFolder: kind == S_IFDIR, size: Int64(raw.st_size))
  }

  /// Sets an environment variable of this process (`setenv`, replacing a value already set).
  ///
  /// Call it only before the process starts threads that read the environment (its main
  /// function's first lines): `setenv` beside a thread that reads the environment is a race
  /// the C library does not guard.
  ///
  /// - Throws: ``SystemCallError`` from `setenv` (`EINVAL` for a bad name, `ENOMEM`).
  package static func setEnvironment(_ name: String, to value: String) throws(SystemCallError) {
    try SystemCall.value("setenv") { setenv(name, value, 1) }
  }

  /// The monotonic clock (`CLOCK_MONOTONIC`) now, in nanoseconds: the same clock in every
  /// process of the machine, so comparable across them (a trace and its reader).
  package static var monotonicNanoseconds: Int64 {
    var now = timespec()
    // NB: cannot fail for CLOCK_MONOTONIC with a valid pointer.
    _ = try? SystemCall.value("clock_gettime") { clock_gettime(CLOCK_MONOTONIC, &now) }
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }

  /// Gives the file at `existing` a second name, `new`; never replaces a file already there.
  ///
  /// - Throws: ``SystemCallError`` from `link` (`EEXIST` when `new` is taken).
  package static func link(_ existing: String, _ new: String) throws(SystemCallError) {
    try SystemCall.value("link") { Glibc.link(existing, new) }
  }

  /// Removes the name `path`.
  ///
  /// - Throws: ``SystemCallError`` from `unlink`.
  package static func unlink(_ path: String) throws(SystemCallError) {
    try SystemCall.value("unlink") { Glibc.unlink(path) }
  }

  /// Whether this process may create files in the folder at `path` (write and search).
  package static func canWriteFolder(_ path: String) -> Bool {
    access(path, W_OK | X_OK) == 0
  }

  /// Whether the file at `path` may be run by this process.
  package static func isExecutable(_ path: String) -> Bool {
    access(path, X_OK) == 0
  }

  /// This process's id, for names of temporary files.
  package static var processID: Int32 { getpid() }
}

extension SignalWatcher {
  /// Signal numbers by name.
  package enum Signal {
    /// SIGINT: Ctrl-C.
    package static let interrupt = SIGINT
    /// SIGTERM: asked to end.
    package static let terminate = SIGTERM
    /// SIGHUP: the terminal went away.
    package static let hangUp = SIGHUP
  }

  /// Makes writing to a closed pipe an error (`EPIPE`) instead of a signal that kills the
  /// process: `phototimer --json | head -1` must still restore the terminal.
  package static func ignoreBrokenPipe() {
    signal(SIGPIPE, SIG_IGN)
  }
}
