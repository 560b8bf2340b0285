import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer --print` end to end, against a CUPS the test starts: a booth's strip printed
/// and compared with its collage, a printer out of paper said in words with its print kept,
/// and the mistakes refused before anything starts.
@Suite("phototimer --print", .serialized, .timeLimit(.minutes(10)))
struct PrintCommandTests {
  /// The JSON objects of `output`'s lines.
  static func events(_ output: String) -> [[String: Any]] {
    output.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// `path`'s pixels at `width` × `height`, RGB, through ffmpeg.
  static func pixels(
    _ path: String, _ width: Int, _ height: Int, in folder: String
  ) async throws
    -> [UInt8]
  {
    let raw = "\(folder)/\(UUID().uuidString).rgb"
    let run = try await ChildProcess.run([
      "ffmpeg", "-loglevel", "error", "-y", "-i", path, "-vf", "scale=\(width):\(height)",
      "-f", "rawvideo", "-pix_fmt", "rgb24", raw,
    ])
    #expect(run.succeeded, "\(run.output)")
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
  }

  @Test("A booth session prints its strip: a 2 × 6 in PDF whose picture is the collage's")
  func strip() async throws {
    try await PrintServer.with { server in
      try await server.addPDFPrinter("booth")
      let output = "\(server.folder)/photos"
      let run = try await CommandRun.run(
        [
          "booth", "--shots", "1", "--review", "0", "-s", "0", "--json", "--camera", "scene",
          "--camera-wait", "60", "--no-location", "--no-people", "-o", output, "--print=booth",
          "--auto-print",
        ], interruptWhen: nil, timeLimit: BoothCommandTests.runLimit,
        environment: ["CUPS_SERVER=\(server.socket)"])
      #expect(run.status == 0, "\(run.error)\n\(server.log)")
      let events = Self.events(run.output)
      let collage = try #require(
        events.first { $0["event"] as? String == "collage" }?["file"] as? String)
      let prints = events.filter { $0["event"] as? String == "print" }
      let states = prints.compactMap { $0["state"] as? String }
      #expect(states.first == "sending", "\(states)")
      #expect(states.last == "completed", "\(run.output)")
      #expect(prints.allSatisfy { $0["file"] as? String == collage })
      #expect(prints.last?["job"] as? Int != nil)
      let info = try await ChildProcess.run(["pdfinfo", server.output(of: "booth")])
      #expect(info.standardOutput.contains("144 x 432 pts"), "\(info.output)")
      // NB: 100 dpi: 200 × 600, the collage scaled to the same.
      let page = "\(server.folder)/page"
      let raster = try await ChildProcess.run([
        "pdftoppm", "-r", "100", "-png", "-singlefile", server.output(of: "booth"), page,
      ])
      #expect(raster.succeeded, "\(raster.output)")
      let printed = try await Self.pixels(page + ".png", 200, 600, in: server.folder)
      let original = try await Self.pixels(collage, 200, 600, in: server.folder)
      try #require(printed.count == original.count && !printed.isEmpty)
      let difference = zip(printed, original).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
      let mean = Double(difference) / Double(printed.count)
      #expect(mean < 6, "the printed page differs from the collage by \(mean) a channel on average")
    }
  }

  @Test("Out of paper: the words and the step, the print kept in the queue, exit 0")
  func outOfPaper() async throws {
    try await PrintServer.with { server in
      try await server.addTroublePrinter("selphy")
      let output = "\(server.folder)/photos"
      let run = try await CommandRun.run(
        [
          "-s", "0", "--json", "--camera", "scene", "--camera-wait", "60", "--no-location",
          "--no-people", "-o", output, "--print=selphy", "--auto-print",
        ], interruptWhen: nil, timeLimit: .seconds(120),
        environment: ["CUPS_SERVER=\(server.socket)"])
      #expect(run.status == 0, "\(run.error)\n\(server.log)")
      let events = Self.events(run.output)
      let printer = events.first { $0["event"] as? String == "printer" && $0["trouble"] != nil }
      #expect(printer?["trouble"] as? String == "out of paper", "\(run.output)")
      #expect(printer?["step"] as? String == "load paper, then press Resume")
      #expect(run.output.contains("is still queued: it prints once the printer goes on"))
      let queue = try await server.tool(["lpstat", "-o", "selphy"])
      #expect(queue.contains("selphy-"), "the print is not kept in CUPS's queue: \(queue)")
    }
  }

  @Test("Printing's mistakes are refused before anything starts, with their words")
  func refused() async throws {
    let copies = try await CommandRun.run(["--copies", "2", "--simulate"])
    #expect(copies.status == 2)
    #expect(copies.error.contains("--copies applies to printing: add --print"), "\(copies.error)")
    try await PrintServer.with { server in
      try await server.addPDFPrinter("booth")
      let environment = ["CUPS_SERVER=\(server.socket)"]
      let missing = try await CommandRun.run(
        ["--camera", "scene", "--print=nowhere"], interruptWhen: nil, environment: environment)
      #expect(missing.status == 1)
      #expect(missing.error.contains("no printer named 'nowhere' in CUPS"), "\(missing.error)")
      #expect(!missing.output.contains("captured"))
      // An 8 × 10 in layout: the printer has 2 × 6, 4 × 6 and 6 × 8 in.
      let layout = "\(server.folder)/big.json"
      try Data(
        #"{"canvas": {"width": 2400, "height": 3000, "dpi": 300}, "slots": [{"x": 0, "y": 0, "width": 2400, "height": 1600}]}"#
          .utf8
      ).write(to: URL(fileURLWithPath: layout))
      let paper = try await CommandRun.run(
        ["booth", "--shots", "1", "--layout", layout, "--camera", "scene", "--print=booth"],
        interruptWhen: nil,
        environment: environment)
      #expect(paper.status == 1)
      #expect(paper.error.contains("'booth' has no 8 × 10 in paper; it offers"), "\(paper.error)")
      // doctor: the destinations, their state and paper.
      try await server.tool(["cupsdisable", "booth"])
      let doctor = try await CommandRun.run(
        ["doctor"], interruptWhen: nil, timeLimit: .seconds(120), environment: environment)
      #expect(
        doctor.output.contains(
          "printer        booth, phototimer test photo printer, PDF: its queue is paused: press Resume"
        ),
        "\(doctor.output)")
      #expect(doctor.output.contains("paper: 2 x 6 in (+ borderless), 4 x 6 in (+ borderless)"))
    }
  }
}
