import Foundation
import PhotoTimer
import PhotoTimerImaging
import PhotoTimerPOSIX
import Testing

@testable import PhotoTimerJPEG

@Suite("JPEG and EXIF, read back with exiftool and libjpeg", .serialized)
struct ExifTests {
  @Test("Encode then decode gives the picture back, within JPEG's loss")
  func roundTrip() throws {
    let frame = gradient()
    let bytes = try JPEGCodec.encode(frame, quality: 95)
    let back = try JPEGCodec.decode(bytes, path: "memory")
    #expect(back.width == 64 && back.height == 48)
    let difference = zip(frame.pixels, back.pixels).map { abs(Int($0) - Int($1)) }
    let mean = Double(difference.reduce(0, +)) / Double(difference.count)
    #expect(mean < 3, "mean difference \(mean)")
  }

  @Test("Every EXIF field is there, as exiftool reads it, and libjpeg's djpeg accepts the file")
  func fields() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let location = LocationTag(
      name: "Paris 16 Passy, Paris, France",
      coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945, altitude: 35),
      horizontalError: 4.5, fixTime: Date(timeIntervalSince1970: 1_796_040_005))
    let path = folder.path + "/photo.jpg"
    let bytes = try JPEGFile.make(gradient(), metadata: testMetadata(location: location))
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let tags = try await exiftool(path)
    #expect(tags["IFD0:Make"] as? String == "phototimer")
    #expect(tags["IFD0:Model"] as? String == "Scene camera (daylight)")
    #expect(tags["IFD0:Software"] as? String == "phototimer \(PhotoTimerVersion.current)")
    #expect(tags["IFD0:Orientation"] as? Int == 1)
    #expect(tags["IFD0:ImageDescription"] as? String == "Vivid look, Paris 16 Passy, Paris, France")
    #expect(tags["ExifIFD:DateTimeOriginal"] as? String == "2026:11:30 14:15:03")
    #expect(tags["ExifIFD:OffsetTimeOriginal"] as? String == "+01:00")
    #expect("\(tags["ExifIFD:SubSecTimeOriginal"] ?? "")" == "042")
    #expect(abs((tags["ExifIFD:ExposureTime"] as? Double ?? 0) - 1.0 / 60) < 1e-6)
    #expect(tags["ExifIFD:FNumber"] as? Double == 2.8)
    #expect(tags["ExifIFD:ISO"] as? Int == 400)
    #expect(tags["ExifIFD:ExifImageWidth"] as? Int == 64)
    #expect(tags["ExifIFD:ExifImageHeight"] as? Int == 48)
    #expect(abs((tags["GPS:GPSLatitude"] as? Double ?? 0) - 48.8584) < 1e-6)
    #expect(tags["GPS:GPSLatitudeRef"] as? String == "N")
    #expect(abs((tags["GPS:GPSLongitude"] as? Double ?? 0) - 2.2945) < 1e-6)
    #expect(tags["GPS:GPSLongitudeRef"] as? String == "E")
    #expect(tags["GPS:GPSAltitude"] as? Double == 35)
    #expect(tags["GPS:GPSAltitudeRef"] as? Int == 0)
    // The fix's own GPS time (12:00:05 UTC), not the shutter's.
    #expect(tags["GPS:GPSTimeStamp"] as? String == "12:00:05")
    #expect(tags["GPS:GPSDateStamp"] as? String == "2026:11:30")
    #expect(tags["GPS:GPSMapDatum"] as? String == "WGS-84")
    #expect(tags["GPS:GPSHPositioningError"] as? Double == 4.5)
    #expect(tags["GPS:GPSVersionID"] as? String == "2 3 0 0")
    #expect(tags["ExifTool:Warning"] == nil, "\(tags["ExifTool:Warning"] ?? "")")
    let djpeg = try await ChildProcess.run(["djpeg", "-outfile", "/dev/null", path])
    #expect(djpeg.succeeded, "djpeg: \(djpeg.standardError)")
    #expect(djpeg.standardError.isEmpty, "djpeg: \(djpeg.standardError)")
  }

  @Test(
    "GPS signs and refs in all four hemispheres, and below sea level",
    arguments: [
      (37.7694, -122.4862, 50.0, "N", "W"),
      (48.8584, 2.2945, 35.0, "N", "E"),
      (-33.8568, 151.2153, 58.0, "S", "E"),
      (-34.6037, -58.3816, -12.5, "S", "W"),
    ])
  func hemispheres(
    latitude: Double, longitude: Double, altitude: Double, latitudeRef: String,
    longitudeRef: String
  ) async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let location = LocationTag(
      name: "Somewhere",
      coordinate: Coordinate(latitude: latitude, longitude: longitude, altitude: altitude))
    let path = folder.path + "/photo.jpg"
    try Data(JPEGFile.make(gradient(), metadata: testMetadata(location: location)))
      .write(to: URL(fileURLWithPath: path))
    let tags = try await exiftool(path)
    #expect(tags["GPS:GPSLatitudeRef"] as? String == latitudeRef)
    #expect(tags["GPS:GPSLongitudeRef"] as? String == longitudeRef)
    #expect(abs((tags["Composite:GPSLatitude"] as? Double ?? 0) - latitude) < 1e-6)
    #expect(abs((tags["Composite:GPSLongitude"] as? Double ?? 0) - longitude) < 1e-6)
    #expect(tags["GPS:GPSAltitudeRef"] as? Int == (altitude < 0 ? 1 : 0))
    #expect(abs((tags["Composite:GPSAltitude"] as? Double ?? 0) - altitude) < 1e-6)
    // Without a fix time, the GPS stamp is the shutter's time in UTC (13:15:03.042).
    #expect(tags["GPS:GPSTimeStamp"] as? String == "13:15:03.042")
  }

  @Test("Without a location there is no GPS IFD and the description is the look alone")
  func noLocation() async throws {
    let folder = try TemporaryFolder()
    defer { folder.cleanUp() }
    let path = folder.path + "/photo.jpg"
    try Data(JPEGFile.make(gradient(), metadata: testMetadata())).write(
      to: URL(fileURLWithPath: path))
    let tags = try await exiftool(path)
    #expect(tags.keys.filter { $0.hasPrefix("GPS:") }.isEmpty, "\(tags.keys.sorted())")
    #expect(tags["IFD0:ImageDescription"] as? String == "Vivid look")
  }

  @Test("A JPEG's recorded exposure is read back from its EXIF")
  func recordedExposure() throws {
    let bytes = try JPEGFile.make(gradient(), metadata: testMetadata())
    let exposure = try #require(JPEGFile.recordedExposure(in: bytes))
    #expect(abs(exposure.exposureTime - 1.0 / 60) < 1e-9)
    #expect(exposure.fNumber == 2.8)
    #expect(exposure.iso == 400)
    #expect(JPEGFile.recordedExposure(in: try JPEGCodec.encode(gradient())) == nil)
  }
}
