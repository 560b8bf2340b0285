import PhotoTimerConcurrency

/// Order statistics of a sample of durations.
struct Sample {
  private(set) var values: [Duration]

  init(_ values: [Duration]) { self.values = values.sorted() }

  func percentile(_ p: Double) -> Duration {
    guard !values.isEmpty else { return .zero }
    let index = Int((p / 100 * Double(values.count - 1)).rounded())
    return values[min(max(index, 0), values.count - 1)]
  }

  var median: Duration { percentile(50) }
}

extension Duration {
  var milliseconds: Double { secondsValue * 1e3 }

  var microseconds: Double { milliseconds * 1e3 }
}

/// Formats a number with a fixed number of decimals.
func fixed(_ value: Double, _ decimals: Int = 2) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = "\(rounded)"
  if let dot = text.firstIndex(of: ".") {
    let have = text.distance(from: dot, to: text.endIndex) - 1
    if have < decimals { text += String(repeating: "0", count: decimals - have) }
  } else if decimals > 0 {
    text += "." + String(repeating: "0", count: decimals)
  }
  return text
}

/// A ratio as `12.3×`, or `—` when the denominator is zero.
func ratio(_ numerator: Double, _ denominator: Double) -> String {
  denominator == 0 ? "—" : "\(fixed(numerator / denominator, 1))×"
}

/// Prints one benchmark row: name, ours, baseline, ratio, target.
func row(_ name: String, ours: String, baseline: String, ratio: String, target: String) {
  func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
  print(pad(name, 44) + pad(ours, 18) + pad(baseline, 18) + pad(ratio, 10) + target)
}
