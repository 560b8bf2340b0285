import Foundation

/// One line of gpsd's JSON protocol, reduced to what the location step uses.
public enum GPSDMessage: Hashable, Sendable {
  /// The greeting: gpsd's release.
  case version(release: String)
  /// The receivers gpsd knows of.
  case devices(count: Int)
  /// A time-position-velocity report.
  case position(PositionReport)
  /// A sky view: how many satellites are used in the fix.
  case sky(satellitesUsed: Int?)
  /// An error gpsd reports about the request.
  case error(String)
  /// A class this client does not use (WATCH, DEVICE, PPS, …).
  case other(String)

  /// Why a line could not be read as a gpsd message.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the line.
    public var description: String
  }

  private struct Envelope: Decodable {
    var `class`: String
    var release: String?
    var devices: [Device]?
    var message: String?
    var mode: Int?
    var lat: Double?
    var lon: Double?
    var altMSL: Double?
    var alt: Double?
    var eph: Double?
    var time: String?
    var uSat: Int?
    var satellites: [Satellite]?

    struct Device: Decodable {}
    struct Satellite: Decodable { var used: Bool? }
  }

  /// Decodes one line.
  ///
  /// - Parameter line: The bytes of one line, without the newline.
  /// - Returns: The message.
  /// - Throws: ``DecodingError`` for text that is not a JSON object with a string `class`.
  public init(line: some Collection<UInt8>) throws(DecodingError) {
    let envelope: Envelope
    do {
      envelope = try JSONDecoder().decode(Envelope.self, from: Data(line))
    } catch {
      throw DecodingError(description: "not a gpsd JSON object with a \"class\"")
    }
    switch envelope.class {
    case "VERSION": self = .version(release: envelope.release ?? "unknown")
    case "DEVICES": self = .devices(count: envelope.devices?.count ?? 0)
    case "ERROR": self = .error(envelope.message ?? "unknown error")
    case "SKY":
      self = .sky(
        satellitesUsed: envelope.uSat
          ?? envelope.satellites.map { $0.filter { $0.used == true }.count })
    case "TPV":
      self = .position(
        PositionReport(
          mode: envelope.mode ?? 0, latitude: envelope.lat, longitude: envelope.lon,
          altitude: envelope.altMSL ?? envelope.alt, horizontalError: envelope.eph,
          time: envelope.time.flatMap(PositionReport.parseTime)))
    default: self = .other(envelope.class)
    }
  }
}

/// A TPV report as gpsd sent it, before any judgement of its quality.
public struct PositionReport: Hashable, Sendable {
  /// 0 or 1: no fix; 2: a 2-D fix; 3: a 3-D fix.
  public var mode: Int
  /// Latitude in degrees, if reported.
  public var latitude: Double?
  /// Longitude in degrees, if reported.
  public var longitude: Double?
  /// Altitude above mean sea level in metres, if reported.
  public var altitude: Double?
  /// Estimated horizontal error in metres (gpsd's `eph`), if reported.
  public var horizontalError: Double?
  /// The fix's own GPS time, if reported.
  public var time: Date?

  /// Creates a report.
  public init(
    mode: Int, latitude: Double?, longitude: Double?, altitude: Double? = nil,
    horizontalError: Double? = nil, time: Date? = nil
  ) {
    self.mode = mode
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
    self.horizontalError = horizontalError
    self.time = time
  }

  /// Parses gpsd's ISO 8601 time, such as `2026-11-30T12:00:05.000Z`.
  static func parseTime(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
