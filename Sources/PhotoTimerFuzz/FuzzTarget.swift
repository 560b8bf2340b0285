import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerGStreamer
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerRemote
import PhotoTimerSetup

/// One hand-written parser under the fuzzer: bytes in, no crash, no hang, and what the
/// parser promises checked on what it returns.
///
/// A broken promise stops the process with `fatalError` and the input that broke it, which
/// libFuzzer keeps as a crash (and the replay reports).
enum FuzzTarget: String, CaseIterable, Sendable {
  /// gpsd's line framing and message decoding: fed whole and one byte at a time, the same
  /// messages come out.
  case gpsd
  /// The fix policy on decoded reports: an accepted fix is finite and in range.
  case fix
  /// The JPEG segment walker and EXIF merge used for DSLR files.
  case jpeg
  /// The JPEG and PNG header checks and decoders of the image-file camera.
  case image
  /// The command line (arguments separated by NUL bytes).
  case arguments
  /// `--location LAT,LON[,ALT]`.
  case location
  /// The tab-separated place tables.
  case places
  /// ffmpeg's announcement of its output stream.
  case ffmpeg
  /// The MJPEG stream splitter (the DSLR live view).
  case mjpeg
  /// GStreamer's device monitor report (PipeWire cameras, their caps as modes).
  case devices
  /// The remote's request handling: routing, the token in the query, cookie and header,
  /// the Origin rule, photo numbers and byte ranges.
  case remote

  func run(_ bytes: [UInt8]) {
    switch self {
    case .gpsd: Self.gpsd(bytes)
    case .fix: Self.fix(bytes)
    case .jpeg: Self.jpeg(bytes)
    case .image: Self.image(bytes)
    case .arguments: Self.arguments(bytes)
    case .location: Self.location(bytes)
    case .places: Self.places(bytes)
    case .ffmpeg: Self.ffmpeg(bytes)
    case .mjpeg: Self.mjpeg(bytes)
    case .devices: Self.devices(bytes)
    case .remote: Self.remote(bytes)
    }
  }

  private static let remoteToken = RemoteToken(
    high: 0x1234_5678_9abc_def0, low: 0x0fed_cba9_8765_4321)

