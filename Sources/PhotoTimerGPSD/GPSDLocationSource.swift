import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerLocation

/// The location step built on gpsd: the first good fix, turned into a place name offline.
///
/// The last accepted fix is kept with the instant it was received, so a new run within
/// `FixPolicy/maximumAge` of it is tagged at once; a receiver's warm fix takes ~30 s and a
/// 5 s countdown should not pay that again.
///
/// A receiver that reports its error generously (±137 m) is still used: until the shutter
/// the step waits for a fix within `FixPolicy/preferredHorizontalError` and keeps the best
/// less precise one seen; at the shutter (the step's `ready` value), or when the wait ends,
/// that one is used if its error is within `FixPolicy/maximumHorizontalError`, and the tag
/// records it.
///
/// ```swift
/// let source = GPSDLocationSource(endpoint: .standard, clock: ContinuousClock())
/// let services = PhotoTimerServices(camera: camera, location: source.preparation(),
///                                   filter: filter)
/// ```
public final class GPSDLocationSource<C: Clock>: Sendable where C.Duration == Duration {
  /// Where gpsd listens.
  public let endpoint: GPSDEndpoint
  /// Which reports are good enough.
  public let policy: FixPolicy
  private let clock: C
  private let geocoder: @Sendable () -> ReverseGeocoder?
  private let systemTime: @Sendable () -> Date
  // NB: the last accepted fix and when it arrived, shared by the runs of this source.
  private let lastFix = Locked<(fix: GPSFix, received: C.Instant)?>(nil)
  // NB: what the latest run is waiting for; runs of one source do not overlap in practice, and
  // if they do the newest wins, which is the one the user sees.
  private let waitingFor = Locked<String?>(nil)
  // NB: the least imprecise fix of the current attempt, offered at the shutter.
  private let bestImprecise = Locked<(fix: GPSFix, note: String?)?>(nil)

  /// Creates a source.
  ///
  /// - Parameters:
  ///   - endpoint: Where gpsd listens.
  ///   - policy: Which reports are good enough.
  ///   - clock: The clock fix ages are measured on.
  ///   - geocoder: Names a fix; by default the bundled GeoNames places, loaded on first use.
  ///   - systemTime: The system clock, read only to note a GPS time that disagrees with it.
  public init(
    endpoint: GPSDEndpoint = .standard, policy: FixPolicy = FixPolicy(), clock: C,
    geocoder: @escaping @Sendable () -> ReverseGeocoder? = { BundledGeocoder.shared },
    systemTime: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.endpoint = endpoint
    self.policy = policy
    self.clock = clock
    self.geocoder = geocoder
    self.systemTime = systemTime
  }

  /// The engine's optional location step. It reports what it is waiting for (`StepStatus`:
  /// "no fix yet: the receiver has no satellites; last fix 41 s old") after each of gpsd's
  /// reports; the last one is also why the photo goes without a location when the shutter
  /// comes first.
  public func preparation() -> Preparation<LocationTag> {
    Preparation(isRequired: false, ready: { self.bestSoFar }) {
      try await self.locate()
    }
  }

  /// The best fix of the current attempt when only fixes less precise than preferred came:
  /// what the shutter uses rather than none.
  public var bestSoFar: LocationTag? {
    bestImprecise.withLock { $0 }.map { tag(for: $0.fix, note: $0.note) }
  }

  /// What the current attempt is waiting for, in words; `nil` before the first attempt and
  /// after a fix.
  public var status: String? {
    guard let waiting = waitingFor.withLock({ $0 }) else { return nil }
    guard let stale = lastFix.withLock({ $0 }) else { return waiting }
    let age = stale.received.duration(to: clock.now)
    return "\(waiting); last fix \(age.formattedSeconds(fractionDigits: 0)) s old"
  }

