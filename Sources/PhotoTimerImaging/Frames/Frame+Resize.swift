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
