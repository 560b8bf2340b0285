/// A print: the file, its copies, the print server's job for it and where that job is.
public struct PrintJob: Equatable, Sendable {
  /// Where a job is, as IPP's `job-state` says, before that the sending.
  public enum State: String, Equatable, Sendable {
    /// Being sent to the print server.
    case sending
    /// Waiting in the queue.
    case pending
    /// Held in the queue.
    case held
    /// Printing.
    case processing
    /// Stopped halfway: the printer stopped under it (it goes on after Resume).
    case stopped
    /// Cancelled (by a person, or with its printer removed).
    case cancelled
    /// Given up by the print server.
    case aborted
    /// Printed.
    case completed
    /// Could not be sent, or is not known to the print server any more.
    case failed

    /// IPP's `job-state` value (3–9) in words, or `nil` for another number.
    public init?(ipp value: Int) {
      switch value {
      case 3: self = .pending
      case 4: self = .held
      case 5: self = .processing
      case 6: self = .stopped
      case 7: self = .cancelled
      case 8: self = .aborted
      case 9: self = .completed
      default: return nil
      }
    }

    /// Whether the job has ended (printed or not).
    public var isOver: Bool {
      switch self {
      case .cancelled, .aborted, .completed, .failed: true
      case .sending, .pending, .held, .processing, .stopped: false
      }
    }
  }

  /// The print's number in this program, from 1.
  public let number: Int
  /// The photo or collage printed.
  public let file: String
  /// How many copies.
  public let copies: Int
  /// The print server's job id, once sent.
  public var id: Int?
  /// Where it is.
  public var state: State
  /// Why it failed, stopped or was cancelled, in words, if known.
  public var reason: String?

  /// Creates a print being sent.
  public init(number: Int, file: String, copies: Int) {
    self.number = number
    self.file = file
    self.copies = copies
    state = .sending
  }
}
