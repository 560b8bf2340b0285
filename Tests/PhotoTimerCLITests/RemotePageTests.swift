import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerHarnesses
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

/// The remote's page in a real browser (headless chromium over WebDriver) against the real
/// `phototimer --remote`, whose `--json` events say what the program did.
@Suite(.serialized) struct RemotePageTests {
  /// `phototimer` running in the background, its output collected line by line (on a thread
  /// of its own: nothing here blocks the cooperative pool).
  final class Program: Sendable {
    let child: ChildProcess
    let output = Locked([UInt8]())
    let folder: URL
    private let wake: WakePipe
    private let reader: ReaderThread

    init(_ arguments: [String]) throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "phototimer-remote-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // NB: `make test` runs this suite once more against the release build.
      let binary =
        ProcessInfo.processInfo.environment["PHOTOTIMER_BINARY"] ?? CommandRun.binary.path
      (child, wake) = try ChildProcess.startWithWake([binary] + arguments + ["-o", folder.path])
      let (output, child, wake) = (output, child, wake)
      // NB: standard error is read too (and dropped), so the program never blocks on it.
      reader = ReaderThread(name: "remote program output") {
        ChildProcess.collect([child.output, child.errors], wake: wake) { source, chunk in
          if source == 0 { output.withLock { $0 += chunk } }
        }
      }
    }

    /// Makes sure the program is gone when a test ends early (SIGKILL after a grace).
    func kill() { child.terminate(grace: .seconds(3)) }

    var lines: [String] {
      String(decoding: output.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(
        String.init)
    }

    func events(_ name: String) -> [String] {
      lines.filter { $0.contains("\"event\":\"\(name)\"") }
    }

    /// Waits for the output to hold `count` `name` events, for at most `limit`.
    func wait(for name: String, count: Int = 1, limit: Duration = .seconds(20)) async throws -> Bool
    {
      let deadline = ContinuousClock.now + limit
      while ContinuousClock.now < deadline {
        if events(name).count >= count { return true }
        try await Task.sleep(for: .milliseconds(50))
      }
      return false
    }

    func link() async throws -> String {
      _ = try await wait(for: "remote")
      let line = try #require(events("remote").first)
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require((object?["links"] as? [String])?.first)
    }

    /// Interrupts it (Ctrl-C) and waits for it to end: its exit status.
    func stop() async throws -> Int32 {
      child.send(SIGINT)
      let exit = try await child.wait()
      wake.signal()
      await reader.join()
      child.closePipes()
      wake.close()
      try? FileManager.default.removeItem(at: folder)
      switch exit {
      case .status(let code): return code
      case .signal(let number): return 128 + number
      }
    }
  }

  static let arguments = [
    // NB: a long count, so Cancel lands mid-count however loaded the machine is.
    "--json", "--remote=127.0.0.1:0", "--no-location", "-s", "30",
    "--camera", "ffmpeg:color=c=0x3366cc:size=640x360:rate=30", "--ffmpeg-format", "lavfi",
  ]

  @Test(
    "On a phone-sized page: the live picture, start, a double tap, cancel, take it now, the photo byte for byte, and the program's end"
  )
  func remoteSession() async throws {
    try await withProgram { program, browser in try await session(program, browser) }
  }

  @Test(
    "Upright (360 × 780) and on its side (780 × 360): no key words, the action that matters now on screen without scrolling, nothing wider than the screen, the photo in place of the picture",
    arguments: [(360, 780), (780, 360)])
  func layout(width: Int, height: Int) async throws {
    try await withProgram(width: width, height: height) { program, browser in
      try await layout(program, browser, name: "remote-\(width)x\(height)")
    }
  }

