import CCUPS
import Foundation
import PhotoTimer

/// One connection to the print server, used on one thread.
final class CUPSConnection {
  private let http: OpaquePointer
  private let asked: String?

  init(destination: String?, server: String?) throws(PrintError) {
    asked = destination
    let server = server ?? String(cString: cupsServer())
    guard
      let http = httpConnect2(
        server, ippPort(), nil, AF_UNSPEC, cupsEncryption(), 1, 30_000, nil)
    else {
      throw PrintError(
        "cannot reach the print server at \(server): is CUPS running? (systemctl start cups)",
        serverDown: true)
    }
    self.http = http
  }

  func close() { httpClose(http) }

  /// The destination, resolved (the default's name when none was asked).
  private func destination() throws(PrintError) -> (UnsafeMutablePointer<cups_dest_t>, String) {
    guard let dest = cupsGetNamedDest(http, asked, nil) else {
      if let asked {
        throw PrintError(
          "no printer named '\(asked)' in CUPS: `lpstat -p` lists them", printerGone: true)
      }
      throw PrintError(
        "CUPS has no default printer: name one (--print=NAME) or set one (lpoptions -d NAME)",
        printerGone: true)
    }
    return (dest, String(cString: dest.pointee.name))
  }

  private func uri(_ name: String) -> String {
    let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
    return "ipp://localhost/printers/\(escaped)"
  }

  // MARK: - Paper

  func media(for page: PrintPage) throws(PrintError) -> PrintMedia {
    let (dest, name) = try destination()
    defer { cupsFreeDests(1, dest) }
    guard let info = cupsCopyDestInfo(http, dest) else {
      throw PrintError("cannot read what '\(name)' offers: \(lastError())")
    }
    defer { cupsFreeDestInfo(info) }
    // NB: printers list paper portrait; a landscape picture is turned on the page.
    let width = Int32((min(page.width, page.height) * 2540).rounded())
    let length = Int32((max(page.width, page.height) * 2540).rounded())
    var size = cups_size_t()
    if page.borderless,
      cupsGetDestMediaBySize(
        http, dest, info, width, length, UInt32(CUPS_MEDIA_FLAGS_BORDERLESS), &size)
        != 0, size.left == 0, size.right == 0, size.top == 0, size.bottom == 0
    {
      return media(size, dest: dest, info: info, borderless: true, note: nil)
    }
    size = cups_size_t()
    if cupsGetDestMediaBySize(
      http, dest, info, width, length, UInt32(CUPS_MEDIA_FLAGS_DEFAULT), &size)
      != 0
    {
      let borderless = size.left == 0 && size.right == 0 && size.top == 0 && size.bottom == 0
      let note =
        page.borderless && !borderless
        ? "'\(name)' has no borderless \(page): printed with its margins" : nil
      return media(size, dest: dest, info: info, borderless: borderless, note: note)
    }
    let offered = sizes(dest: dest, info: info)
    throw PrintError(
      "'\(name)' has no \(page) paper"
        + (offered.isEmpty ? "" : "; it offers \(offered.prefix(8).joined(separator: ", "))")
        + ": load that paper and set it in CUPS, or choose a layout of a size it has")
  }

  private func media(
    _ size: cups_size_t, dest: UnsafeMutablePointer<cups_dest_t>, info: OpaquePointer,
    borderless: Bool, note: String?
  ) -> PrintMedia {
    var size = size
    let name = withUnsafeBytes(of: size.media) {
      String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
    }
    let title =
      cupsLocalizeDestMedia(http, dest, info, 0, &size).map {
        String(cString: $0).replacingOccurrences(of: " \"", with: " in")
      } ?? name
    var media = PrintMedia(name: name, title: title, borderless: borderless, note: note)
    media.width = Int(size.width)
    media.length = Int(size.length)
    return media
  }

  private func sizes(dest: UnsafeMutablePointer<cups_dest_t>, info: OpaquePointer) -> [String] {
    var names: [String] = []
    let count = cupsGetDestMediaCount(http, dest, info, UInt32(CUPS_MEDIA_FLAGS_DEFAULT))
    for index in 0..<max(count, 0) {
      var size = cups_size_t()
      guard
        cupsGetDestMediaByIndex(http, dest, info, index, UInt32(CUPS_MEDIA_FLAGS_DEFAULT), &size)
          != 0, let title = cupsLocalizeDestMedia(http, dest, info, 0, &size)
      else { continue }
      // NB: CUPS writes inches as `4 x 6 "`.
      let text = String(cString: title).replacingOccurrences(of: " \"", with: " in")
      if !names.contains(text) { names.append(text) }
    }
    return names
  }

