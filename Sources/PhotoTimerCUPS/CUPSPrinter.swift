import CCUPS
import Foundation
import PhotoTimer
import PhotoTimerConcurrency

/// A printer through CUPS (libcups): its paper checked, JPEGs sent as jobs, jobs and the
/// printer's state followed over IPP, its queue resumed.
///
/// It talks to the print server libcups names (`CUPS_SERVER`, `~/.cups/client.conf`, else the
/// local one); each call opens its own connection on a thread of its own, so nothing blocks
/// the pool and nothing is shared between threads.
///
/// ```swift
/// let printer = CUPSPrinter(destination: "selphy")
/// let media = try await printer.media(for: PrintPage(width: 2, height: 6))
/// let job = try await printer.submit(file: path, title: "booth 3", copies: 1, media: media)
/// ```
package struct CUPSPrinter: PrintService {
  /// The destination's name; `nil`: the print server's default.
  package let destination: String?
  /// The print server (a socket's path or a host); `nil`: the one libcups names.
  package let server: String?

  /// A printer for `destination`, or the default one, on `server` or libcups's own.
  package init(destination: String?, server: String? = nil) {
    self.destination = destination
    self.server = server
  }

  package var name: String { destination ?? "the default printer" }

  package func media(for page: PrintPage) async throws(PrintError) -> PrintMedia {
    try await call { connection in try connection.media(for: page) }
  }

  package func submit(
    file: String, title: String, copies: Int, media: PrintMedia
  ) async throws(PrintError) -> Int {
    try await call { connection in
      try connection.submit(file: file, title: title, copies: copies, media: media)
    }
  }

  package func job(_ id: Int) async throws(PrintError) -> PrintJobStatus {
    try await call { connection in try connection.job(id) }
  }

  package func status() async throws(PrintError) -> PrinterStatus {
    try await call { connection in try connection.status() }
  }

  package func resume() async throws(PrintError) {
    try await call { connection in try connection.resume() }
  }

  /// The paper for `page`, asked on this thread: for a program that cannot wait yet (the
  /// window, before its loop runs).
  package func mediaBlocking(for page: PrintPage) throws(PrintError) -> PrintMedia {
    let connection = try CUPSConnection(destination: destination, server: server)
    defer { connection.close() }
    return try connection.media(for: page)
  }

  /// The print server's destinations, for `doctor`: each one's state and paper.
  package static func destinations(
    server: String? = nil
  ) async throws(PrintError) -> [CUPSDestination] {
    try await Self(destination: nil, server: server).call { connection in connection.destinations()
    }
  }

  /// Runs `work` on a connection of its own, on a thread of its own.
  private func call<Value: Sendable>(
    _ work: @escaping @Sendable (CUPSConnection) throws -> Value
  ) async throws(PrintError) -> Value {
    let destination = destination
    let server = server
    do {
      return try await OffPool.blocking { _ in
        let connection = try CUPSConnection(destination: destination, server: server)
        defer { connection.close() }
        return try work(connection)
      }
    } catch let error as PrintError {
      throw error
    } catch {
      throw PrintError("printing was cancelled")
    }
  }
}

/// A destination as `doctor` shows it.
package struct CUPSDestination: Equatable, Sendable {
  /// Its name.
  package var name: String
  /// Whether it is the default.
  package var isDefault: Bool
  /// Its make and model, as CUPS has it.
  package var model: String
  /// Its state.
  package var status: PrinterStatus
  /// The paper it offers (names a person reads), or why they could not be read.
  package var media: [String]
}
