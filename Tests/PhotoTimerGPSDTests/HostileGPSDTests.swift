import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerLocation
import Testing

/// What a broken or hostile gpsd can send: each gives a clear outcome, no crash, no hang and
/// no unbounded memory.
@Suite("gpsd: hostile input", .serialized, .timeLimit(.minutes(1)))
struct HostileGPSDTests {
  private static let tpv =
    Array(
      #"{"class":"TPV","mode":3,"lat":48.8584,"lon":2.2945,"eph":8}"#.utf8) + [10]

  @Test("A valid TPV split across 1,000 reads of one byte is one message, as when it comes whole")
  func oneByteAtATime() {
    // NB: JSON may hold spaces between its tokens: the TPV padded to exactly 1,000 bytes.
    let body = Array(Self.tpv.dropLast())
    let bytes =
      [UInt8(ascii: "{")] + [UInt8](repeating: UInt8(ascii: " "), count: 1000 - body.count - 1)
      + body.dropFirst() + [10]
    #expect(bytes.count == 1000)
    var reader = GPSDLineReader()
    var messages: [GPSDMessage] = []
    for byte in bytes {
      let (got, overflowed) = reader.feed([byte])
      #expect(!overflowed)
      messages += got
    }
    var whole = GPSDLineReader()
    #expect(messages == whole.feed(bytes).messages)
    guard messages.count == 1, case .position(let report) = messages[0] else {
      Issue.record("expected one TPV, got \(messages)")
      return
    }
    #expect(report.latitude == 48.8584 && report.horizontalError == 8)
  }

  @Test("NUL bytes, invalid UTF-8 and CR LF: the bad lines are skipped, the good one after counts")
  func badBytes() {
    var reader = GPSDLineReader()
    let garbage: [UInt8] = [0, 0, 0xFF, 0xFE, 0xC3, 0x28, 10, 0x7B, 0, 0x7D, 13, 10]
    let (messages, overflowed) = reader.feed(garbage + Self.tpv)
    #expect(!overflowed)
    guard messages.count == 1, case .position(let report) = messages[0] else {
      Issue.record("expected the one TPV, got \(messages)")
      return
    }
    #expect(report.latitude == 48.8584)
  }

  @Test("1 MiB without a newline overflows the line limit: the connection is dropped, not grown")
  func megabyteWithoutNewline() {
    var reader = GPSDLineReader()
    var overflowed = false
    var chunks = 0
    for _ in 0..<256 where !overflowed {
      overflowed = reader.feed([UInt8](repeating: UInt8(ascii: "x"), count: 4096)).overflowed
      chunks += 1
    }
    #expect(overflowed)
    // NB: it is noticed within the limit and one chunk, not after the whole mebibyte.
    #expect(chunks * 4096 <= GPSDConnection.lineLimit + 4096)
  }

  @Test("Deeply nested JSON (10,000 brackets) is refused as not gpsd's, not a stack overflow")
  func deepNesting() {
    let line =
      [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
      + [UInt8](repeating: UInt8(ascii: "]"), count: 10)
    #expect(throws: GPSDMessage.DecodingError.self) { try GPSDMessage(line: line) }
    let object =
      Array(#"{"class":"TPV","x":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 9000)
    #expect(throws: GPSDMessage.DecodingError.self) { try GPSDMessage(line: object) }
  }

  @Test(
    "Numbers that are not positions: 1e999, NaN as a string, -0 and the like are refused or safe",
    arguments: [
      #"{"class":"TPV","mode":3,"lat":1e999,"lon":2}"#,
      #"{"class":"TPV","mode":3,"lat":"NaN","lon":2}"#,
      #"{"class":"TPV","mode":3,"lat":-1e999,"lon":-1e999}"#,
      #"{"class":"TPV","mode":3,"lat":48.8,"lon":2.2,"eph":1e999}"#,
      #"{"class":"TPV","mode":1e999,"lat":48.8,"lon":2.2}"#,
      #"{"class":"TPV","mode":3,"lat":-0,"lon":-0,"eph":-0}"#,
      #"{"class":"TPV","mode":3,"lat":91,"lon":2}"#,
      // The fuzzer's find: an error too large for Int trapped in the rejection's message.
      #"{"class":"TPV","mode":3,"lat":37.5,"lon":151.2,"eph":1222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222237}"#,
      #"{"class":"TPV","mode":3,"lat":37.5,"lon":151.2,"eph":1e300}"#,
    ])
  func oddNumbers(line: String) {
    let message = try? GPSDMessage(line: Array(line.utf8))
    guard case .position(let report)? = message else { return }  // refused: fine
    switch FixPolicy().assess(report, receivedAgo: .zero) {
    case .accepted(let fix, _), .imprecise(let fix, _):
      #expect(fix.coordinate.latitude.isFinite && abs(fix.coordinate.latitude) <= 90)
      #expect(fix.coordinate.longitude.isFinite && abs(fix.coordinate.longitude) <= 180)
      #expect(fix.horizontalError.map { $0.isFinite } ?? true)
    case .rejected(let why):
      #expect(!why.isEmpty)
    }
  }

  @Test("Any reported error reads as metres in a message, never a trap")
  func hugeErrors() {
    guard
      case .rejected(let why) = FixPolicy().assess(
        PositionReport(mode: 3, latitude: 1, longitude: 2, horizontalError: 1e300),
        receivedAgo: .zero)
    else {
      Issue.record("1e300 m was not refused")
      return
    }
    #expect(why == "fix too imprecise: ±1e+300 m (at most 2000 m)")
    let tag = LocationTag(
      name: "x", coordinate: Coordinate(latitude: 1, longitude: 2), horizontalError: 1e300)
    #expect(tag.description.hasSuffix("±1e+300 m"))
    #expect((137.4).wholeMetres == "137" && (-0.0).wholeMetres == "0")
  }

  @Test("10,000 imprecise TPVs in one burst are all read: the best one is kept, none queued")
  func burst() async throws {
    var lines: [String] = [#"{"class":"VERSION","release":"3.22"}"#]
    for index in 0..<10_000 {
      // NB: a scramble of 151…1950 m, and the best, 150 m, last: kept only if all were read.
      let eph = index == 9_999 ? 150 : 151 + (index * 7919) % 1_800
      lines.append(#"{"class":"TPV","mode":2,"lat":48.8584,"lon":2.2945,"eph":\#(eph)}"#)
    }
    let server = try LineServer(sending: Array((lines.joined(separator: "\n") + "\n").utf8))
    defer { server.stop() }
    let source = GPSDLocationSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port), clock: ContinuousClock())
    let step = source.preparation()
    let waiting = Task { try await step.perform() }
    // NB: waits for the last report to have been read (however long a sanitised build takes
    // to decode 10,000 lines), not for a time.
    let deadline = ContinuousClock.now + .seconds(120)
    while source.bestSoFar?.horizontalError != 150, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(step.ready()?.horizontalError == 150)
    waiting.cancel()
    _ = try? await waiting.value
  }
}
