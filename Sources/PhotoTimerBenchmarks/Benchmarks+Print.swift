import Foundation
import PhotoTimer
import PhotoTimerCUPS
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerText

extension Benchmarks {
  /// Print pressed → printed, for the 600 dpi strip, on a CUPS of the bench's own (a PDF
  /// printer through the `file:` device, the tests' photo-paper driver): ours (the collage
  /// drawn and encoded, then the paper asked and the job spooled over libcups) beside CUPS's
  /// share (its filters turning the JPEG into the page, the device writing it), which is the
  /// rest until the job reads `completed` (asked every 10 ms). The baseline is CUPS's own
  /// client, `lp`, sending the same file, timed the same way. Medians of 5.
  static func printing() async {
    do {
      try await PrintServer.with { server in
        try await server.addPDFPrinter("bench")
        await printing(on: server)
      }
    } catch {
      row(
        "print strip 600 dpi: sent → printed", ours: "no CUPS: \(error)".prefix(60).description,
        baseline: "", ratio: "", target: "")
    }
  }

  /// ``printing()`` on `server`'s printer `bench`.
  private static func printing(on server: PrintServer) async {
    guard let shots = await sceneShots() else {
      return print("print: the scene camera gave no picture")
    }
    let layout = BoothLayout.strip
    let file = "\(server.folder)/strip.jpg"
    let printer = CUPSPrinter(destination: "bench", server: server.socket)
    var rendering: [Duration] = []
    var spooling: [Duration] = []
    var cups: [Duration] = []
    var totals: [Duration] = []
    var lp: [Duration] = []
    for _ in 0..<5 {
      let start = clock.now
      let text = BoothText.layer(
        layout.texts, width: layout.canvas.width, height: layout.canvas.height,
        values: ["event": "Ada & Grace", "date": "6 December 2026"])
      let collage = BoothCollage.compose(shots, in: layout, layers: text.map { [$0] } ?? [])
        .canvas
      guard let bytes = try? JPEGCodec.encode(collage, quality: 92),
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
      else { return print("print: the strip could not be written") }
      let drawn = clock.now
      guard let media = try? await printer.media(for: PrintPage(width: 2, height: 6)),
        let id = try? await printer.submit(file: file, title: "bench", copies: 1, media: media)
      else { return print("print: CUPS did not take the strip\n\(server.log)") }
      let spooled = clock.now
      guard await printed(id, on: printer) else {
        return print("print: the strip was not printed\n\(server.log)")
      }
      let done = clock.now
      rendering.append(start.duration(to: drawn))
      spooling.append(drawn.duration(to: spooled))
      cups.append(spooled.duration(to: done))
      totals.append(start.duration(to: done))
      // CUPS's own client, the same file.
      let before = clock.now
      guard
        let sent = try? await ChildProcess.run([
          "env", "CUPS_SERVER=\(server.socket)", "lp", "-d", "bench", "-o",
          "media=oe_2x6-in_2x6in", file,
        ]), sent.succeeded,
        let number = sent.standardOutput.split(separator: "-").last.flatMap({
          Int($0.prefix { $0.isNumber })
        }),
        await printed(number, on: printer)
      else { return print("print: lp did not print the strip") }
      lp.append(before.duration(to: clock.now))
    }
    let total = Sample(totals).median.milliseconds
    let draw = Sample(rendering).median.milliseconds
    let spool = Sample(spooling).median.milliseconds
    let filters = Sample(cups).median.milliseconds
    let sent = Sample(zip(spooling, cups).map { $0 + $1 }).median.milliseconds
    let theirs = Sample(lp).median.milliseconds
    row(
      "print strip 600 dpi: sent → printed", ours: "\(fixed(sent, 0)) ms",
      baseline: "\(fixed(theirs, 0)) ms (lp)", ratio: ratio(theirs, sent), target: "≥ 0.8× lp")
    row(
      "  pressed → printed: draw, spool, CUPS",
      ours: "\(fixed(total, 0)) ms",
      baseline: "\(fixed(draw, 0)) + \(fixed(spool, 0)) + \(fixed(filters, 0)) ms",
      ratio: "\(fixed(100 * (draw + spool) / max(total, 1), 0)) % ours", target: "")
  }

  /// Waits until job `id` reads completed (`true`), or ends otherwise or 60 s pass (`false`).
  private static func printed(_ id: Int, on printer: CUPSPrinter) async -> Bool {
    let deadline = clock.now + .seconds(60)
    while clock.now < deadline {
      guard let status = try? await printer.job(id) else { return false }
      if status.state == .completed { return true }
      if status.state.isOver { return false }
      try? await clock.sleep(for: .milliseconds(10))
    }
    return false
  }
}
