/// Cuts a motion-JPEG stream (JPEG pictures one after another, as `gphoto2 --capture-movie
/// --stdout` writes a camera's live view) into whole pictures.
///
/// It follows the JPEG structure rather than looking for the end marker anywhere: marker
/// segments are skipped by their declared lengths (so an EXIF thumbnail's own end marker does
/// not end the picture), and in the compressed data only a marker that is neither stuffing
/// (`FF 00`) nor a restart (`FF D0`…`FF D7`) ends it. Bytes before a start marker are
/// dropped; a picture bigger than ``limit`` is dropped and the search starts again.
///
/// ```swift
/// var splitter = MJPEGSplitter()
/// for picture in splitter.append(chunk) { show(try JPEGCodec.decode(picture, path: "live view")) }
/// ```
public struct MJPEGSplitter: Sendable {
  private enum Position {
    /// Looking for FF D8.
    case seeking
    /// At a marker, after SOI or a segment.
    case marker
    /// In entropy-coded data after SOS.
    case scan
  }

  /// The largest picture kept (16 MiB).
  public var limit: Int
  private var buffer: [UInt8] = []
  private var position = Position.seeking
  /// Where scanning resumes in `buffer`.
  private var cursor = 0

  /// Creates a splitter.
  public init(limit: Int = 16 << 20) {
    self.limit = limit
  }

  /// Adds bytes from the stream; returns the pictures they complete, in order.
  public mutating func append(_ bytes: some Collection<UInt8>) -> [[UInt8]] {
    buffer.append(contentsOf: bytes)
    var pictures: [[UInt8]] = []
    while let picture = next() { pictures.append(picture) }
    if buffer.count > limit {
      buffer = []
      cursor = 0
      position = .seeking
    }
    return pictures
  }

  /// The next whole picture in the buffer, if one is complete.
  private mutating func next() -> [UInt8]? {
    while true {
      switch position {
      case .seeking:
        guard let start = startOfImage() else {
          // Keep a trailing FF: it may begin a start marker.
          buffer = buffer.last == 0xFF ? [0xFF] : []
          cursor = 0
          return nil
        }
        buffer.removeFirst(start)
        cursor = 2
        position = .marker
      case .marker:
        guard cursor + 4 <= buffer.count else { return nil }
        guard buffer[cursor] == 0xFF else { return restart() }
        let kind = buffer[cursor + 1]
        if kind == 0xFF {
          cursor += 1  // fill byte
          continue
        }
        if kind == 0xD9 { return finish(at: cursor + 2) }
        if (0xD0...0xD7).contains(kind) || kind == 0x01 {
          cursor += 2
          continue
        }
        let length = Int(buffer[cursor + 2]) << 8 | Int(buffer[cursor + 3])
        guard length >= 2 else { return restart() }
        guard cursor + 2 + length <= buffer.count else { return nil }
        cursor += 2 + length
        if kind == 0xDA { position = .scan }
      case .scan:
        while cursor + 1 < buffer.count {
          if buffer[cursor] == 0xFF {
            let kind = buffer[cursor + 1]
            if kind == 0x00 || (0xD0...0xD7).contains(kind) || kind == 0xFF {
              cursor += kind == 0xFF ? 1 : 2
              continue
            }
            if kind == 0xD9 { return finish(at: cursor + 2) }
            // Another segment (a second scan of a progressive picture).
            position = .marker
            break
          }
          cursor += 1
        }
        if position == .scan { return nil }
      }
    }
  }

  /// The offset of the first FF D8 in the buffer.
  private func startOfImage() -> Int? {
    guard buffer.count >= 2 else { return nil }
    for index in 0..<(buffer.count - 1) where buffer[index] == 0xFF && buffer[index + 1] == 0xD8 {
      return index
    }
    return nil
  }

  private mutating func finish(at end: Int) -> [UInt8] {
    let picture = Array(buffer[0..<end])
    buffer.removeFirst(end)
    cursor = 0
    position = .seeking
    return picture
  }

  /// Not a JPEG after all: drop its start marker and look for the next one.
  private mutating func restart() -> [UInt8]? {
    buffer.removeFirst(2)
    cursor = 0
    position = .seeking
    return next()
  }
}
