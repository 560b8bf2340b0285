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
