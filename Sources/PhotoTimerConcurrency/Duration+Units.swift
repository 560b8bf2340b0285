extension Duration {
  /// The duration in seconds, as a floating-point number: `1.5` for 1.5 s.
  package var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in whole nanoseconds, saturating at `Int64`'s bounds (about 292 years).
  package var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflowSum { return seconds < 0 ? .min : .max }
    return sum
  }

  /// The duration in whole microseconds.
  package var wholeMicroseconds: Int64 { wholeNanoseconds / 1_000 }

  /// The duration in whole milliseconds.
  package var wholeMilliseconds: Int64 { wholeNanoseconds / 1_000_000 }
}
