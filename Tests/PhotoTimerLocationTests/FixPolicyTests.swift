import Foundation
import PhotoTimer
import PhotoTimerLocation
import Testing

@Suite("gpsd messages and the fix policy")
struct FixPolicyTests {
  private func message(_ json: String) throws -> GPSDMessage {
    try GPSDMessage(line: Array(json.utf8))
  }

  @Test("gpsd's classes decode to what the step needs")
  func decodes() throws {
    #expect(try message(#"{"class":"VERSION","release":"3.22"}"#) == .version(release: "3.22"))
    #expect(try message(#"{"class":"DEVICES","devices":[]}"#) == .devices(count: 0))
    #expect(try message(#"{"class":"SKY","uSat":0}"#) == .sky(satellitesUsed: 0))
    #expect(
      try message(#"{"class":"SKY","satellites":[{"used":true},{"used":false}]}"#)
        == .sky(satellitesUsed: 1))
    #expect(try message(#"{"class":"WATCH","enable":true}"#) == .other("WATCH"))
    guard
      case .position(let report) = try message(
        #"{"class":"TPV","mode":3,"lat":48.8584,"lon":2.2945,"altMSL":35.0,"eph":12.5,"time":"2026-11-30T12:00:05.000Z"}"#
      )
    else {
      Issue.record("expected a TPV")
      return
    }
    #expect(report.mode == 3)
    #expect(report.latitude == 48.8584)
    #expect(report.altitude == 35)
    #expect(report.horizontalError == 12.5)
    #expect(report.time == Date(timeIntervalSince1970: 1_796_040_005))
  }

  @Test(
    "Lines that are not gpsd JSON are refused, not crashed on",
    arguments: [
      "", "garbage", "{", "[]", #"{"class":3}"#, #"{"noclass":"TPV"}"#, "\u{0}\u{FF}",
      #"{"class":"TPV","lat":"north"}"#,
    ])
  func refusesWrongShapes(line: String) {
    #expect(throws: GPSDMessage.DecodingError.self) { try message(line) }
  }

  @Test("A 2-D or 3-D fix in range, fresh and precise enough, is accepted")
  func accepts() {
    let report = PositionReport(
      mode: 3, latitude: 37.7694, longitude: -122.4862, altitude: 50, horizontalError: 17)
    guard case .accepted(let fix, let note) = FixPolicy().assess(report, receivedAgo: .seconds(2))
    else {
      Issue.record("expected the fix to be accepted")
      return
    }
    #expect(fix.coordinate == Coordinate(latitude: 37.7694, longitude: -122.4862, altitude: 50))
    #expect(note == nil)
    // A 2-D fix has no altitude, whatever gpsd reports.
    let flat = PositionReport(mode: 2, latitude: 1, longitude: 2, altitude: 99)
    guard case .accepted(let fix2D, _) = FixPolicy().assess(flat, receivedAgo: .zero) else {
      Issue.record("expected the 2-D fix to be accepted")
      return
    }
    #expect(fix2D.coordinate.altitude == nil)
  }

  @Test(
    "Reports that are not good enough are rejected with a reason a person reads",
    arguments: [
      (PositionReport(mode: 1, latitude: 1, longitude: 2), 0, "no fix yet"),
      (PositionReport(mode: 0, latitude: nil, longitude: nil), 0, "no fix yet"),
      (PositionReport(mode: 3, latitude: .nan, longitude: 2), 0, "out of range"),
      (PositionReport(mode: 3, latitude: 91, longitude: 2), 0, "out of range"),
      (PositionReport(mode: 3, latitude: 1, longitude: -181), 0, "out of range"),
      (PositionReport(mode: 3, latitude: 1, longitude: .infinity), 0, "out of range"),
      (PositionReport(mode: 3, latitude: 1, longitude: 2), 41, "last fix 41 s old"),
      (PositionReport(mode: 3, latitude: 1, longitude: 2, horizontalError: 2500), 0, "±2500 m"),
    ])
  func rejects(report: PositionReport, ageSeconds: Int, reason: String) {
    let outcome = FixPolicy().assess(report, receivedAgo: .seconds(ageSeconds))
    guard case .rejected(let why) = outcome else {
      Issue.record("expected a rejection, got \(outcome)")
      return
    }
    #expect(why.contains(reason), "\(why)")
  }

  @Test("A wrong system clock does not reject a fix; the disagreement is noted")
  func clockDisagreement() {
    let gpsTime = Date(timeIntervalSince1970: 1_796_040_005)  // 2026-11-30 12:00:05 UTC
    let report = PositionReport(mode: 3, latitude: 1, longitude: 2, time: gpsTime)
    let systemClock = Date(timeIntervalSince1970: 0)  // a board without a real-time clock
    guard
      case .accepted(_, let note) = FixPolicy().assess(report, receivedAgo: .zero, now: systemClock)
    else {
      Issue.record("expected the fix to be accepted")
      return
    }
    #expect(note?.contains("differs from the system clock") == true)
  }
}
