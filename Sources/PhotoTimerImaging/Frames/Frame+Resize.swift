extension Frame {
  /// A smaller copy, at most `maxWidth` wide, averaging boxes of pixels; the frame itself when
  /// it is already small enough.
  public func downscaled(maxWidth: Int) -> Frame {
    guard width > maxWidth, maxWidth > 0 else { return self }
    let factor = (width + maxWidth - 1) / maxWidth
    let newWidth = max(1, width / factor)
    let newHeight = max(1, height / factor)
    var result = Frame(
      width: newWidth, height: newHeight, timestamp: timestamp, exposureEV: exposureEV)
    let area = factor * factor
    pixels.withUnsafeBufferPointer { source in
      result.pixels.withUnsafeMutableBufferPointer { target in
        for y in 0..<newHeight {
          for x in 0..<newWidth {
            var sums = (0, 0, 0)
            for dy in 0..<factor {
              var offset = (y * factor + dy) * bytesPerRow + x * factor * 3
              for _ in 0..<factor {
                sums.0 += Int(source[offset])
                sums.1 += Int(source[offset + 1])
                sums.2 += Int(source[offset + 2])
                offset += 3
              }
            }
            let out = (y * newWidth + x) * 3
            target[out] = UInt8(sums.0 / area)
            target[out + 1] = UInt8(sums.1 / area)
            target[out + 2] = UInt8(sums.2 / area)
          }
        }
      }
    }
    return result
  }
}

/// The room a preview is drawn in, in pixels: a preview is scaled to fit inside it, keeping
/// its proportions.
public struct PreviewSize: Hashable, Sendable, CustomStringConvertible {
  /// The widest the preview may be.
  public var width: Int
  /// The tallest the preview may be.
  public var height: Int

  /// Creates a size; each side is at least one pixel.
  public init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
  }

  /// `"120×80"`.
  public var description: String { "\(width)×\(height)" }
}

extension Frame {
  /// The size of this frame scaled to fit inside `room`, keeping its proportions (at least
  /// one pixel each way).
  public func size(fitting room: PreviewSize) -> PreviewSize {
    let scale = min(Double(room.width) / Double(width), Double(room.height) / Double(height))
    return PreviewSize(
      width: min(room.width, Int((Double(width) * scale).rounded())),
      height: min(room.height, Int((Double(height) * scale).rounded())))
  }

  /// A copy scaled to fit inside `room` (keeping its proportions), each pixel the average of
  /// the pixels it covers; mirrored left to right when `mirrored`.
  ///
  /// The cost is one read of every source pixel: 1280 × 720 into a terminal's 120 × 68 takes
  /// about a millisecond.
  public func scaled(toFit room: PreviewSize, mirrored: Bool = false) -> Frame {
    let target = size(fitting: room)
    return resized(width: target.width, height: target.height, mirrored: mirrored)
  }

  /// A copy of exactly `newWidth` × `newHeight`, each pixel the average of the box of pixels
  /// it covers (the nearest pixel when enlarging); mirrored left to right when `mirrored`.
  public func resized(
    width newWidth: Int, height newHeight: Int, mirrored: Bool = false
  )
    -> Frame
  {
    let newWidth = max(newWidth, 1)
    let newHeight = max(newHeight, 1)
    if newWidth == width, newHeight == height, !mirrored { return self }
    var result = Frame(
      width: newWidth, height: newHeight, timestamp: timestamp, exposureEV: exposureEV)
    func spans(_ count: Int, over source: Int) -> [(start: Int, end: Int)] {
      (0..<count).map { index in
        let start = min(index * source / count, source - 1)
        return (start, max(start + 1, (index + 1) * source / count))
      }
    }
    let columns = spans(newWidth, over: width)
    let rows = spans(newHeight, over: height)
    let stride = bytesPerRow
    pixels.withUnsafeBufferPointer { source in
      result.pixels.withUnsafeMutableBufferPointer { target in
        var sums = [Int](repeating: 0, count: newWidth * 3)
        for (y, row) in rows.enumerated() {
          for index in sums.indices { sums[index] = 0 }
          for sourceY in row.start..<row.end {
            let base = sourceY * stride
            for (x, column) in columns.enumerated() {
              var offset = base + column.start * 3
              var red = 0
              var green = 0
              var blue = 0
              for _ in column.start..<column.end {
                red += Int(source[offset])
                green += Int(source[offset + 1])
                blue += Int(source[offset + 2])
                offset += 3
              }
              sums[x * 3] += red
              sums[x * 3 + 1] += green
              sums[x * 3 + 2] += blue
            }
          }
          let rowCount = row.end - row.start
          var out = y * newWidth * 3
          for x in 0..<newWidth {
            let from = mirrored ? newWidth - 1 - x : x
            let area = rowCount * (columns[from].end - columns[from].start)
            target[out] = UInt8(sums[from * 3] / area)
            target[out + 1] = UInt8(sums[from * 3 + 1] / area)
            target[out + 2] = UInt8(sums[from * 3 + 2] / area)
            out += 3
          }
        }
      }
    }
    return result
  }
}

extension Frame {
  /// The picture as a viewer shows it for an EXIF `orientation` (1…8): turned and mirrored
  /// so that its first stored row and column land where the tag says (1 as it is; 2 mirrored;
  /// 3 turned half round; 4 flipped; 5 transposed; 6 turned a quarter clockwise; 7
  /// transversed; 8 turned a quarter anticlockwise). Other values leave it as it is.
  public func oriented(_ orientation: Int) -> Frame {
    guard (2...8).contains(orientation) else { return self }
    let swaps = orientation >= 5
    var result = Frame(
      width: swaps ? height : width, height: swaps ? width : height, timestamp: timestamp,
      exposureEV: exposureEV)
    let (w, h) = (width, height)
    let stride = bytesPerRow
    pixels.withUnsafeBufferPointer { source in
      result.pixels.withUnsafeMutableBufferPointer { target in
        var out = 0
        for y in 0..<result.height {
          for x in 0..<result.width {
            let (sx, sy): (Int, Int)
            switch orientation {
            case 2: (sx, sy) = (w - 1 - x, y)
            case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
            case 4: (sx, sy) = (x, h - 1 - y)
            case 5: (sx, sy) = (y, x)
            case 6: (sx, sy) = (y, h - 1 - x)
            case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
            default: (sx, sy) = (w - 1 - y, x)
            }
            let offset = sy * stride + sx * 3
            target[out] = source[offset]
            target[out + 1] = source[offset + 1]
            target[out + 2] = source[offset + 2]
            out += 3
          }
        }
      }
    }
    return result
  }
}