  // MARK: - Jobs

  func submit(
    file: String, title: String, copies: Int, media: PrintMedia
  ) throws(PrintError) -> Int {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw PrintError("cannot read \(file) to print it")
    }
    let (dest, name) = try destination()
    defer { cupsFreeDests(1, dest) }
    guard let info = cupsCopyDestInfo(http, dest) else {
      throw PrintError("cannot read what '\(name)' offers: \(lastError())")
    }
    defer { cupsFreeDestInfo(info) }
    var options: UnsafeMutablePointer<cups_option_t>?
    var count: Int32 = 0
    // NB: a media name alone is the bordered size (a PPD's borderless variant is the same
    // name): borderless is asked by margins of 0 in a media collection.
    if media.borderless, let width = media.width, let length = media.length {
      count = cupsAddOption(
        "media-col",
        "{media-size={x-dimension=\(width) y-dimension=\(length)} media-bottom-margin=0"
          + " media-left-margin=0 media-right-margin=0 media-top-margin=0}", count, &options)
    } else {
      count = cupsAddOption("media", media.name, count, &options)
    }
    count = cupsAddOption("copies", "\(max(copies, 1))", count, &options)
    count = cupsAddOption("print-scaling", media.borderless ? "fill" : "fit", count, &options)
    defer { cupsFreeOptions(count, options) }
    var job: Int32 = 0
    guard cupsCreateDestJob(http, dest, info, &job, title, count, options) == IPP_STATUS_OK
    else {
      throw refusal("'\(name)' did not take the print")
    }
    let document = (file as NSString).lastPathComponent
    guard
      cupsStartDestDocument(http, dest, info, job, document, "image/jpeg", 0, nil, 1)
        == HTTP_STATUS_CONTINUE
    else {
      throw refusal("sending the print to '\(name)' failed")
    }
    let written = data.withUnsafeBytes { bytes in
      cupsWriteRequestData(
        http, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
    }
    guard written == HTTP_STATUS_CONTINUE,
      cupsFinishDestDocument(http, dest, info) == IPP_STATUS_OK
    else {
      throw refusal("sending the print to '\(name)' failed")
    }
    return Int(job)
  }

