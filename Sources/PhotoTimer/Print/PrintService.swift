/// The paper a print asks for: its size in inches (portrait or landscape as the picture is)
/// and whether it should print to the edges.
public struct PrintPage: Equatable, Sendable, CustomStringConvertible {
  /// The width in inches.
  public var width: Double
  /// The height in inches.
  public var height: Double
  /// Printed to the edges (a collage brings its own margins).
  public var borderless: Bool

  /// Creates a page.
  public init(width: Double, height: Double, borderless: Bool = true) {
    self.width = width
    self.height = height
    self.borderless = borderless
  }

  /// A picture of `width` × `height` pixels at `dpi`: a 1200 × 3600 strip at 600 dpi is
  /// 2 × 6 in.
  public init(pixels width: Int, _ height: Int, dpi: Int, borderless: Bool = true) {
    self.init(
      width: Double(width) / Double(max(dpi, 1)), height: Double(height) / Double(max(dpi, 1)),
      borderless: borderless)
  }

  /// `2 × 6 in`.
  public var description: String {
    func inches(_ value: Double) -> String {
      value == value.rounded() ? "\(Int(value))" : "\((value * 100).rounded() / 100)"
    }
    return "\(inches(width)) × \(inches(height)) in"
  }
}

/// The paper a printer will use for a ``PrintPage``: the print server's name for it, and
/// what is different from what was asked (a printer without borderless paper), in words.
public struct PrintMedia: Equatable, Sendable {
  /// The media's name for the print server (`na_index-4x6_4x6in`).
  public var name: String
  /// What a person sees of it (`4 x 6`).
  public var title: String
  /// Whether it prints to the edges.
  public var borderless: Bool
  /// What differs from what was asked, if anything (`printed with the printer's margins`).
  public var note: String?
  /// The paper's width, in hundredths of a millimetre, when known.
  public var width: Int?
  /// The paper's length, in hundredths of a millimetre, when known.
  public var length: Int?

  /// Creates a media choice.
  public init(name: String, title: String, borderless: Bool, note: String? = nil) {
    self.name = name
    self.title = title
    self.borderless = borderless
    self.note = note
  }
}

/// A job as the print server sees it now.
public struct PrintJobStatus: Equatable, Sendable {
  /// Where it is.
  public var state: PrintJob.State
  /// Why, in words, when it stopped or ended without printing.
  public var reason: String?

  /// Creates a status.
  public init(state: PrintJob.State, reason: String? = nil) {
    self.state = state
    self.reason = reason
  }
}

/// A printer the program prints to: CUPS on Linux, a stand-in in tests. Every call may block
/// on a socket for a while: the caller runs them off the pool.
public protocol PrintService: Sendable {
  /// The printer's name, as a person reads it.
  var name: String { get }
  /// The paper for `page`, checked against what the printer offers.
  ///
  /// - Throws: ``PrintError`` naming the printer and the paper it does have.
  func media(for page: PrintPage) async throws(PrintError) -> PrintMedia
  /// Sends `file` (a JPEG) as a print of `copies` on `media`, titled `title`; returns the job's
  /// id.
  func submit(
    file: String, title: String, copies: Int, media: PrintMedia
  ) async throws(PrintError)
    -> Int
  /// Where job `id` is.
  func job(_ id: Int) async throws(PrintError) -> PrintJobStatus
  /// The printer's state now.
  func status() async throws(PrintError) -> PrinterStatus
  /// Enables the printer's queue and lets it take jobs again.
  func resume() async throws(PrintError)
}

/// Why printing failed, in words with what to do.
public struct PrintError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var description: String
  /// Whether the printer itself is not there (removed, or no print server).
  public var printerGone: Bool
  /// Whether the print server cannot be reached at all (it may be started later).
  public var serverDown: Bool

  /// Creates an error.
  public init(_ description: String, printerGone: Bool = false, serverDown: Bool = false) {
    self.description = description
    self.printerGone = printerGone || serverDown
    self.serverDown = serverDown
  }
}