  @Test("During the count the page outlines her face in green on its picture, where it is")
  func faces() async throws {
    let program = try Program(
      ["--json", "--remote=127.0.0.1:0", "--no-location", "-s", "300"]
        + PeopleCommandTests.astronautCamera)
    defer { program.kill() }
    let browser = try await WebDriver(width: 360, height: 780)
    do {
      try await browser.open(try await program.link())
      #expect(try await browser.wait(for: "return window.phototimer.frames >= 3"))
      try await browser.click("#start")
      // NB: the model loads and the step looks; under a sanitizer that takes seconds.
      #expect(
        try await browser.wait(
          for: "return window.phototimer.faces === 1 && window.phototimer.blinking === 0",
          limit: .seconds(90)))
      // The outline on the canvas: its green pixels' box, as shares of the picture.
      let found = try await browser.run(
        """
        const canvas = document.getElementById('preview');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let [left, right, top, bottom, count] = [canvas.width, -1, canvas.height, -1, 0];
        for (let y = 0; y < canvas.height; y++) {
          for (let x = 0; x < canvas.width; x++) {
            const i = (y * canvas.width + x) * 4;
            if (Math.abs(data[i] - 51) < 10 && Math.abs(data[i + 1] - 209) < 10
              && Math.abs(data[i + 2] - 122) < 10) {
              left = Math.min(left, x); right = Math.max(right, x);
              top = Math.min(top, y); bottom = Math.max(bottom, y); count++;
            }
          }
        }
        return [count, (left + right) / 2 / canvas.width, (top + bottom) / 2 / canvas.height];
        """)
      let values = try #require(found as? [Double])
      try await browser.saveScreenshot("remote-page-faces")
      #expect(values[0] > 100, "\(values[0]) green pixels")
      // Her face: about 0.43 across and 0.25 down the astronaut portrait.
      #expect(abs(values[1] - 0.43) < 0.06 && abs(values[2] - 0.25) < 0.08, "\(values)")
    } catch {
      await browser.quit()
      throw error
    }
    await browser.quit()
    _ = try await program.stop()
  }

  @Test("The page's switch starts the count by itself once she is in and still, and turns off")
  func autoStart() async throws {
    let program = try Program(
      ["--json", "--remote=127.0.0.1:0", "--no-location", "-s", "1", "--blink-window", "0"]
        + PeopleCommandTests.astronautCamera)
    defer { program.kill() }
    let browser = try await WebDriver(width: 360, height: 780)
    do {
      try await browser.open(try await program.link())
      #expect(try await browser.wait(for: "return window.phototimer.autoStart === false"))
      #expect(program.events("started").isEmpty)
      try await browser.saveScreenshot("remote-page-switch")
      // NB: a phone taps the row; its label turns the switch.
      try await browser.click("#auto-start")
      #expect(try await browser.wait(for: "return window.phototimer.autoStart === true"))
      // NB: the model loads, she is found and holds still for a second; under a sanitizer
      // that takes many seconds.
      #expect(try await program.wait(for: "captured", limit: .seconds(90)))
      #expect(program.events("started").count == 1)
      // Off (back from the photo to the picture, where the switch is).
      #expect(try await browser.wait(for: "return window.phototimer.photos === 1"))
      try await browser.click("#back")
      try await browser.click("#auto-start")
      #expect(try await browser.wait(for: "return window.phototimer.autoStart === false"))
    } catch {
      await browser.quit()
      throw error
    }
    await browser.quit()
    let code = try await program.stop()
    #expect(code == 0, "exit \(code): \(program.lines.suffix(4))")
    #expect(program.events("started").count == 1)
  }

  /// Runs `body` with the program (`arguments`) and a browser of `width` × `height`; the
  /// browser quits and the program is stopped however `body` ends.
  @Test("A booth from the phone: Start, Retake, Keep, Keep; the collage's slots are the kept shots")
  func boothFromThePhone() async throws {
    // NB: a colour whose hue turns 20° a second (then stays): the retaken shot differs.
    let arguments = [
      "booth", "--json", "--remote=127.0.0.1:0", "--no-location", "--no-people", "-s", "0",
      "--between", "0", "--shots", "2", "--review", "60", "--camera",
      "ffmpeg:color=c=red:s=640x360:r=25,hue=h=min(t*20\\,340)", "--ffmpeg-format", "lavfi",
      "--event", "Anna & Ben",
    ]
    try await withProgram(arguments: arguments) { program, browser in
      try await browser.open(try await program.link())
      #expect(try await browser.wait(for: "return window.phototimer.actions.includes('start')"))
      try await browser.click("#start")
      #expect(try await program.wait(for: "captured"))
      #expect(try await browser.wait(for: "return window.phototimer.actions.includes('retake')"))
      // The phone shows the shot with Keep and Retake under it.
      #expect(try await browser.wait(for: "return document.body.dataset.view === 'photo'"))
      #expect(
        try await browser.run("return document.getElementById('review').hidden") as? Bool == false)
      try await browser.click("#retake-photo")
      #expect(try await program.wait(for: "retaken"))
      #expect(try await program.wait(for: "captured", count: 2))
      // One retake a shot: now Keep alone.
      #expect(
        try await browser.wait(
          for:
            "return window.phototimer.actions.includes('keep') && document.getElementById('retake-photo').hidden"
        ))
      try await browser.click("#keep-photo")
      #expect(try await program.wait(for: "captured", count: 3))
      #expect(try await browser.wait(for: "return window.phototimer.actions.includes('keep')"))
      try await browser.saveScreenshot("remote-page-booth")
      try await browser.click("#keep-photo")
      #expect(try await program.wait(for: "collage", limit: .seconds(30)))
      let kept = program.events("kept").compactMap { Self.file(in: $0) }
      let retaken = program.events("retaken").compactMap { Self.file(in: $0) }
      let collage = try #require(program.events("collage").first.flatMap(Self.file(in:)))
      #expect(kept.count == 2 && retaken.count == 1)
      #expect(!kept.contains(retaken[0]))
      let picture = try BoothCommandTests.decode(collage)
      for (index, slot) in BoothLayout.strip.slots.prefix(2).enumerated() {
        let shot = try BoothCommandTests.decode(kept[index])
        let expected = BoothCommandTests.mean(
          shot, x: 0, y: 0, width: shot.width, height: shot.height)
        let found = BoothCommandTests.mean(
          picture, x: slot.x, y: slot.y, width: slot.width, height: slot.height)
        #expect(zip(expected, found).allSatisfy { abs($0 - $1) <= 12 }, "slot \(index)")
      }
      // The phone's page shows the collage, with the guests' code under it.
      #expect(
        try await browser.wait(
          for: "const c = document.getElementById('guest-code'); "
            + "return !document.getElementById('guests').hidden && c.naturalWidth > 0 "
            + "&& document.getElementById('photo-image').src.includes('/api/photos/')"))
      try await browser.saveScreenshot("remote-page-collage")
      // The code on the phone's screen reads back as the guest link.
      _ = try await browser.run("document.getElementById('guests').scrollIntoView()")
      let shot = program.folder.appendingPathComponent("phone.png")
      try await browser.screenshot().write(to: shot)
      let read = try await ChildProcess.run(["zbarimg", "-q", "--raw", shot.path])
      let guest = program.events("collage").first.flatMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["guest"]
          as? String
      }
      #expect(guest != nil && read.standardOutput.contains(guest ?? "-"), "\(read.standardOutput)")
      try await guestLink(program, browser, collage: collage)
      #expect(try await program.stop() == 0)
    }
  }

  /// The collage's guest link, as a guest's phone opens it: the session's page with the
  /// collage and its shots, the download the same bytes as the file, nothing it may change;
  /// and the event's log beside the photos.
  private func guestLink(_ program: Program, _ browser: WebDriver, collage: String) async throws {
    let event = try #require(program.events("collage").first)
    let object = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
    let link = try #require(object?["guest"] as? String)
    let control = try await program.link()
    #expect(link.contains("/guest/session/1?t="))
    let guestToken = String(link.split(separator: "=").last ?? "")
    #expect(!control.contains(guestToken), "the guest's token is its own")
    #expect(collage.hasPrefix(program.folder.appendingPathComponent("Anna & Ben").path))
    try await browser.open(link)
    #expect(
      try await browser.wait(
        for: "const i = document.querySelector('.collage img'); return i && i.naturalWidth > 0"))
    // Styled: the page's own style sheet reached it (dark, the collage within the screen).
    #expect(
      try await browser.wait(
        for: "return getComputedStyle(document.body).backgroundColor === 'rgb(17, 17, 17)'"))
    #expect(
      try await browser.run("return document.documentElement.scrollWidth <= window.innerWidth")
        as? Bool == true)
    let heading = try await browser.run("return document.querySelector('h1').textContent")
    #expect(heading as? String == "Anna & Ben")
    let shots = try await browser.run("return document.querySelectorAll('.shots img').length")
    #expect(shots as? Int == 2)
    try await browser.saveScreenshot("guest-page")
    // The event's gallery, as the session's page links it: the session's collage there.
    let gallery = link.replacingOccurrences(of: "/guest/session/1?", with: "/guest?")
    try await browser.open(gallery)
    #expect(
      try await browser.wait(
        for: "const i = document.querySelector('.gallery img'); return i && i.naturalWidth > 0"))
    try await browser.saveScreenshot("guest-gallery")
    try await browser.open(link)
    #expect(
      try await browser.wait(
        for: "const i = document.querySelector('.collage img'); return i && i.naturalWidth > 0"))
    let download = try #require(
      try await browser.run("return document.querySelector('a.button').href") as? String)
    let saved = program.folder.appendingPathComponent("downloaded.jpg").path
    let fetched = try await ChildProcess.run(
      ["curl", "-s", "-o", saved, "-w", "%{http_code} %header{content-disposition}", download])
    #expect(fetched.standardOutput.hasPrefix("200 attachment"), "\(fetched.standardOutput)")
    #expect(
      FileManager.default.contents(atPath: saved) == FileManager.default.contents(atPath: collage))
    // The guest's token changes nothing: every intent is 403.
    let url = try #require(URL(string: link))
    let origin = "\(url.host ?? ""):\(url.port ?? 0)"
    for intent in ["start", "cancel", "take-now", "keep", "retake"] {
      let answer = try await ChildProcess.run(
        [
          "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
          "http://\(origin)/api/\(intent)?t=\(guestToken)",
        ])
      #expect(answer.standardOutput == "403", "\(intent): \(answer.standardOutput)")
    }
    let log = try String(
      contentsOf: program.folder.appendingPathComponent("Anna & Ben/event.jsonl"), encoding: .utf8)
    let logged = log.split(separator: "\n").map { line -> String in
      let entry = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return "\(entry?["event"] ?? "?") \(entry?["session"] ?? "?")"
    }
    #expect(
      logged == [
        "session 1", "controls 1", "retaken 1", "kept 1", "kept 1", "collage 1", "session 1",
      ], "\(log)")
    #expect(log.contains("the exposure of the ffmpeg camera cannot be held from here"), "\(log)")
    #expect(log.contains("\"guest\":\"\(link)\""))
  }

  /// The `file` of a JSON event line.
  static func file(in line: String) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return object?["file"] as? String
  }

  private func withProgram(
    width: Int = 360, height: Int = 780, arguments: [String] = Self.arguments,
    _ body: (Program, WebDriver) async throws -> Void
  ) async throws {
    let program = try Program(arguments)
    defer { program.kill() }
    let browser = try await WebDriver(width: width, height: height)
    do {
      try await body(program, browser)
    } catch {
      await browser.quit()
      throw error
    }
    await browser.quit()
  }

  /// Whether the elements are wholly inside the viewport, and the page no wider than it.
  static let fits = """
    const inside = (id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5
        && r.right <= window.innerWidth + 0.5;
    };
    return [arguments[0].every(inside),
      document.documentElement.scrollWidth <= window.innerWidth,
      document.getElementById('status').textContent];
    """

  private func layout(_ program: Program, _ browser: WebDriver, name: String) async throws {
    try await browser.open(try await program.link())
    #expect(try await browser.wait(for: "return window.phototimer.frames >= 3"))
    #expect(try await browser.wait(for: "return window.phototimer.actions.includes('start')"))
    func check(_ ids: [String], _ moment: String) async throws {
      let answer = try #require(try await browser.run(Self.fits, [ids]) as? [Any])
      #expect(answer[0] as? Bool == true, "\(name) \(moment): \(ids) not all on screen")
      #expect(answer[1] as? Bool == true, "\(name) \(moment): wider than the screen")
      let status = answer[2] as? String ?? ""
      for word in ["press", "space", "key"] {
        #expect(!status.localizedCaseInsensitiveContains(word), "\(name) \(moment): \(status)")
      }
    }
    try await check(["start", "stage", "status"], "framing")
    try await browser.saveScreenshot(name + "-framing")
    try await browser.click("#start")
    #expect(try await browser.wait(for: "return window.phototimer.count !== null"))
    try await check(["take-now", "cancel", "stage", "count"], "counting")
    try await browser.saveScreenshot(name + "-counting")
    try await browser.click("#cancel")
    #expect(try await browser.wait(for: "return window.phototimer.actions.includes('start')"))
    let cancelled = try await browser.run("return document.getElementById('status').textContent")
    #expect((cancelled as? String)?.hasPrefix("Cancelled") == true, "\(cancelled)")
    try await startAndTakeNow(program, browser)
    #expect(
      try await browser.wait(
        for: "return document.getElementById('photo-image').getBoundingClientRect().height > 50"))
    try await check(["photo-image"], "the photo")
    let paths = try await browser.run(
      "return document.body.innerText.includes(arguments[0])",
      [
        program.folder.path
      ])
    #expect(paths as? Bool == false, "\(name): the computer's folder is shown")
    let live = try await browser.run(
      "return document.getElementById('live').getBoundingClientRect().height")
    #expect((live as? Double) == 0, "\(name): the photo is not in place of the picture")
    try await browser.saveScreenshot(name + "-photo")
  }

  /// Start, then take it now, from the page: the photo is taken and the page counts it.
  private func startAndTakeNow(_ program: Program, _ browser: WebDriver) async throws {
    try await browser.click("#start")
    #expect(try await browser.wait(for: "return window.phototimer.actions.includes('take-now')"))
    try await browser.click("#take-now")
    // NB: a bound, not a target: a loaded machine (a build beside the tests) took over 8 s.
    #expect(try await program.wait(for: "captured", limit: .seconds(30)))
    #expect(try await browser.wait(for: "return window.phototimer.photos === 1"))
  }

  private func session(_ program: Program, _ browser: WebDriver) async throws {
    let link = try await program.link()
    try await browser.open(link)
    #expect(try await browser.wait(for: "return window.phototimer.frames >= 3"))
    // The solid 0x3366cc preview fills the preview area, across the phone's width.
    let look = try await browser.run(
      """
      const canvas = document.getElementById('preview');
      const rect = canvas.getBoundingClientRect();
      const pixel = canvas.getContext('2d').getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
      return [rect.width / window.innerWidth, rect.height, pixel[0], pixel[1], pixel[2]];
      """)
    let values = try #require(look as? [Double])
    #expect(values[0] > 0.9, "the preview is \(values[0]) of the width")
    #expect(values[1] > 150)
    #expect(abs(values[2] - 0x33) < 12 && abs(values[3] - 0x66) < 12 && abs(values[4] - 0xcc) < 12)
    try await browser.saveScreenshot("remote-page-framing")

    // A double tap (two POSTs at once) starts one run; the page shows the count.
    let statuses = try await browser.runAsync(
      """
      const done = arguments[arguments.length - 1];
      Promise.all([fetch('/api/start', {method: 'POST'}), fetch('/api/start', {method: 'POST'})])
        .then((answers) => done(answers.map((a) => a.status).sort()));
      """)
    #expect(statuses as? [Int] == [202, 409])
    #expect(try await program.wait(for: "started"))
    #expect(try await browser.wait(for: "return window.phototimer.count !== null"))
    try await browser.click("#cancel")
    #expect(try await program.wait(for: "cancelled"))
    #expect(try await browser.wait(for: "return window.phototimer.actions.includes('start')"))
    #expect(program.events("started").count == 1)

    // Start (10 s, chosen on the page) and take it now: the photo is taken at once and shown.
    try await browser.click("#seconds button[data-seconds='10']")
    try await startAndTakeNow(program, browser)
    #expect(
      program.lines.contains {
        $0.contains("\"event\":\"started\"") && $0.contains("\"seconds\":10")
      })
    let saved = try #require(
      FileManager.default.contentsOfDirectory(atPath: program.folder.path).first {
        $0.hasSuffix(".jpg")
      })
    let bytes = try Data(contentsOf: program.folder.appendingPathComponent(saved))
    let downloaded = try await browser.runAsync(
      """
      const done = arguments[arguments.length - 1];
      fetch(document.getElementById('download').href).then((r) => r.arrayBuffer()).then((b) => {
        let text = ''; new Uint8Array(b).forEach((x) => { text += String.fromCharCode(x); });
        done(btoa(text));
      });
      """)
    #expect((downloaded as? String).flatMap { Data(base64Encoded: $0) } == bytes)
    try await browser.saveScreenshot("remote-page-photo")

    // The connections drop (the kernel kills them, as a Wi-Fi loss would): the page
    // reconnects by itself and the picture goes on.
    let port = try #require(link.firstMatch(of: /:(\d+)\//).map { String($0.output.1) })
    let frames = try #require(try await browser.run("return window.phototimer.frames") as? Int)
    let killed = try await ChildProcess.run([
      "ss", "-K", "-t", "state", "established", "( sport = :\(port) )",
    ])
    #expect(killed.exit == .status(0))
    #expect(try await browser.wait(for: "return window.phototimer.reconnects >= 1"))
    #expect(
      try await browser.wait(
        for:
          "return window.phototimer.connection === 'live' && window.phototimer.frames > \(frames + 10)"
      ))

    // NB: the event stream too (it says goodbye below), which the browser reopens itself.
    #expect(try await browser.wait(for: "return window.phototimer.eventsOpen === true"))

    // The program ends: the page says so instead of freezing.
    // NB: Ctrl-C after a photo: the photo was taken, so the exit status is 0. (The photo counts
    // once its run has ended: a people search the run waited for held that end back, so a
    // Ctrl-C in between was most likely taken as a cancel under AddressSanitizer.)
    let code = try await program.stop()
    #expect(code == 0, "exit \(code): \(program.lines.suffix(6))")
    #expect(try await browser.wait(for: "return window.phototimer.connection === 'closed'"))
  }
}

