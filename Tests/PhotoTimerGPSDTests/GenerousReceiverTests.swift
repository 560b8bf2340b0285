import Foundation
import PhotoTimer
import PhotoTimerGPSD
import PhotoTimerLocation
import Testing

/// Receivers that report their error generously (±137 m): used rather than refused, the
/// error recorded. gpsd is played by a line server sending chosen TPV reports.
@Suite("gpsd: generous receivers", .serialized, .timeLimit(.minutes(1)))
struct GenerousReceiverTests {
  private static let version = #"{"class":"VERSION","release":"3.22"}"#

  private static func tpv(
    _ eph: Double, latitude: Double = 48.8584, longitude: Double = 2.2945
  )
    -> String
  {
    #"{"class":"TPV","mode":2,"lat":\#(latitude),"lon":\#(longitude),"eph":\#(eph)}"#
  }

  private func serving(_ lines: [String], thenClose: Bool = false) throws -> LineServer {
    try LineServer(
      sending: Array((lines.joined(separator: "\n") + "\n").utf8), thenClose: thenClose)
  }

  private func source(
    _ server: LineServer, policy: FixPolicy = FixPolicy()
  )
    -> GPSDLocationSource<ContinuousClock>
  {
    GPSDLocationSource(
      endpoint: GPSDEndpoint(host: "127.0.0.1", port: server.port), policy: policy,
      clock: ContinuousClock())
  }

  @Test("The policy: within 100 m accepted, up to the hard limit imprecise, beyond refused")
  func policy() {
    func report(_ eph: Double?) -> PositionReport {
      PositionReport(mode: 2, latitude: 48.8584, longitude: 2.2945, horizontalError: eph)
    }
    let policy = FixPolicy()
    guard case .accepted = policy.assess(report(80), receivedAgo: .zero),
      case .accepted = policy.assess(report(nil), receivedAgo: .zero),
      case .imprecise(let fix, _) = policy.assess(report(137), receivedAgo: .zero),
      case .imprecise = policy.assess(report(2000), receivedAgo: .zero),
      case .rejected(let why) = policy.assess(report(2400), receivedAgo: .zero)
    else {
      Issue.record("unexpected assessment")
      return
    }
    #expect(fix.horizontalError == 137)
    #expect(why == "fix too imprecise: ±2400 m (at most 2000 m)")
    let strict = FixPolicy(maximumHorizontalError: 500)
    guard case .rejected = strict.assess(report(600), receivedAgo: .zero) else {
      Issue.record("600 m passed a 500 m limit")
      return
    }
    // The limit is never below the preference.
    #expect(
      FixPolicy(preferredHorizontalError: 300, maximumHorizontalError: 50).maximumHorizontalError
        == 300)
  }

  @Test("Only imprecise fixes: the step keeps waiting, says so, and offers the best at the shutter")
  func bestAtTheShutter() async throws {
    let server = try serving([Self.version, Self.tpv(420), Self.tpv(137), Self.tpv(260)])
    defer { server.stop() }
    let source = source(server)
    let step = source.preparation()
    // NB: the step pushes its status after each report: the test waits for those words.
    let (said, saying) = AsyncStream.makeStream(of: String?.self)
    let listener = StepStatus.Listener { saying.yield($0) }
    let waiting = Task {
      try await StepStatus.$listener.withValue(listener) { try await step.perform() }
    }
    let expected = "fix ±137 m so far; waiting for one within 100 m"
    var heard: [String?] = []
    for await text in said {
      heard.append(text)
      if text == expected { break }
    }
    #expect(heard.first??.hasPrefix("no fix yet: no report from gpsd at 127.0.0.1:") == true)
    #expect(heard.last == expected)
    #expect(source.status == expected)
    let tag = try #require(step.ready())
    #expect(tag.horizontalError == 137)
    let place = try #require(
      try ReverseGeocoder.bundled().describe(Coordinate(latitude: 48.8584, longitude: 2.2945)))
    #expect(tag.name == (place.distance < 137 ? "near \(place.label)" : place.label))
    #expect(tag.description.hasSuffix("±137 m"))
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
  }

  @Test("A precise fix after imprecise ones is taken at once")
  func preciseWins() async throws {
    let server = try serving([Self.version, Self.tpv(300), Self.tpv(12)])
    defer { server.stop() }
    let tag = try await source(server).locate()
    #expect(tag.horizontalError == 12)
    #expect(tag.name == "Paris 16 Passy, Paris, France")
    #expect(!tag.description.contains("±"))
  }

  @Test("When the wait ends with only an imprecise fix, that fix is the answer")
  func impreciseAtTheEnd() async throws {
    // NB: the wait ends when gpsd closes, after its reports: at any speed.
    let server = try serving([Self.version, Self.tpv(900)], thenClose: true)
    defer { server.stop() }
    let tag = try await source(server).locate()
    #expect(tag.horizontalError == 900)
    #expect(tag.description.hasSuffix("±900 m"))
  }

  @Test("Beyond the hard limit: no tag, and the reason says by how much")
  func beyondTheLimit() async throws {
    let server = try serving([Self.version, Self.tpv(3000)], thenClose: true)
    defer { server.stop() }
    let error = await #expect(throws: LocationUnavailable.self) {
      try await source(server).locate()
    }
    #expect(error?.reason.contains("fix too imprecise: ±3000 m (at most 2000 m)") == true)
  }

  @Test("The place is 'near' when the error is larger than the distance to it")
  func near() throws {
    let geocoder = try ReverseGeocoder.bundled()
    let eiffel = Coordinate(latitude: 48.8584, longitude: 2.2945)
    let place = try #require(geocoder.describe(eiffel))
    #expect(geocoder.name(for: eiffel, horizontalError: 5) == place.label)
    #expect(geocoder.name(for: eiffel, horizontalError: nil) == place.label)
    #expect(
      geocoder.name(for: eiffel, horizontalError: place.distance + 50) == "near \(place.label)")
  }
}
