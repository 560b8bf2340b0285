/// Why a run ended without a photo, with a message a person can act on.
public struct PhotoTimerFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, for programs that react to it (the command line maps it to exit codes).
  public enum Cause: Hashable, Sendable {
    /// A required step failed.
    case stepFailed(PreparationStep)
    /// Required steps were still not ready when the wait after zero ran out.
    case notReadyInTime([PreparationStep])
    /// The camera failed while taking or writing the photo.
    case captureFailed
    /// The camera was ready, then went away (unplugged, its stream failed) before the shutter.
    case cameraLost
  }

  /// What went wrong.
  public var cause: Cause
  /// What failed, the value involved and what to do, in one or two sentences.
  public var message: String

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - cause: What went wrong.
  ///   - message: What failed and what to do.
  public init(cause: Cause, message: String) {
    self.cause = cause
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
