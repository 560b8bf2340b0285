import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer-gtk --booth --print` under Xvfb, printing through a CUPS the test starts: the
/// collage sent by itself, the printer out of paper said in red with Resume, a second press
/// refused with its reason, and u (Resume) printing it once paper is in.
@Suite("phototimer-gtk prints under Xvfb", .serialized, .timeLimit(.minutes(4)))
struct WindowPrintTests {
  @Test(
    "Out of paper: the words and Resume on the screen, p refused while it waits, u prints it once paper is in"
  )
  func outOfPaper() async throws {
    try await PrintServer.with { cups in
      try await cups.addTroublePrinter("selphy")
      let arguments = [
        "--booth", "--shots", "1", "--review", "0", "-s", "0", "--camera", "scene", "--size",
        "640x360", "--no-people", "--print=selphy", "--auto-print",
      ]
      try await withWindow(
        arguments, name: "print", environment: ["CUPS_SERVER=\(cups.socket)"]
      ) { server, window in
        func output() -> String { (try? String(contentsOf: window.log, encoding: .utf8)) ?? "" }
        func until(_ text: String, _ limit: Duration = .seconds(60)) async throws {
          let deadline = ContinuousClock.now + limit
          while ContinuousClock.now < deadline, !output().contains(text) {
            try await Task.sleep(for: .milliseconds(100))
          }
          #expect(output().contains(text), "no '\(text)' in \(output())")
        }
        try await window.waitFor("status idle")
        try await server.press("space")
        try await until("collage: ")
        try await until("printer: out of paper: load paper, then press Resume")
        try await server.press("p")
        try await until("not now: this photo is printing already")
        _ = try await server.screenshot("print-out-of-paper")
        try cups.loadPaper("selphy")
        try await server.press("u")
        try await until("printed")
        #expect(FileManager.default.fileExists(atPath: cups.output(of: "selphy")))
        let queue = try await cups.tool(["lpstat", "-o", "selphy"])
        #expect(queue.isEmpty, "\(queue)")
      }
    }
  }
}