extension WebDriver {
  /// Saves a screenshot as `name.png` under `PHOTOTIMER_SCREENSHOTS`, when it is set, to look
  /// at by hand.
  func saveScreenshot(_ name: String) async throws {
    guard let folder = ProcessInfo.processInfo.environment["PHOTOTIMER_SCREENSHOTS"] else { return }
    try await screenshot().write(
      to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".png"))
  }
}

/// What `--remote` says when it cannot serve.
@Suite struct RemoteErrorTests {
  @Test(
    "A bad address is a usage error (exit 2) saying what to give",
    arguments: ["999.1.1.1:80", "host.example:80", "127.0.0.1:70000", "[::1"])
  func badAddress(value: String) async throws {
    let run = try await CommandRun.run(["--remote=\(value)", "--camera", "scene"])
    #expect(run.status == 2)
    #expect(run.error.contains("--remote: cannot use '\(value)'"), "\(run.error)")
  }

  @Test("A port another program holds is an error (exit 1) that says so and what to do")
  func portTaken() async throws {
    // NB: a listener of our own on a free port.
    let holder = try LoopbackListener(listening: true)
    defer { holder.close() }
    let port = holder.port
    let run = try await CommandRun.run([
      "--json", "--remote=127.0.0.1:\(port)", "--camera", "scene",
    ])
    #expect(run.status == 1)
    #expect(run.error.contains("the remote cannot listen on 127.0.0.1:\(port)"), "\(run.error)")
    #expect(run.error.contains("choose another: --remote=PORT"))
  }
}
