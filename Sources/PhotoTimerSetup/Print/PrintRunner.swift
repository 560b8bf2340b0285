import Foundation
import PhotoTimer
import PhotoTimerCUPS
import PhotoTimerCommandLine
import PhotoTimerImaging

/// A front end's printing: it carries out the print desk's effects (sending a print,
/// resuming the printer), follows each job to its end and watches the printer's state, and
/// reports what happened. It decides nothing: ``PrintDesk`` does. Both programs hold one.
@MainActor
package final class PrintRunner {
  /// What may be printed, and where each print is.
  package private(set) var desk: PrintDesk
  private let service: any PrintService
  /// The paper each print asks for.
  package let page: PrintPage
  private let clock: any Clock<Duration>
  private let log: EventLog?
  /// How often the printer's state is asked while the front end runs.
  private let watchEvery: Duration
  /// How often a print's job is asked until it ends.
  private let followEvery: Duration
  /// Where what happened goes, for the outputs (the front end's loop); what happened before
  /// it was set (``check()``'s words) goes there as soon as it is.
  package var report: @MainActor ([PrintEvent]) -> Void = { _ in } {
    didSet {
      let early = queued
      queued = []
      if !early.isEmpty { report(early) }
    }
  }
  private var queued: [PrintEvent] = []
  private var watch: Task<Void, Never>?
  /// What is under way: each print's sending and following (by its number), each Resume (by
  /// a negative number of its own).
  private var work: [Int: Task<Void, Never>] = [:]
  private var resumes = 0
  private var media: PrintMedia?

  /// A runner sending prints of `page` to `service` under `rules`.
  ///
  /// - Parameters:
  ///   - log: The event's log: the prints each photo had in earlier runs count.
  ///   - watchEvery: How often the printer's state is asked.
  ///   - followEvery: How often a print's job is asked.
  package init(
    rules: PrintDesk.Rules, service: any PrintService, page: PrintPage,
    clock: any Clock<Duration>, log: EventLog? = nil, watchEvery: Duration = .seconds(2),
    followEvery: Duration = .seconds(1)
  ) {
    desk = PrintDesk(rules, earlier: log?.printed ?? [:])
    self.service = service
    self.page = page
    self.clock = clock
    self.log = log
    self.watchEvery = watchEvery
    self.followEvery = followEvery
  }

  /// The page printing `options` asks for: the layout's (a booth's collage), else a 6 × 4 in
  /// photo print.
  package nonisolated static func page(of layout: BoothLayout?) -> PrintPage {
    layout.map { PrintPage(pixels: $0.canvas.width, $0.canvas.height, dpi: $0.canvas.dpi) }
      ?? PrintPage(width: 6, height: 4)
  }

  /// ``check()`` on this thread, blocking, for a program whose loop does not run yet (the
  /// window before GTK's): the error, if the printer is missing or has not the paper.
  package nonisolated static func checkBlocking(
    _ options: CommandOptions.RunOptions, layout: BoothLayout?
  ) -> PrintError? {
    guard options.printing else { return nil }
    let printer = CUPSPrinter(destination: options.print.destination)
    do throws(PrintError) {
      _ = try printer.mediaBlocking(for: page(of: layout))
      return nil
    } catch {
      return error.serverDown ? nil : error
    }
  }

  /// The printing `options` ask for (`nil` without `--print`), through CUPS, on the paper of
  /// `layout` (a booth's collage) or a 6 × 4 in photo print.
  package static func prepare(
    _ options: CommandOptions.RunOptions, layout: BoothLayout?, log: EventLog?,
    clock: any Clock<Duration>
  ) -> PrintRunner? {
    guard options.printing else { return nil }
    return PrintRunner(
      rules: options.print, service: CUPSPrinter(destination: options.print.destination),
      page: page(of: layout), clock: clock, log: log)
  }

  /// Checks the printer and its paper before anything counts: a printer CUPS does not have,
  /// or one with no paper of the page's size, is an error (its words say what it offers); a
  /// print server that cannot be reached now is said and watched (it may be started later).
  ///
  /// - Throws: ``PrintError`` when the printer is missing or cannot print the page.
  package func check() async throws(PrintError) {
    do {
      let media = try await service.media(for: page)
      self.media = media
      if let note = media.note { queued.append(.note(note)) }
    } catch  where error.serverDown {
      desk.printerChanged(.unreachable(error.description))
      queued.append(.unreachable(error.description))
    }
  }

  /// Starts watching the printer's state, until ``finish()``.
  package func start() {
    guard watch == nil else { return }
    let clock = clock
    let every = watchEvery
    watch = Task { [weak self] in
      while !Task.isCancelled {
        await self?.lookAtPrinter()
        guard (try? await clock.sleep(for: every)) != nil else { return }
      }
    }
  }

  /// Asks the printer's state now; a change is reported.
  private func lookAtPrinter() async {
    let heard: PrintDesk.Printer
    do {
      heard = .status(try await service.status())
    } catch {
      heard = .unreachable(error.description)
    }
    guard heard != desk.printer else { return }
    desk.printerChanged(heard)
    switch heard {
    case .status(let status): report([.printer(status)])
    case .unreachable(let why): report([.unreachable(why)])
    case .unknown: break
    }
  }

  /// A photo or collage was saved: Print prints it from now on; with `--auto-print` it is
  /// sent now (a refusal is reported).
  package func offer(_ file: String) {
    let reply = desk.offer(file)
    if case .refused(let why) = reply { report([.refused(why)]) }
    carryOut(reply.effects)
  }

  /// Asks the desk for `intent` and carries out what it allows; returns its reply (a refusal
  /// is the front end's to show).
  @discardableResult
  package func ask(_ intent: PrintDesk.Intent) -> PrintDesk.Reply {
    let reply = desk.ask(intent)
    carryOut(reply.effects)
    return reply
  }

  private func carryOut(_ effects: [PrintDesk.Effect]) {
    for effect in effects {
      switch effect {
      case .submit(let job):
        report([.job(job, prints: desk.prints(of: job.file))])
        work[job.number] = Task { await self.send(job) }
      case .resume:
        resumes += 1
        let key = -resumes
        work[key] = Task {
          do {
            try await self.service.resume()
          } catch {
            self.desk.resumeFailed("\(error)")
            self.report([.resumeFailed("\(error)")])
          }
          await self.lookAtPrinter()
          self.work[key] = nil
        }
      }
    }
  }

  /// Sends `job`, then follows it until it ends.
  private func send(_ job: PrintJob) async {
    defer {
      work[job.number] = nil
      // NB: said even with nothing new: a front end waiting for its prints looks again.
      report([])
    }
    let id: Int
    do throws(PrintError) {
      let media: PrintMedia
      if let known = self.media {
        media = known
      } else {
        media = try await service.media(for: page)
      }
      self.media = media
      id = try await service.submit(
        file: job.file, title: (job.file as NSString).lastPathComponent, copies: job.copies,
        media: media)
    } catch {
      changed(job.number) { $0.jobChanged(job.number, state: .failed, reason: error.description) }
      if error.printerGone { await lookAtPrinter() }
      return
    }
    changed(job.number) { $0.sent(job.number, id: id) }
    var last = PrintJobStatus(state: .pending)
    while !Task.isCancelled {
      guard (try? await clock.sleep(for: followEvery)) != nil else { return }
      guard let now = try? await service.job(id) else { continue }
      guard now != last else { continue }
      last = now
      changed(job.number) { $0.jobChanged(job.number, state: now.state, reason: now.reason) }
      if now.state.isOver || now.state == .stopped { await lookAtPrinter() }
      if now.state.isOver { return }
    }
  }

  /// Changes the desk's print `number` and reports it.
  private func changed(_ number: Int, _ change: (inout PrintDesk) -> Void) {
    change(&desk)
    guard let job = desk.jobs.first(where: { $0.number == number }) else { return }
    report([.job(job, prints: desk.prints(of: job.file))])
  }

  /// `events` as every front end passes them on: on the phones' event stream and in the
  /// event's log. Returns the problems to show (a log that cannot be written).
  package func pass(_ events: [PrintEvent], remote: RemoteLink?, time: Duration) -> [String] {
    events.compactMap { passOn($0, remote: remote, log: log, time: time) }
  }

  /// Whether a print is being sent or followed.
  package var isBusy: Bool { work.keys.contains { $0 > 0 } }

  /// Whether a front end that has ended stays open for its prints: one is being sent, or is
  /// on its way and the printer does not hold it.
  package var keepsFrontEndOpen: Bool {
    isBusy && (desk.inFlight.contains { $0.state == .sending } || !desk.printerHolds)
  }

  /// Stops watching the printer and following the prints (a front end that waits for its
  /// prints first stays open while ``keepsFrontEndOpen``). Returns what the front end says
  /// last: each print still queued in CUPS (it prints once the printer goes on: nothing is
  /// lost).
  package func finish() async -> [PrintEvent] {
    watch?.cancel()
    watch = nil
    for task in work.values { task.cancel() }
    for task in work.values { await task.value }
    work = [:]
    return desk.inFlight.compactMap { job in
      job.id.map {
        .note(
          "print \(job.number) (CUPS job \($0)) is still queued: it prints once the printer goes on"
        )
      }
    }
  }
}

extension PrintDesk {
  /// Whether the printer is known to hold the prints sent (stopped, or a fault).
  var printerHolds: Bool {
    if case .status(let status) = printer { return status.isHeld }
    return false
  }
}
