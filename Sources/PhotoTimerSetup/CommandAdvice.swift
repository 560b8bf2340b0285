import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerFFmpeg
import PhotoTimerGPSD
import PhotoTimerJPEG
import PhotoTimerLocation

/// A library's error with the command's advice after it: what to type to fix it.
package struct AdvisedError: Error, CustomStringConvertible {
  package var underlying: any Error
  package var advice: String

  package var description: String { "\(underlying)\(advice)" }
}

/// The command's advice for the libraries' errors: the one place that knows both the errors
/// and phototimer's options.
package enum CommandAdvice {
  /// The error with the advice that goes with it, or the error itself when there is none.
  package static func advise(_ error: any Error) -> any Error {
    guard let advice = advice(for: error) else { return error }
    return AdvisedError(underlying: error, advice: advice)
  }

  /// The advice for `error`, as text that follows its message, or `nil`.
  package static func advice(for error: any Error) -> String? {
    switch error {
    case let error as FFmpegError:
      switch error {
      case .notInstalled: " or use --camera scene"
      // NB: only an input that never opened, for no network reason, may be in the wrong format.
      case .noVideo: error.streamProblem == nil ? "; check the input and --ffmpeg-format" : nil
      case .ended, .stalled, .partialFrame, .system: nil
      }
    case let error as GPSDError:
      switch error {
      case .notRunning: " or pass --gpsd HOST:PORT"
      case .unknownHost: "; check --gpsd"
      case .connectTimedOut, .closed, .lineTooLong, .system: nil
      }
    case let error as PhotoStoreError:
      switch error {
      case .folderMissing, .notAFolder, .notWritable, .diskFull: " with -o DIR"
      case .system, .encoding: nil
      }
    case let error as RemoteError:
      switch error {
      case .badAddress: "; give --remote=PORT or --remote=ADDR:PORT, or --remote alone"
      case .noNetworkAddress:
        "; connect to a network, or keep it on this machine: --remote=127.0.0.1"
      case .cannotListen: "; is another program on that port? choose another: --remote=PORT"
      }
    case let error as ImageFileError:
      if case .missing = error { " given to --camera file:PATH" } else { nil }
    case let error as GazetteerError:
      if case .missingResource = error {
        ", or turn location naming off with --no-location"
      } else {
        nil
      }
    default: nil
    }
  }
}
