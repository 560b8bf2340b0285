import Foundation
import PhotoTimer
import PhotoTimerCUPS
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// A JPEG of `width` × `height` (ffmpeg's test pattern), for printing.
func testPicture(_ width: Int, _ height: Int, in folder: String) async throws -> String {
  let path = "\(folder)/picture-\(width)x\(height).jpg"
  let run = try await ChildProcess.run([
    "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
    "testsrc2=size=\(width)x\(height)", "-frames:v", "1", "-q:v", "2", path,
  ])
  #expect(run.succeeded, "\(run.output)")
  return path
}

/// Follows job `id` until it ends or `limit` passes; returns its last status.
func follow(
  _ printer: CUPSPrinter, _ id: Int, limit: Duration = .seconds(60)
) async throws
  -> PrintJobStatus
{
  let clock = ContinuousClock()
  let deadline = clock.now + limit
  var status = try await printer.job(id)
  while !status.state.isOver, clock.now < deadline {
    try await clock.sleep(for: .milliseconds(200))
    status = try await printer.job(id)
  }
  return status
}

@Suite("Printing through CUPS", .serialized, .timeLimit(.minutes(3)))
struct CUPSPrinterTests {
  @Test("A strip prints on 2 × 6 in borderless paper, and the job is followed to completed")
  func strip() async throws {
    try await PrintServer.with { server in
      try await server.addPDFPrinter("booth")
      let printer = CUPSPrinter(destination: "booth", server: server.socket)
      let media = try await printer.media(for: PrintPage(width: 2, height: 6))
      #expect(media.borderless)
      #expect(media.note == nil)
      let picture = try await testPicture(1200, 3600, in: server.folder)
      let id = try await printer.submit(file: picture, title: "strip", copies: 1, media: media)
      let end = try await follow(printer, id)
      #expect(end.state == .completed, "\(end) \(server.log)")
      let info = try await ChildProcess.run(["pdfinfo", server.output(of: "booth")])
      #expect(info.standardOutput.contains("144 x 432 pts"), "\(info.output)")
    }
  }
}

/// Waits until `printer`'s status satisfies `condition`, or `limit` passes; returns the last.
func waitForPrinter(
  _ printer: CUPSPrinter, limit: Duration = .seconds(30),
  until condition: (PrinterStatus) -> Bool
) async throws -> PrinterStatus {
  let clock = ContinuousClock()
  let deadline = clock.now + limit
  var status = try await printer.status()
  while !condition(status), clock.now < deadline {
    try await clock.sleep(for: .milliseconds(200))
    status = try await printer.status()
  }
  return status
}

@Suite("A printer's troubles through CUPS", .serialized, .timeLimit(.minutes(3)))
struct CUPSTroubleTests {
  @Test("Out of paper: the queue stops with media-empty, said in words; paper and Resume print it")
  func outOfPaper() async throws {
    try await PrintServer.with { server in
      try await server.addTroublePrinter("selphy")
      let printer = CUPSPrinter(destination: "selphy", server: server.socket)
      let media = try await printer.media(for: PrintPage(width: 6, height: 4))
      let picture = try await testPicture(600, 400, in: server.folder)
      let id = try await printer.submit(file: picture, title: "photo", copies: 1, media: media)
      let stopped = try await waitForPrinter(printer) { $0.state == .stopped }
      #expect(stopped.reasons.contains("media-empty-error"), "\(stopped) \(server.log)")
      #expect(stopped.troubles.first?.description == "out of paper: load paper, then press Resume")
      #expect(try await printer.job(id).state == .pending)
      try server.loadPaper("selphy")
      try await printer.resume()
      let end = try await follow(printer, id)
      #expect(end.state == .completed, "\(end) \(server.log)")
      let after = try await waitForPrinter(printer) { $0.state != .stopped && $0.troubles.isEmpty }
      #expect(after.troubles.isEmpty, "\(after)")
      #expect(FileManager.default.fileExists(atPath: server.output(of: "selphy")))
    }
  }

  @Test("A paused queue is said as paused; Resume lets the waiting print out")
  func paused() async throws {
    try await PrintServer.with { server in
      try await server.addPDFPrinter("booth")
      try await server.tool(["cupsdisable", "booth"])
      try await server.tool(["cupsreject", "booth"])
      let printer = CUPSPrinter(destination: "booth", server: server.socket)
      let status = try await printer.status()
      #expect(status.state == .stopped)
      #expect(status.troubles.map(\.what).contains("its queue is paused"), "\(status)")
      #expect(status.troubles.map(\.what).contains("the printer's queue refuses new prints"))
      let media = try await printer.media(for: PrintPage(width: 2, height: 6))
      let picture = try await testPicture(400, 1200, in: server.folder)
      do throws(PrintError) {
        _ = try await printer.submit(file: picture, title: "strip", copies: 1, media: media)
        Issue.record("a queue that refuses prints took one")
      } catch {
        #expect(error.description.contains("press Resume"), "\(error)")
      }
      try await printer.resume()
      let id = try await printer.submit(file: picture, title: "strip", copies: 1, media: media)
      #expect(try await follow(printer, id).state == .completed)
    }
  }

  @Test("A printer removed mid-job: its print ends, and the printer is said to be gone")
  func removed() async throws {
    try await PrintServer.with { server in
      try await server.addTroublePrinter("selphy")
      try server.loadPaper("selphy")
      try server.slow(true)
      let printer = CUPSPrinter(destination: "selphy", server: server.socket)
      let media = try await printer.media(for: PrintPage(width: 6, height: 4))
      let picture = try await testPicture(600, 400, in: server.folder)
      let id = try await printer.submit(file: picture, title: "photo", copies: 1, media: media)
      _ = try await waitForPrinter(printer) { $0.state == .processing }
      try await server.tool(["lpadmin", "-x", "selphy"])
      let end = try await follow(printer, id, limit: .seconds(20))
      #expect(end.state.isOver, "\(end)")
      #expect(end.state != .completed, "\(end)")
      do throws(PrintError) {
        _ = try await printer.status()
        Issue.record("a removed printer still answered")
      } catch {
        #expect(error.printerGone)
        #expect(error.description.contains("selphy"), "\(error)")
      }
    }
  }

  @Test("A page the printer has no paper for is refused with the sizes it has")
  func noSuchPaper() async throws {
    try await PrintServer.with { server in
      try await server.addPDFPrinter("booth")
      let printer = CUPSPrinter(destination: "booth", server: server.socket)
      do throws(PrintError) {
        _ = try await printer.media(for: PrintPage(width: 8, height: 10))
        Issue.record("an 8 × 10 in page was taken")
      } catch {
        #expect(error.description.contains("no 8 × 10 in paper"), "\(error)")
        #expect(error.description.contains("4 x 6 in"), "\(error)")
      }
      let missing = CUPSPrinter(destination: "nowhere", server: server.socket)
      await #expect(throws: PrintError.self) { try await missing.status() }
    }
  }
}
