import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerHarnesses
import PhotoTimerLocation
import PhotoTimerPOSIX
import Testing

/// Against real gpsd fed by gpsfake. Serialized: each test starts its own gpsd, and the
/// descriptor counts must not see another test's sockets.
@Suite("gpsd location (real gpsd via gpsfake)", .serialized, .timeLimit(.minutes(2)))
struct GPSDLocationSourceTests {
  /// Waits (bounded) until `condition` holds: for a thing to happen, never for a time.
  static func until(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while !condition(), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Why `source` has no fix, once gpsd has opened its receiver. NB: gpsfake's gpsd opens
  /// the fake receiver only when a client watches, and with both cores busy that took longer
  /// than one 2 s attempt (the reason was then "no receiver attached"): each attempt is
  /// bounded, and they go on until the receiver is there (bounded by time, not by tries).
  static func reasonOnceAttached(
    _ source: GPSDLocationSource<ContinuousClock>
  ) async throws -> String {
    let giveUp = ContinuousClock.now + .seconds(90)
    while true {
      do {
        let tag = try await source.locate(within: .seconds(2))
        Issue.record("expected no fix, got \(tag)")
        return ""
      } catch let error as LocationUnavailable {
        guard error.reason.contains("no receiver attached"), ContinuousClock.now < giveUp else {
          return error.reason
        }
      }
    }
  }

  private func source(_ port: UInt16) -> GPSDLocationSource<ContinuousClock> {
    GPSDLocationSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), clock: ContinuousClock())
  }

  @Test(
    "A fix is named offline, in all the sample logs",
    arguments: [
      ("golden-gate-park", 37.7694, -122.4862, "Parkside, San Francisco, United States"),
      ("paris", 48.8584, 2.2945, "Paris 16 Passy, Paris, France"),
      ("sydney", -33.8568, 151.2153, "Sydney Central Business District, Sydney, Australia"),
    ])
  func namesTheFix(log: String, latitude: Double, longitude: Double, label: String) async throws {
    let gpsd = try await GPSFake.start(log: log)
    defer { gpsd.stop() }
    // NB: bounded, so that a gpsd that never reports says why (the reason) rather than
    // running into the suite's time limit.
    let tag = try await source(gpsd.port).locate(within: .seconds(60))
    #expect(tag.name == label)
    let coordinate = try #require(tag.coordinate)
    #expect(abs(coordinate.latitude - latitude) < 1e-6)
    #expect(abs(coordinate.longitude - longitude) < 1e-6)
    // The first good fix may be 2-D (no altitude); a 3-D one carries the log's 50 m.
    #expect(coordinate.altitude == nil || coordinate.altitude == 50)
  }

  @Test("The fix carries its GPS time and accuracy; a wrong system clock is noted, not fatal")
  func fixDetails() async throws {
    let gpsd = try await GPSFake.start(log: "paris")
    defer { gpsd.stop() }
    let endpoint = GPSDEndpoint(host: "127.0.0.1", port: gpsd.port)
    // The log replays 2026-11-30 12:00:00 UTC.
    let logTime = try Date("2026-11-30T12:00:00Z", strategy: .iso8601)
    // NB: gpsd reports a time only once the log has given it a date (RMC), so the first fix of
    // a fresh connection may have none: take fixes until one has it.
    var tag = LocationTag(name: "none")
    // NB: bounded by time, not by tries: with both cores busy the consumer can wait tens of
    // seconds for a pool thread, and a short per-try bound then never sees a fix at all.
    let giveUp = ContinuousClock.now + .seconds(90)
    var failures: [String] = []
    while tag.fixTime == nil, ContinuousClock.now < giveUp {
      let wrongClock = GPSDLocationSource(
        endpoint: endpoint, clock: ContinuousClock(),
        systemTime: { Date(timeIntervalSince1970: 0) })
      // NB: bounded: under load a fresh connection can miss the log's fixes for a while.
      do {
        tag = try await wrongClock.locate(within: .seconds(30))
      } catch {
        failures.append("\(error)")
      }
    }
    let fixTime = try #require(tag.fixTime, "no fix with a time; the attempts: \(failures)")
    #expect(abs(fixTime.timeIntervalSince(logTime)) < 60, "\(fixTime)")
    #expect(tag.note?.contains("differs from the system clock") == true, "\(tag)")

    // With the system clock right, no note (a fix without a time has nothing to compare).
    let rightClock = GPSDLocationSource(
      endpoint: endpoint, clock: ContinuousClock(), systemTime: { fixTime })
    #expect(try await rightClock.locate(within: .seconds(30)).note == nil)
    #expect(rightClock.status == nil)
  }

  @Test("After a fix has gone stale, the reason says how old it is")
  func staleFix() async throws {
    let paris = try await GPSFake.start(log: "paris")
    let port = paris.port
    let source = GPSDLocationSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: port),
      policy: FixPolicy(maximumAge: .milliseconds(1)), clock: ContinuousClock())
    // NB: bounded, as in the tests above: a gpsd that never reports fails with its reason.
    _ = try await source.locate(within: .seconds(60))
    await paris.shutDown()
    // The receiver loses its fix: a second gpsd on the same port, with no fix to give.
    let noFix = try await GPSFake.start(log: "no-fix", port: port)
    defer { noFix.stop() }
    let reason = try await Self.reasonOnceAttached(source)
    #expect(reason.hasPrefix("no fix yet"), "\(reason)")
    #expect(reason.contains("; last fix "), "\(reason)")
    #expect(reason.hasSuffix(" s old"), "\(reason)")
  }

  @Test("A receiver with no fix: unavailable, with the reason")
  func noFix() async throws {
    let gpsd = try await GPSFake.start(log: "no-fix")
    defer { gpsd.stop() }
    let reason = try await Self.reasonOnceAttached(source(gpsd.port))
    #expect(reason.hasPrefix("no fix yet"), "\(reason)")
  }

  @Test("Garbage from the receiver: no crash; the one valid sentence among it still counts")
  func garbage() async throws {
    let gpsd = try await GPSFake.start(log: "garbage")
    defer { gpsd.stop() }
    // garbage.nmea holds bad checksums, broken and binary lines, an over-long line, and one
    // valid RMC sentence at Golden Gate Park: gpsd skips the rest and reports that fix.
    do {
      let tag = try await source(gpsd.port).locate(within: .seconds(5))
      let coordinate = try #require(tag.coordinate)
      #expect(abs(coordinate.latitude - 37.7694) < 1e-3)
      #expect(abs(coordinate.longitude + 122.4862) < 1e-3)
    } catch let error as LocationUnavailable {
      #expect(!error.reason.isEmpty)
    }
  }

  @Test("gpsd not running: the message names the address and what to do")
  func notRunning() async throws {
    let port = try freePort()
    let error = await #expect(throws: GPSDError.self) { try await source(port).locate() }
    #expect(error == .notRunning(GPSDEndpoint(host: "127.0.0.1", port: port)))
    #expect(error?.description.hasPrefix("gpsd not running on 127.0.0.1:\(port)") == true)
    #expect(openSockets(toPort: port).isEmpty)
  }

  @Test("gpsd killed mid-run: the step ends with an error at once, no descriptor leaked")
  func killedMidRun() async throws {
    let gpsd = try await GPSFake.start(log: "no-fix", cycle: 2)  // 20 s of "no fix"
    let location = source(gpsd.port)
    let locating = Task { try await location.locate() }
    // NB: waits until the step has heard from gpsd (mid-read), not for a time.
    try await Self.until { location.status?.contains("no report from gpsd") == false }
    await gpsd.shutDown()
    let result = await locating.result
    guard case .failure(let error) = result else {
      Issue.record("expected an error, got \(result)")
      return
    }
    #expect(error is LocationUnavailable || error is GPSDError, "\(error)")
    #expect(openSockets(toPort: gpsd.port).isEmpty)
  }

  @Test("Cancelling closes the connection at once")
  func cancellation() async throws {
    let gpsd = try await GPSFake.start(log: "no-fix", cycle: 2)
    defer { gpsd.stop() }
    let location = source(gpsd.port)
    let locating = Task { try await location.locate() }
    // NB: waits for the connection itself; the check after the cancel can then see a leak.
    try await Self.until { openSockets(toPort: gpsd.port).count == 1 }
    #expect(openSockets(toPort: gpsd.port).count == 1)
    let start = ContinuousClock.now
    locating.cancel()
    let result = await locating.result
    let elapsed = start.duration(to: .now)
    guard case .failure(let error) = result else {
      Issue.record("expected cancellation, got \(result)")
      return
    }
    #expect(error is CancellationError, "\(error)")
    #expect(elapsed < .milliseconds(500))
    // The reading thread closes the socket as it ends; it has ended when the stream finished.
    #expect(openSockets(toPort: gpsd.port).isEmpty)
  }

  @Test("A line longer than 10 KiB ends the connection with a clear error, not unbounded memory")
  func lineTooLong() async throws {
    let version = Array(#"{"class":"VERSION","release":"3.22"}"#.utf8) + [10]
    let server = try LineServer(
      sending: version + Array(repeating: UInt8(ascii: "x"), count: 11_000))
    defer { server.stop() }
    let endpoint = GPSDEndpoint(host: "127.0.0.1", port: server.port)
    let connection = GPSDConnection(endpoint: endpoint)
    var received: [GPSDMessage] = []
    var failure: (any Error)?
    do {
      for try await message in connection.messages { received.append(message) }
    } catch {
      failure = error
    }
    let error = failure as? GPSDError
    await connection.close()
    #expect(received == [.version(release: "3.22")])
    #expect(error == .lineTooLong(endpoint, limit: GPSDConnection.lineLimit))
  }

  @Test(
    "Endpoints parse as people write them",
    arguments: [
      ("127.0.0.1:2947", GPSDEndpoint(host: "127.0.0.1", port: 2947)),
      ("localhost", GPSDEndpoint(host: "localhost", port: 2947)),
      ("[::1]:3000", GPSDEndpoint(host: "::1", port: 3000)),
      ("gps.local:29470", GPSDEndpoint(host: "gps.local", port: 29470)),
    ])
  func endpoints(text: String, expected: GPSDEndpoint) {
    #expect(GPSDEndpoint(text) == expected)
  }

  @Test("Bad endpoints are refused", arguments: ["", ":2947", "host:0", "host:99999", "host:abc"])
  func badEndpoints(text: String) {
    #expect(GPSDEndpoint(text) == nil)
  }
}