  /// Waits for a good fix and names it.
  ///
  /// - Parameter limit: How long to wait for a good fix before giving up with the reason;
  ///   `nil` waits until cancelled (the engine cancels the step at the shutter).
  /// - Returns: The place, with the fix's coordinate.
  /// - Throws: ``GPSDError`` when gpsd is unreachable, ``LocationUnavailable`` when no good
  ///   fix came (within `limit`, or before gpsd closed the connection), `CancellationError`
  ///   when cancelled.
  public func locate(within limit: Duration? = nil) async throws -> LocationTag {
    if let cached = lastFix.withLock({ $0 }),
      cached.received.duration(to: clock.now) <= policy.maximumAge
    {
      return tag(for: cached.fix)
    }
    bestImprecise.withLock { $0 = nil }
    let connection = GPSDConnection(endpoint: endpoint)
    let reason = Locked("no fix yet: no report from gpsd at \(endpoint)")
    waitingFor.withLock { $0 = reason.withLock { $0 } }
    StepStatus.report(status)
    let result: Result<LocationTag, any Error>
    do {
      result = .success(
        try await withThrowingTaskGroup(of: LocationTag?.self) { group in
          group.addTask { try await self.firstGoodFix(from: connection.messages, reason: reason) }
          if let limit {
            group.addTask {
              try await self.clock.sleep(for: limit)
              return nil
            }
          }
          defer { group.cancelAll() }
          guard let tag = try await group.next() ?? nil else {
            if let best = self.bestSoFar { return best }
            throw LocationUnavailable(reason: self.status ?? reason.withLock { $0 })
          }
          return tag
        })
    } catch {
      result = .failure(error)
    }
    // NB: returns only once the socket is closed, whether it found a fix, failed or was
    // cancelled: nothing of this step outlives it.
    await connection.close()
    return try result.get()
  }

  private func firstGoodFix(
    from messages: AsyncThrowingStream<GPSDMessage, any Error>, reason: Locked<String>
  ) async throws -> LocationTag {
    do {
      for try await message in messages {
        // NB: after every report, so the age of the last fix moves on as gpsd talks.
        defer { StepStatus.report(status) }
        if case .position(let report) = message {
          switch policy.assess(report, receivedAgo: .zero, now: systemTime()) {
          case .accepted(let fix, let note):
            lastFix.withLock { $0 = (fix, clock.now) }
            waitingFor.withLock { $0 = nil }
            return tag(for: fix, note: note)
          case .imprecise(let fix, let note):
            let error = fix.horizontalError ?? 0
            let kept = bestImprecise.withLock { best -> Double in
              if best == nil || error < (best?.fix.horizontalError ?? .infinity) {
                best = (fix, note)
              }
              return best?.fix.horizontalError ?? error
            }
            update(
              reason,
              to: "fix ±\(kept.wholeMetres) m so far; waiting for one within "
                + "\(policy.preferredHorizontalError.wholeMetres) m")
          case .rejected(let why):
            update(reason, to: why)
          }
        } else if let why = Self.reason(for: message, endpoint: endpoint) {
          update(reason, to: why)
        }
      }
    } catch GPSDError.closed(let endpoint) {
      if let best = bestSoFar { return best }
      let why = reason.withLock { $0 }
      throw LocationUnavailable(reason: "\(why); then gpsd at \(endpoint) closed the connection")
    } catch let error as GPSDError {
      // NB: a gpsd that went away (reset, killed) after an imprecise fix: that fix still tags.
      if let best = bestSoFar { return best }
      throw error
    }
    try Task.checkCancellation()
    if let best = bestSoFar { return best }
    throw LocationUnavailable(reason: reason.withLock { $0 })
  }

  /// What a message other than a position says about the wait for a fix, if anything.
  private func update(_ reason: Locked<String>, to why: String) {
    reason.withLock { $0 = why }
    waitingFor.withLock { $0 = why }
  }

  private static func reason(for message: GPSDMessage, endpoint: GPSDEndpoint) -> String? {
    switch message {
    case .sky(let used) where used == 0: "no fix yet: the receiver has no satellites"
    case .devices(0): "gpsd at \(endpoint) has no receiver attached"
    case .error(let text): "gpsd: \(text)"
    default: nil
    }
  }

  /// The tag for a fix: the geocoder's label ("near …" when the error is larger than the
  /// distance to the place), or the coordinate itself when there is none.
  private func tag(for fix: GPSFix, note: String? = nil) -> LocationTag {
    LocationTag(
      name: geocoder()?.name(for: fix.coordinate, horizontalError: fix.horizontalError)
        ?? fix.coordinate.description,
      coordinate: fix.coordinate, horizontalError: fix.horizontalError, fixTime: fix.time,
      note: note)
  }
}

/// The location step ended without a usable fix; the reason says why.
public struct LocationUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why, for example `"no fix yet: the receiver has no satellites"`.
  public var reason: String
  /// The reason.
  public var description: String { reason }
}