  func job(_ id: Int) throws(PrintError) -> PrintJobStatus {
    let request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES)
    ippAddString(
      request, IPP_TAG_OPERATION, IPP_TAG_URI, "job-uri", nil, "ipp://localhost/jobs/\(id)")
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
    guard let response = cupsDoRequest(http, request, "/") else {
      throw refusal("cannot ask CUPS about print \(id)")
    }
    defer { ippDelete(response) }
    if ippGetStatusCode(response) == IPP_STATUS_ERROR_NOT_FOUND {
      return PrintJobStatus(state: .failed, reason: "CUPS no longer knows this print")
    }
    guard ippGetStatusCode(response).rawValue < 0x0400 else {
      throw refusal("cannot ask CUPS about print \(id)")
    }
    let value = ippFindAttribute(response, "job-state", IPP_TAG_ENUM).map { ippGetInteger($0, 0) }
    let state = value.flatMap { PrintJob.State(ipp: Int($0)) } ?? .pending
    let reasons = strings(response, "job-state-reasons")
    let message = strings(response, "job-printer-state-message").first ?? ""
    var reason: String?
    switch state {
    case .stopped, .aborted, .cancelled, .held:
      reason = message.isEmpty ? reasons.filter { $0 != "none" }.joined(separator: ", ") : message
    default: break
    }
    return PrintJobStatus(state: state, reason: reason.flatMap { $0.isEmpty ? nil : $0 })
  }

  // MARK: - The printer

  func status() throws(PrintError) -> PrinterStatus {
    let (dest, name) = try destination()
    cupsFreeDests(1, dest)
    let request = ippNewRequest(IPP_OP_GET_PRINTER_ATTRIBUTES)
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, uri(name))
    let wanted = [
      "printer-state", "printer-state-reasons", "printer-is-accepting-jobs",
      "printer-state-message",
    ]
    withCStrings(wanted) { pointers in
      _ = ippAddStrings(
        request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", Int32(pointers.count),
        nil, pointers)
    }
    guard let response = cupsDoRequest(http, request, "/") else {
      throw refusal("cannot ask CUPS about '\(name)'")
    }
    defer { ippDelete(response) }
    if ippGetStatusCode(response) == IPP_STATUS_ERROR_NOT_FOUND {
      throw PrintError("the printer '\(name)' is gone from CUPS: add it again", printerGone: true)
    }
    let state: PrinterStatus.State =
      switch ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map({ ippGetInteger($0, 0) })
      {
      case 4: .processing
      case 5: .stopped
      default: .idle
      }
    let accepting =
      ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map {
        ippGetBoolean($0, 0) != 0
      } ?? true
    return PrinterStatus(
      state: state, reasons: strings(response, "printer-state-reasons"), accepting: accepting,
      message: strings(response, "printer-state-message").first ?? "")
  }

  func resume() throws(PrintError) {
    let (dest, name) = try destination()
    cupsFreeDests(1, dest)
    for operation in [IPP_OP_CUPS_ACCEPT_JOBS, IPP_OP_RESUME_PRINTER] {
      let request = ippNewRequest(operation)
      ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, uri(name))
      ippAddString(
        request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
      let response = cupsDoRequest(http, request, "/admin/")
      defer { ippDelete(response) }
      let status = response.map { ippGetStatusCode($0) } ?? cupsLastError()
      if status == IPP_STATUS_ERROR_FORBIDDEN || status == IPP_STATUS_ERROR_NOT_AUTHORIZED {
        throw PrintError(
          "CUPS refused to resume '\(name)': the booth's user must be in the lpadmin group"
            + " (adduser $USER lpadmin), or resume it with `cupsenable \(name)`")
      }
      guard status.rawValue < 0x0400 else {
        throw refusal("resuming '\(name)' failed")
      }
    }
  }

  func destinations() -> [CUPSDestination] {
    var list: UnsafeMutablePointer<cups_dest_t>?
    let count = cupsGetDests2(http, &list)
    defer { cupsFreeDests(count, list) }
    guard let list else { return [] }
    var found: [CUPSDestination] = []
    for index in 0..<Int(max(count, 0)) {
      let dest = list.advanced(by: index)
      guard dest.pointee.instance == nil else { continue }
      func option(_ key: String) -> String? {
        cupsGetOption(key, dest.pointee.num_options, dest.pointee.options).map {
          String(cString: $0)
        }
      }
      let state: PrinterStatus.State =
        switch option("printer-state") {
        case "4": .processing
        case "5": .stopped
        default: .idle
        }
      let status = PrinterStatus(
        state: state,
        reasons: (option("printer-state-reasons") ?? "").split(separator: ",").map(String.init),
        accepting: option("printer-is-accepting-jobs") != "false",
        message: option("printer-state-message") ?? "")
      var media: [String] = []
      if let info = cupsCopyDestInfo(http, dest) {
        media = sizes(dest: dest, info: info)
        cupsFreeDestInfo(info)
      }
      found.append(
        CUPSDestination(
          name: String(cString: dest.pointee.name), isDefault: dest.pointee.is_default != 0,
          model: option("printer-make-and-model") ?? "", status: status, media: media))
    }
    return found
  }

  // MARK: - Helpers

  private func strings(_ response: OpaquePointer, _ name: String) -> [String] {
    guard let attribute = ippFindAttribute(response, name, IPP_TAG_ZERO) else { return [] }
    return (0..<ippGetCount(attribute)).compactMap { index in
      ippGetString(attribute, index, nil).map { String(cString: $0) }
    }
  }

  private func lastError() -> String {
    cupsLastErrorString().map { String(cString: $0) } ?? "unknown error"
  }

  /// `what` with CUPS's own words; a printer CUPS no longer has is said so.
  private func refusal(_ what: String) -> PrintError {
    let status = cupsLastError()
    if status == IPP_STATUS_ERROR_NOT_FOUND {
      return PrintError("\(what): the printer is gone from CUPS", printerGone: true)
    }
    if status == IPP_STATUS_ERROR_NOT_ACCEPTING_JOBS {
      return PrintError("\(what): its queue refuses new prints; press Resume")
    }
    return PrintError("\(what): \(lastError())")
  }
}

private func withCStrings<Result>(
  _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result
) -> Result {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  return body(copies.map { UnsafePointer($0) })
}
