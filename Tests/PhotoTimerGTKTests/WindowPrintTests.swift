import Foundation
import PhotoTimerHarnesses
import PhotoTimerPOSIX
import Testing

/// `phototimer-gtk --booth --print` under Xvfb, printing through a CUPS the test starts: the
/// collage sent by itself, the printer out of paper said in red with Resume, a second press
/// (a key, the phone) refused with its reason, the guests' link refused, and Resume (the
/// phone's) printing it once paper is in.
@Suite("phototimer-gtk prints under Xvfb", .serialized, .timeLimit(.minutes(4)))
struct WindowPrintTests {
  @Test(
    "Out of paper: the words and Resume on the screen and the phone; Print refused while it waits, the guests' link refused; Resume from the phone prints it once paper is in"
  )
  func outOfPaper() async throws {
    try await PrintServer.with { cups in
      try await cups.addTroublePrinter("selphy")
      let arguments = [
        "--booth", "--shots", "1", "--review", "0", "-s", "0", "--camera", "scene", "--size",
        "640x360", "--no-people", "--print=selphy", "--auto-print", "--remote=127.0.0.1:0",
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
        try await until("?t=")
        let link = try #require(
          output().firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\?t=([0-9a-f]{32})/))
        let base = "http://127.0.0.1:\(link.output.1)"
        /// A phone's intent: the HTTP status and the body.
        func post(_ intent: String, token: Substring = link.output.2) async throws -> String {
          try await ChildProcess.run([
            "curl", "-s", "-w", " %{http_code}", "-X", "POST", "-H",
            "Authorization: Bearer \(token)", "\(base)/api/\(intent)",
          ]).output
        }
        // Nothing to print yet: the phone is told why.
        let early = try await post("print")
        #expect(early.contains("nothing to print yet") && early.hasSuffix(" 409"), "\(early)")
        try await server.press("space")
        try await until("collage: ")
        try await until("printer: out of paper: load paper, then press Resume")
        try await server.press("p")
        try await window.waitFor("refused this photo is printing already")
        _ = try await server.screenshot("print-out-of-paper")
        // The phone: Print refused with the desk's words, the guests' link refused outright,
        // the state saying where printing is.
        let again = try await post("print")
        #expect(again.contains("this photo is printing already") && again.hasSuffix(" 409"))
        let guest = try #require(output().firstMatch(of: /guest\/session\/1\?t=([0-9a-f]{32})/))
        #expect(try await post("resume", token: guest.output.1).hasSuffix(" 403"))
        var state = ""
        for _ in 0..<50 where !state.contains(#""actions":["start","quit","resume"]"#) {
          state = try await ChildProcess.run([
            "curl", "-s", "-H", "Authorization: Bearer \(link.output.2)", "\(base)/api/state",
          ]).output
          try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state.contains(#""actions":["start","quit","resume"]"#), "\(state)")
        #expect(state.contains("the printer stopped: out of paper"), "\(state)")
        try cups.loadPaper("selphy")
        // Resume from the phone; u once it prints again is refused in the desk's words.
        #expect(try await post("resume").hasSuffix(" 202"))
        try await until("printed")
        try await server.press("u")
        try await window.waitFor("refused the printer is not stopped")
        #expect(FileManager.default.fileExists(atPath: cups.output(of: "selphy")))
        let queue = try await cups.tool(["lpstat", "-o", "selphy"])
        #expect(queue.isEmpty, "\(queue)")
      }
    }
  }
}