  /// A request as text: `METHOD TARGET`, then `name: value` header lines.
  private static func remote(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    let first = (lines.first ?? "").split(separator: " ", maxSplits: 1)
    let target = first.count > 1 ? first[1] : "/"
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = String(
        line[line.index(after: colon)...].drop { $0 == " " })
    }
    let request = RemoteRequest(
      method: String(first.first ?? ""), path: RemoteRequest.percentDecoded(parts[0]),
      query: parts.count > 1 ? String(parts[1]) : nil, headers: headers,
      contentLength: headers["content-length"].flatMap { Int64($0) })
    let router = RemoteRouter(token: remoteToken)
    let decision = router.route(request)
    let token = remoteToken
    let carried =
      token.matches(request.queryValue("t")) || token.matches(request.bearer)
      || token.matches(request.cookie(RemoteRouter.cookieName))
    if case .serve(let route, _) = decision {
      require(carried, "a served request carried the token")
      if let origin = headers["origin"] {
        require(
          origin == "http://\(headers["host"] ?? "")", "a served request's Origin is the page's")
      }
      if case .photo(let id, _, _) = route {
        require(id > 0 && request.path == "/api/photos/\(id)", "a photo is asked for by number")
      }
      if case .intent = route { require(request.method == "POST", "an intent is a POST") }
    } else if !carried {
      require(decision == .refuse(.forbidden), "without the token the answer is 403")
    }
    let size = Int(bytes.first ?? 0) * 37
    if case .partial(let range) = ByteRange.parse(headers["range"], size: size) {
      require(
        range.first >= 0 && range.first <= range.last && range.last < size,
        "a range lies inside the file")
    }
  }

  private static func devices(_ bytes: [UInt8]) {
    let cameras = PipeWireCameras.parse(String(decoding: bytes, as: UTF8.self))
    for camera in cameras {
      require(!camera.node.isEmpty, "a listed camera has a node name")
      for mode in camera.modes {
        require(
          mode.size.width > 0 && mode.size.height > 0 && mode.rates.allSatisfy { $0.perSecond > 0 },
          "a listed mode has a size and positive rates")
      }
    }
  }

  private static func require(_ condition: Bool, _ promise: @autoclosure () -> String) {
    if !condition { fatalError("broken promise: \(promise())") }
  }

  private static func gpsd(_ bytes: [UInt8]) {
    var whole = GPSDLineReader()
    let (all, overflowedWhole) = whole.feed(bytes)
    var bytewise = GPSDLineReader()
    var pieces: [GPSDMessage] = []
    var overflowed = false
    for byte in bytes {
      let (messages, over) = bytewise.feed([byte])
      pieces += messages
      overflowed = overflowed || over
      if over { break }
    }
    if !overflowed, !overflowedWhole {
      require(all == pieces, "the same bytes framed whole and byte by byte agree")
    }
  }

  private static func fix(_ bytes: [UInt8]) {
    let policy = FixPolicy()
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      guard case .position(let report)? = try? GPSDMessage(line: line) else { continue }
      switch policy.assess(report, receivedAgo: .zero, now: Date(timeIntervalSince1970: 0)) {
      case .accepted(let fix, _), .imprecise(let fix, _):
        let coordinate = fix.coordinate
        require(
          coordinate.latitude.isFinite && abs(coordinate.latitude) <= 90
            && coordinate.longitude.isFinite && abs(coordinate.longitude) <= 180,
          "an accepted fix is in range: \(coordinate)")
        require(
          (fix.horizontalError ?? 0) <= policy.maximumHorizontalError,
          "an accepted fix is within the hard limit")
        _ =
          LocationTag(name: "x", coordinate: coordinate, horizontalError: fix.horizontalError)
          .description
      case .rejected(let why):
        require(!why.isEmpty, "a rejection says why")
      }
    }
  }

  private static let metadata = PhotoMetadata(
    make: "Canon", model: "EOS", date: Date(timeIntervalSince1970: 1_796_040_000),
    settings: ExposureProgram.standard.settings(forSceneEV: 12), filter: .natural, location: nil)

  private static func jpeg(_ bytes: [UInt8]) {
    let damage = JPEGFile.damage(in: bytes)
    if let segment = ExifBlock.exifSegment(in: bytes) {
      require(segment.lowerBound >= 0 && segment.upperBound <= bytes.count, "the segment is inside")
    }
    if let orientation = JPEGFile.recordedOrientation(in: bytes) {
      require((1...8).contains(orientation), "an orientation is 1…8")
    }
    _ = JPEGFile.recordedExposure(in: bytes)
    if let merged = try? ExifBlock.merging(metadata, into: bytes) {
      require(damage == nil, "only a whole file is merged")
      require(JPEGFile.damage(in: merged) == nil, "a merged file is whole")
    }
  }

  private static func image(_ bytes: [UInt8]) {
    guard let frame = try? ImageFileCamera<ContinuousClock>.decode(bytes, path: "input") else {
      return
    }
    require(
      frame.width > 0 && frame.height > 0 && frame.pixels.count >= frame.width * frame.height * 3,
      "a decoded image has its pixels")
  }

  private static func arguments(_ bytes: [UInt8]) {
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    do {
      _ = try CommandOptions(arguments: arguments, environment: [:])
    } catch {
      require(!error.problems.isEmpty, "bad usage names a problem")
      for problem in error.problems { require(!problem.isEmpty, "a problem is not empty") }
    }
  }

  private static func location(_ bytes: [UInt8]) {
    guard let location = try? ManualLocation(parsing: String(decoding: bytes, as: UTF8.self))
    else { return }
    let coordinate = location.coordinate
    require(
      coordinate.latitude.isFinite && abs(coordinate.latitude) <= 90
        && coordinate.longitude.isFinite && abs(coordinate.longitude) <= 180
        && (coordinate.altitude?.isFinite ?? true),
      "a parsed location is in range: \(coordinate)")
  }

  private static func places(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let places = try? ReverseGeocoder.parseCities(text, file: "cities") {
      for place in places {
        require(
          abs(place.coordinate.latitude) <= 90 && abs(place.coordinate.longitude) <= 180,
          "a place is in range")
      }
    }
    _ = try? ReverseGeocoder.parseCountries(text, file: "countries")
  }

  private static func ffmpeg(_ bytes: [UInt8]) {
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      guard let announced = FFmpegAnnouncement(String(line)) else { continue }
      if let size = announced.size {
        require(
          size.width > 0 && size.height > 0 && size.width * size.height <= 65_535 * 65_535,
          "an announced size is sane")
      }
      if let rate = announced.framesPerSecond {
        require(rate > 0 && rate <= 10_000, "an announced rate is sane")
      }
    }
  }

  private static func mjpeg(_ bytes: [UInt8]) {
    var splitter = MJPEGSplitter(limit: 1 << 20)
    // NB: in two pieces, cut where the first byte says, as a pipe delivers it.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
    var frames = splitter.append(bytes[..<cut])
    frames += splitter.append(bytes[cut...])
    for frame in frames {
      require(frame.starts(with: [0xFF, 0xD8]), "a frame starts with its start marker")
      require(frame.count <= 1 << 20, "a frame is within the limit")
    }
  }
}
