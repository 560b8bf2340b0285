import Foundation
import PhotoTimerConcurrency
import PhotoTimerPOSIX

/// A CUPS of its own (Debian's `cups-daemon`), for the print tests and benchmark: `cupsd` in
/// the foreground with its configuration, spool, state, logs and socket in a temporary
/// folder, and printers that print PDFs into that folder. No system CUPS and nothing under
/// /etc is touched; `CUPS_SERVER=`<socket> points a client at it.
///
/// Its printers:
/// - ``addPDFPrinter(_:)``: CUPS's `file:` device with the tests' photo-printer driver (a PDF
///   printer with 2 × 6 in, 4 × 6 in and 6 × 8 in paper, each with a borderless variant).
/// - ``addTroublePrinter(_:)``: the same driver into the tests' own backend, which writes the
///   PDF only while the printer has paper (``loadPaper(_:)``): without, it reports
///   `media-empty-error` and stops the queue, as a photo printer out of paper does. With a
///   `slow` file in its folder it takes five seconds over each job.
///
/// Needs root (`lpadmin` over the socket, and `cupsd` drops to `lp` itself).
package final class PrintServer: Sendable {
  /// The folder everything is in; removed by ``stop()``.
  package let folder: String
  /// The socket clients connect to: `CUPS_SERVER`.
  package let socket: String
  private let process: ChildProcess

  /// Starts `cupsd` and returns once it answers on its socket.
  ///
  /// - Throws: ``PrintServerError`` when it cannot be started or does not answer in 20 s.
  package init() async throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-cups-\(getpid())-\(UUID().uuidString.prefix(8))")
    let folder = base.path
    let manager = FileManager.default
    for sub in ["spool", "cache", "state", "log", "tmp", "root/ppd", "bin/backend", "out"] {
      try manager.createDirectory(
        atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
    }
    // NB: cupsd runs its filters and backends as lp: they read the folder and write into
    // `out` and `tmp`.
    for (path, mode) in [("", 0o755), ("tmp", 0o1777), ("out", 0o777)] {
      try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: "\(folder)/\(path)")
    }
    for part in ["filter", "daemon", "driver", "notifier", "cgi-bin", "monitor"] {
      let system = "/usr/lib/cups/\(part)"
      if manager.fileExists(atPath: system) {
        try manager.createSymbolicLink(atPath: "\(folder)/bin/\(part)", withDestinationPath: system)
      }
    }
    try Self.write(Self.backend, to: "\(folder)/bin/backend/phototimer-test", mode: 0o755)
    try Self.write(Self.driver, to: "\(folder)/photo-printer.ppd", mode: 0o644)
    socket = "\(folder)/cups.sock"
    try Self.write(
      """
      Listen \(folder)/cups.sock
      LogLevel info
      WebInterface No
      Browsing No
      JobRetryLimit 1
      <Location />
        Order allow,deny
        Allow all
      </Location>
      <Policy default>
        <Limit All>
          Order deny,allow
        </Limit>
      </Policy>

      """, to: "\(folder)/cupsd.conf", mode: 0o644)
    try Self.write(
      """
      ServerRoot \(folder)/root
      RequestRoot \(folder)/spool
      CacheDir \(folder)/cache
      StateDir \(folder)/state
      TempDir \(folder)/tmp
      ServerBin \(folder)/bin
      AccessLog \(folder)/log/access_log
      ErrorLog \(folder)/log/error_log
      PageLog \(folder)/log/page_log
      Printcap \(folder)/printcap
      User lp
      Group lp
      FileDevice Yes

      """, to: "\(folder)/cups-files.conf", mode: 0o644)
    self.folder = folder
    process = try ChildProcess(command: [
      "cupsd", "-f", "-c", "\(folder)/cupsd.conf", "-s", "\(folder)/cups-files.conf",
    ])
    do {
      try await waitUntilAnswering()
    } catch {
      await stop()
      throw error
    }
  }

  private func waitUntilAnswering() async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(20)
    while clock.now < deadline {
      if FileManager.default.fileExists(atPath: socket),
        (try? await tool(["lpstat", "-r"]))?.contains("is running") == true
      {
        return
      }
      try await clock.sleep(for: .milliseconds(100))
    }
    throw PrintServerError(problem: "cupsd did not answer in 20 s", log: log)
  }

  /// The server's error log so far.
  package var log: String {
    (try? String(contentsOfFile: "\(folder)/log/error_log", encoding: .utf8)) ?? ""
  }

  /// Where printer `name`'s PDFs go.
  package func output(of name: String) -> String { "\(folder)/out/\(name).pdf" }

  /// Adds a PDF printer `name` through CUPS's `file:` device, enabled and taking jobs.
  package func addPDFPrinter(_ name: String) async throws {
    try await admin(["-p", name, "-E", "-v", "file://\(output(of: name))"])
  }

  /// Adds printer `name` through the tests' backend, out of paper until ``loadPaper(_:)``.
  package func addTroublePrinter(_ name: String) async throws {
    try await admin(["-p", name, "-E", "-v", "phototimer-test:\(output(of: name))"])
  }

  private func admin(_ arguments: [String]) async throws {
    try await tool(
      ["lpadmin"] + arguments + [
        "-P", "\(folder)/photo-printer.ppd", "-o", "printer-error-policy=stop-printer",
      ])
  }

  /// Puts paper in printer `name` (the tests' backend prints from now on).
  package func loadPaper(_ name: String) throws {
    try Data().write(to: URL(fileURLWithPath: "\(folder)/out/paper"))
  }

  /// Makes the tests' backend take five seconds over each job (`true`), or not.
  package func slow(_ on: Bool) throws {
    let path = "\(folder)/out/slow"
    if on {
      try Data().write(to: URL(fileURLWithPath: path))
    } else {
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  /// Runs a CUPS tool (`lpstat`, `cupsdisable`, `lpadmin`…) against this server; returns what
  /// it printed.
  ///
  /// - Throws: ``PrintServerError`` with its output when it fails.
  @discardableResult
  package func tool(_ command: [String]) async throws -> String {
    let run = try await ChildProcess.run(
      ["env", "CUPS_SERVER=\(socket)"] + command, timeLimit: .seconds(30))
    guard run.succeeded else {
      throw PrintServerError(
        problem: "\(command.joined(separator: " ")) failed: \(run.output)", log: "")
    }
    return run.standardOutput
  }

  /// Runs `body` with a server of its own, and stops it after, whatever happens (a `defer`
  /// cannot await the stop: a server left running outlives the test).
  package static func with<Value>(
    isolation: isolated (any Actor)? = #isolation, _ body: (PrintServer) async throws -> Value
  ) async throws -> Value {
    let server = try await PrintServer()
    do {
      let value = try await body(server)
      await server.stop()
      return value
    } catch {
      await server.stop()
      throw error
    }
  }

  /// Stops the server, waits until it has been reaped and removes its folder.
  package func stop() async {
    _ = try? await process.stop(grace: .seconds(2))
    process.closePipes()
    try? FileManager.default.removeItem(atPath: folder)
  }

  private static func write(_ text: String, to path: String, mode: Int) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  /// The tests' backend: `phototimer-test:/folder/out/NAME.pdf`.
  private static let backend = """
    #!/bin/sh
    # phototimer's test backend. Without arguments it names itself; with a job it writes the
    # job's PDF into the file its URI names, if the printer has paper (a file `paper` beside
    # it): else it says media-empty-error and stops the queue (exit 4), as a photo printer
    # out of paper does. A file `slow` beside it makes each job take five seconds.
    if [ $# -eq 0 ]; then
      echo 'direct phototimer-test "Unknown" "phototimer test printer"'
      exit 0
    fi
    out=${DEVICE_URI#phototimer-test:}
    dir=$(dirname "$out")
    if [ ! -e "$dir/paper" ]; then
      echo "STATE: +media-empty-error" >&2
      echo "ERROR: out of paper" >&2
      exit 4
    fi
    echo "STATE: -media-empty-error" >&2
    [ -e "$dir/slow" ] && sleep 5
    if [ $# -ge 6 ]; then cat "$6" > "$out"; else cat > "$out"; fi
    exit 0

    """

  /// The tests' photo-printer driver: PDF out, photo paper sizes with borderless variants.
  private static let driver: String = {
    // Name, title, width and height in points.
    let sizes = [
      ("w144h432", "2x6in", 144, 432), ("4x6", "4x6in", 288, 432), ("w432h576", "6x8in", 432, 576),
    ]
    var lines = [
      "*PPD-Adobe: \"4.3\"", "*FormatVersion: \"4.3\"", "*FileVersion: \"1.0\"",
      "*LanguageVersion: English", "*LanguageEncoding: ISOLatin1", "*PCFileName: \"PTPHOTO.PPD\"",
      "*Manufacturer: \"phototimer\"", "*Product: \"(Test Photo Printer)\"",
      "*ModelName: \"phototimer test photo printer\"",
      "*ShortNickName: \"phototimer test photo printer\"",
      "*NickName: \"phototimer test photo printer, PDF\"", "*PSVersion: \"(3010.000) 0\"",
      "*LanguageLevel: \"3\"", "*ColorDevice: True", "*DefaultColorSpace: RGB",
      "*FileSystem: False", "*Throughput: \"1\"", "*LandscapeOrientation: Plus90",
      "*TTRasterizer: Type42", "*cupsVersion: 2.4", "*cupsManualCopies: False",
      "*cupsFilter: \"application/vnd.cups-pdf 0 -\"",
      "*OpenUI *PageSize/Media Size: PickOne", "*OrderDependency: 10 AnySetup *PageSize",
      "*DefaultPageSize: 4x6",
    ]
    func each(_ line: (String, String, Int, Int, Bool) -> String) {
      for (name, title, width, height) in sizes {
        lines.append(line(name, title, width, height, false))
        lines.append(line(name + ".Fullbleed", title + " (Borderless)", width, height, true))
      }
    }
    each { name, title, width, height, _ in
      "*PageSize \(name)/\(title): \"<</PageSize[\(width) \(height)]/ImagingBBox null>>setpagedevice\""
    }
    lines += [
      "*CloseUI: *PageSize", "*OpenUI *PageRegion: PickOne",
      "*OrderDependency: 10 AnySetup *PageRegion", "*DefaultPageRegion: 4x6",
    ]
    each { name, title, width, height, _ in
      "*PageRegion \(name)/\(title): \"<</PageSize[\(width) \(height)]/ImagingBBox null>>setpagedevice\""
    }
    lines += ["*CloseUI: *PageRegion", "*DefaultImageableArea: 4x6"]
    each { name, title, width, height, borderless in
      let margin = borderless ? 0 : 9
      return
        "*ImageableArea \(name)/\(title): \"\(margin) \(margin) \(width - margin) \(height - margin)\""
    }
    lines.append("*DefaultPaperDimension: 4x6")
    each { name, title, width, height, _ in
      "*PaperDimension \(name)/\(title): \"\(width) \(height)\""
    }
    return lines.joined(separator: "\n") + "\n"
  }()
}

/// The tests' CUPS could not be started, or a tool failed.
package struct PrintServerError: Error, CustomStringConvertible {
  /// What failed.
  package var problem: String
  /// The server's log, if it says more.
  package var log: String

  package var description: String { log.isEmpty ? problem : "\(problem)\n\(log)" }
}
