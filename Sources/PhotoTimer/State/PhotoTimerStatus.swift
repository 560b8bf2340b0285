/// What the user sees: the phase of the current run.
public enum PhotoTimerStatus: Hashable, Sendable, CustomStringConvertible {
  /// No run: before the first start, or after a cancel.
  case idle
  /// Counting down; `remaining` is the number shown.
  case counting(remaining: Int)
  /// Zero was reached and the shutter waits (bounded) for these required steps.
  case waiting(for: [PreparationStep])
  /// The shutter fired; the photo is being taken and written.
  case capturing
  /// The photo was taken.
  case captured(CapturedPhoto)
  /// The run failed; the failure's message says why and what to do.
  case failed(PhotoTimerFailure)

  /// Whether a run is in progress (counting, waiting or capturing).
  public var isRunning: Bool {
    switch self {
    case .counting, .waiting, .capturing: true
    case .idle, .captured, .failed: false
    }
  }

  /// What a wait at zero is for, in words: each step's own status where it gives one
  /// (`"waiting for the camera to end its live view…"`), else `"waiting for camera"`.
  ///
  /// - Parameters:
  ///   - steps: The steps waited for (``waiting(for:)``).
  ///   - activity: What each step last said it waits for (``PhotoTimerState/activity``).
  /// - Returns: One line, without a final ellipsis unless a status has one.
  public static func waitingLine(
    for steps: [PreparationStep], activity: [PreparationStep: String]
  ) -> String {
    let own = steps.compactMap { activity[$0] }
    guard own.isEmpty else { return own.joined(separator: "; ") }
    return "waiting for \(steps.map(\.rawValue).joined(separator: " and "))"
  }

  /// The status as one line, for example `counting: 3` or `waiting for camera`.
  public var description: String {
    switch self {
    case .idle: "idle"
    case .counting(let remaining): "counting: \(remaining)"
    case .waiting(let steps): "waiting for \(steps.map(\.rawValue).joined(separator: ", "))"
    case .capturing: "capturing"
    case .captured(let photo):
      "captured: \(photo.settings), \(photo.location?.name ?? "no location"), \(photo.filter)"
        + (photo.file.map { " → \($0.path)" } ?? "")
    case .failed(let failure): "failed: \(failure.message)"
    }
  }
}
