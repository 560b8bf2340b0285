import Foundation
import PhotoTimerImaging
import PhotoTimerJPEG

/// Real faces for the tests, and the frames made from them: groups, blinks, motion blur.
enum TestFaces {
  /// The astronaut photograph (512 × 512, one face about 86 pixels across).
  static let astronaut = fixture("astronaut")

  /// The same photograph with her eyes painted shut (see the fixtures' README).
  static let astronautShut = fixture("astronaut-eyes-shut")

  /// The fixture JPEG `name`, decoded.
  private static func fixture(_ name: String) -> Frame {
    // NB: a fixture that cannot be read leaves a 1-pixel frame: every test then finds no face.
    guard
      let url = Bundle.module.url(
        forResource: name, withExtension: "jpg", subdirectory: "Fixtures"),
      let data = try? Data(contentsOf: url),
      let frame = try? JPEGCodec.decode([UInt8](data), path: url.path)
    else { return Frame(width: 1, height: 1) }
    return frame
  }

  /// The part of the astronaut photograph around her head: the face is about 45 % of its
  /// width.
  static let head = crop(astronaut, PixelBox(x: 127, y: 32, width: 190, height: 190))

  /// `box` of `frame`.
  static func crop(_ frame: Frame, _ box: PixelBox) -> Frame {
    let left = Int(box.x)
    let top = Int(box.y)
    let width = Int(box.width)
    let height = Int(box.height)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for row in 0..<height {
      let from = (top + row) * frame.bytesPerRow + left * 3
      pixels.replaceSubrange(
        row * width * 3..<(row + 1) * width * 3, with: frame.pixels[from..<from + width * 3])
    }
    return Frame(width: width, height: height, pixels: pixels) ?? Frame(width: 1, height: 1)
  }

  /// `frame` with `picture` painted at (`x`, `y`).
  static func paste(_ picture: Frame, into frame: inout Frame, x: Int, y: Int) {
    for row in 0..<picture.height where y + row >= 0 && y + row < frame.height {
      for column in 0..<picture.width where x + column >= 0 && x + column < frame.width {
        let from = row * picture.bytesPerRow + column * 3
        let to = (y + row) * frame.bytesPerRow + (x + column) * 3
        frame.pixels[to] = picture.pixels[from]
        frame.pixels[to + 1] = picture.pixels[from + 1]
        frame.pixels[to + 2] = picture.pixels[from + 2]
      }
    }
  }

  /// A frame of `width × height` in a plain warm grey (a wall), with the head pasted at each
  /// of `places` (its top-left corner and the head crop's width there).
  static func group(
    width: Int = 1280, height: Int = 720, places: [(x: Int, y: Int, size: Int)]
  ) -> Frame {
    var frame = Frame(width: width, height: height)
    for index in stride(from: 0, to: frame.pixels.count, by: 3) {
      frame.pixels[index] = 150
      frame.pixels[index + 1] = 140
      frame.pixels[index + 2] = 128
    }
    for place in places {
      paste(
        head.resized(width: place.size, height: place.size), into: &frame, x: place.x, y: place.y)
    }
    return frame
  }

  /// Six people round a table in a 1280 × 720 frame, faces about 70–125 pixels across (the
  /// head crops are 2.2 times the face).
  static let sixAtATable: Frame = group(places: [
    (x: 40, y: 60, size: 160), (x: 250, y: 120, size: 200), (x: 480, y: 40, size: 275),
    (x: 790, y: 110, size: 230), (x: 1040, y: 60, size: 180), (x: 600, y: 380, size: 170),
  ])

  /// `frame` with the eyes of the face whose `landmarks` are given painted shut: each eye's
  /// opening covered by lid, its skin blended down each column from the skin just above the
  /// eye to the skin just below it, with soft edges, and a curved line of dark lashes where
  /// the lids meet, thinner toward the corners.
  static func closingEyes(_ frame: Frame, landmarks: [FacePoint]) -> Frame {
    var output = frame
    for eye in [Array(landmarks[36...41]), Array(landmarks[42...47])] {
      let xs = eye.map(\.x)
      let ys = eye.map(\.y)
      let minX = xs.min() ?? 0
      let maxX = xs.max() ?? 0
      let width = maxX - minX
      let centerX = (minX + maxX) / 2
      let centerY = ys.reduce(0, +) / 6
      let radiusX = width * 0.68
      let radiusY = max(3, width * 0.34)
      let top = Int(centerY - radiusY) - 1
      let bottom = Int(centerY + radiusY) + 1
      for column in Int(centerX - radiusX)...Int(centerX + radiusX) {
        let above = frame[column, top]
        let below = frame[column, bottom]
        let dx = (Double(column) - centerX) / radiusX
        // The lashes: a curve a little below the middle, sagging at the centre.
        let lashY = centerY + radiusY * 0.15 + radiusY * 0.25 * (1 - dx * dx)
        let lashHalf = max(0.6, width * 0.035 * (1 - dx * dx))
        for row in top...bottom {
          let dy = (Double(row) - centerY) / radiusY
          let distance = (dx * dx + dy * dy).squareRoot()
          guard distance < 1 else { continue }
          let alpha = min(1, (1 - distance) / 0.3)
          let t = Double(row - top) / Double(bottom - top)
          func mix(_ a: UInt8, _ b: UInt8, _ original: UInt8) -> UInt8 {
            var lid = Double(a) * (1 - t) + Double(b) * t
            let toLash = abs(Double(row) - lashY) / lashHalf
            if toLash < 1.5 { lid *= 0.4 + 0.6 * min(1, toLash / 1.5) }
            return UInt8(lid * alpha + Double(original) * (1 - alpha))
          }
          let index = row * output.bytesPerRow + column * 3
          let original = frame[column, row]
          output.pixels[index] = mix(above.red, below.red, original.red)
          output.pixels[index + 1] = mix(above.green, below.green, original.green)
          output.pixels[index + 2] = mix(above.blue, below.blue, original.blue)
        }
      }
    }
    return output
  }

  /// `frame` smeared sideways over `length` pixels (a person moving at the shutter).
  static func blurred(_ frame: Frame, length: Int) -> Frame {
    var output = frame
    for row in 0..<frame.height {
      for column in 0..<frame.width {
        var sums = (0, 0, 0)
        var count = 0
        for offset in 0..<length where column + offset < frame.width {
          let index = row * frame.bytesPerRow + (column + offset) * 3
          sums.0 += Int(frame.pixels[index])
          sums.1 += Int(frame.pixels[index + 1])
          sums.2 += Int(frame.pixels[index + 2])
          count += 1
        }
        let index = row * frame.bytesPerRow + column * 3
        output.pixels[index] = UInt8(sums.0 / count)
        output.pixels[index + 1] = UInt8(sums.1 / count)
        output.pixels[index + 2] = UInt8(sums.2 / count)
      }
    }
    return output
  }

  /// Writes `frame` as a binary PPM to `$PHOTOTIMER_FACES_DUMP/name.ppm` when that is set (to
  /// look at what a test made).
  static func dump(_ frame: Frame, _ name: String) {
    guard let folder = ProcessInfo.processInfo.environment["PHOTOTIMER_FACES_DUMP"] else { return }
    var data = Data("P6\n\(frame.width) \(frame.height)\n255\n".utf8)
    for row in 0..<frame.height {
      let start = row * frame.bytesPerRow
      data.append(contentsOf: frame.pixels[start..<start + frame.width * 3])
    }
    try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).ppm"))
  }
}
