/// One moment of a run, stamped with its offset from the start on the engine's clock.
///
/// The engine publishes these for consumers that are not a UI (JSON output, a timeline
/// chart); the view model reduces the same events into its state.
public struct PhotoTimerEvent: Hashable, Sendable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// The run started; the count begins at `countdownSeconds`.
    case started(countdownSeconds: Int)
    /// The count changed. After a stall only the current count is published.
    case tick(remaining: Int)
    /// A preparation step finished, failed, or was dropped at the shutter.
    case stepFinished(StepReport)
    /// What a running step (or the camera's hand-over) is waiting for changed, as the step
    /// reported it (``StepStatus/report(_:)``); `nil` when it no longer names anything.
    case stepStatus(PreparationStep, String?)
    /// Zero was reached and the shutter is waiting for these required steps.
    case waiting(for: [PreparationStep])
    /// The shutter fired; capture has begun.
    case shutter
    /// The photo was taken.
    case captured(CapturedPhoto)
    /// The run was cancelled and everything it started has stopped.
    case cancelled
    /// The run failed.
    case failed(PhotoTimerFailure)
  }

  /// The time since the run started, on the engine's clock.
  public var offset: Duration
  /// What happened.
  public var kind: Kind

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - offset: The time since the run started.
  ///   - kind: What happened.
  public init(offset: Duration, kind: Kind) {
    self.offset = offset
    self.kind = kind
  }

  /// The event as one plain line, for example `+1.400s camera ready: f/2.8 · 1/60s · ISO 400`.
  public var description: String {
    let stamp = "+\(offset.formattedSeconds(fractionDigits: 3))s"
    switch kind {
    case .started(let seconds): return "\(stamp) started: \(seconds) s countdown"
    case .tick(let remaining): return "\(stamp) \(remaining)"
    case .stepFinished(let report): return "\(stamp) \(report.step) \(report.outcome)"
    case .stepStatus(let step, let text): return "\(stamp) \(step): \(text ?? "working")"
    case .waiting(let steps):
      return "\(stamp) waiting for \(steps.map(\.rawValue).joined(separator: ", "))"
    case .shutter: return "\(stamp) shutter"
    case .captured(let photo): return "\(stamp) captured: \(photo.settings), \(photo.filter)"
    case .cancelled: return "\(stamp) cancelled"
    case .failed(let failure): return "\(stamp) failed: \(failure.message)"
    }
  }
}

/// How a run ended.
public enum PhotoTimerResult: Hashable, Sendable {
  /// The photo was taken.
  case captured(CapturedPhoto)
  /// The run failed.
  case failed(PhotoTimerFailure)
  /// The run was cancelled.
  case cancelled
}

extension Duration {
  /// The duration in seconds with a fixed number of decimals, for example `1.400`.
  ///
  /// - Parameter fractionDigits: Decimals to show, 0 to 9.
  /// - Returns: The formatted number, without a unit.
  package func formattedSeconds(fractionDigits: Int) -> String {
    let digits = min(max(fractionDigits, 0), 9)
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let nanos = wholeNanoseconds
    let unit = 1_000_000_000 / scale
    // Round half away from zero to the requested precision.
    let rounded = (abs(nanos) + unit / 2) / unit
    let sign = nanos < 0 && rounded != 0 ? "-" : ""
    let whole = rounded / scale
    guard digits > 0 else { return "\(sign)\(whole)" }
    let fraction = String(rounded % scale)
    return "\(sign)\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
  }
}
