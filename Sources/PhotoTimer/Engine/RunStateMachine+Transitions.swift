extension RunStateMachine {
  /// Publishes the first tick's wake-up, or reaches zero at once for a count of zero.
  mutating func startCount(at now: Duration) -> [Action] {
    countOrigin = now
    var actions: [Action] = []
    if let handOverLead, handOver == .pending(due: false) {
      // NB: a lead longer than the count is due at once.
      actions.append(
        .schedule(.handOver, at: max(now, countOrigin + countdown.zero - handOverLead)))
    }
    return actions + startTicking(at: now)
  }

  private mutating func startTicking(at now: Duration) -> [Action] {
    if let first = countdown.nextDeadline(after: .zero) {
      phase = .counting(remaining: countdown.ticks)
      return [.schedule(.tick, at: countOrigin + first)]
    }
    return reachZero(at: now)
  }

  mutating func tick(at now: Duration) -> [Action] {
    guard case .counting(let shown) = phase else { return [] }
    let remaining = countdown.remaining(at: now - countOrigin)
    guard remaining > 0, let next = countdown.nextDeadline(after: now - countOrigin) else {
      return reachZero(at: now)
    }
    var actions: [Action] = []
    if remaining != shown {
      phase = .counting(remaining: remaining)
      actions.append(.publish(event(.tick(remaining: remaining), at: now)))
    }
    actions.append(.schedule(.tick, at: countOrigin + next))
    return actions
  }

  mutating func reachZero(at now: Duration) -> [Action] {
    // NB: taken now (or zero came early): the hand-over cannot wait for its lead any more.
    var actions = handOverDue(at: now)
    let waitingFor = waitingAtZero
    guard !waitingFor.isEmpty else { return actions + shoot(at: now) }
    phase = .waiting
    actions += [
      .publish(event(.waiting(for: waitingFor), at: now)),
      .schedule(.waitLimit, at: max(now, countOrigin + countdown.zero) + waitLimit),
    ]
    // NB: take it now during sequential preparations: a required step not started yet
    // starts now, so there is something to wait for.
    for step in pendingRequired where !running.contains(step) { actions.append(startStep(step)) }
    return actions
  }

  mutating func stepEnded(
    _ step: PreparationStep, _ result: Result<StepValue, StepError>, elapsed: Duration,
    at now: Duration
  ) -> [Action] {
    switch phase {
    case .preparing, .counting, .waiting: break
    case .collecting, .capturing, .finished: return []
    }
    precondition(running.contains(step), "Internal inconsistency: \(step) ended, never started")
    running.remove(step)
    unfinished.removeAll { $0 == step }
    var actions = [conclude(step, result, elapsed: elapsed, at: now, failure: StepOutcome.failed)]
    if case .failure(let error) = result, required.contains(step) {
      let failure = PhotoTimerFailure(
        cause: .stepFailed(step), message: "\(step) failed: \(error.message)")
      return actions + fail(failure, at: now)
    }
    switch phase {
    case .preparing:
      actions += nextSequential(at: now)
    default:
      break
    }
    if step == .camera, case .success = result { actions += startHandOverIfDue() }
    if phase == .waiting, waitingAtZero.isEmpty { actions += shoot(at: now) }
    return actions
  }

  /// The hand-over's lead before zero has come (or zero itself): it starts now if the
  /// camera is ready, else as soon as it is.
  mutating func handOverDue(at now: Duration) -> [Action] {
    switch phase {
    case .preparing, .counting, .waiting: break
    case .collecting, .capturing, .finished: return []
    }
    guard case .pending = handOver else { return [] }
    handOver = .pending(due: true)
    return startHandOverIfDue()
  }

  mutating func startHandOverIfDue() -> [Action] {
    guard handOver == .pending(due: true), settings != nil else { return [] }
    handOver = .running
    return [.startHandOver]
  }

  /// The camera's hand-over ended: the shutter may fire if it was waiting for it.
  mutating func handedOver(_ error: StepError?, at now: Duration) -> [Action] {
    guard handOver == .running else { return [] }
    handOver = .done
    switch phase {
    case .preparing, .counting, .waiting: break
    case .collecting, .capturing, .finished: return []
    }
    if let error {
      return fail(
        PhotoTimerFailure(
          cause: .stepFailed(.camera), message: "camera not free to shoot: \(error.message)"),
        at: now)
    }
    if phase == .waiting, waitingAtZero.isEmpty { return shoot(at: now) }
    return []
  }

  /// What the shutter waits for at zero: the required steps not ended, and the camera while
  /// its hand-over has not ended.
  var waitingAtZero: [PreparationStep] {
    let pending = pendingRequired
    switch handOver {
    case .notNeeded, .done: return pending
    case .pending, .running: return pending.contains(.camera) ? pending : [.camera] + pending
    }
  }

  /// The camera went away during the count (or the wait): the run ends now, not at zero.
  mutating func cameraLost(_ error: StepError, at now: Duration) -> [Action] {
    switch phase {
    case .preparing, .counting, .waiting:
      return fail(
        PhotoTimerFailure(cause: .cameraLost, message: "camera lost: \(error.message)"), at: now)
    case .collecting, .capturing, .finished:
      // NB: the capture reports its own failure.
      return []
    }
  }

  mutating func waitRanOut(at now: Duration) -> [Action] {
    guard phase == .waiting else { return [] }
    let late = waitingAtZero
    let names = late.map(\.rawValue).joined(separator: " and ")
    let waited = waitLimit.formattedSeconds(fractionDigits: 1)
    if late == [.camera], !pendingRequired.contains(.camera) {
      return fail(
        PhotoTimerFailure(
          cause: .notReadyInTime(late),
          message: "camera still not free to shoot \(waited) s after the countdown ended (it "
            + "was ending its live view); check that it is connected and answering, or allow a "
            + "longer wait"),
        at: now)
    }
    let failure = PhotoTimerFailure(
      cause: .notReadyInTime(late),
      message: "\(names) not ready \(waited) s after the countdown ended; check that the "
        + "camera is connected and not in use by another program, or allow a longer wait")
    return fail(failure, at: now)
  }

  /// The shutter: ask the steps still unfinished what they know, or capture at once.
  mutating func shoot(at now: Duration) -> [Action] {
    phase = .collecting(shutter: now)
    guard unfinished.isEmpty else { return [.askReady(unfinished)] }
    return collected([:])
  }

  mutating func collected(_ answers: [PreparationStep: Result<StepValue, StepError>]) -> [Action] {
    guard case .collecting(let now) = phase else {
      preconditionFailure("Internal inconsistency: ready values outside the shutter")
    }
    var actions: [Action] = []
    for step in unfinished {
      guard let answer = answers[step] else {
        preconditionFailure("Internal inconsistency: no answer for \(step) at the shutter")
      }
      // A step still running at the shutter and without a value is dropped, not failed.
      actions.append(conclude(step, answer, elapsed: now, at: now, failure: StepOutcome.dropped))
    }
    unfinished.removeAll()
    running.removeAll()
    guard let settings else {
      preconditionFailure("Internal inconsistency: the shutter fired without camera settings")
    }
    let request = CaptureRequest(
      settings: settings, location: location, filter: suggestion?.filter ?? .natural,
      shutterOffset: now, people: people)
    phase = .capturing(request)
    actions.append(.publish(event(.shutter, at: now)))
    actions.append(.capture(request))
    return actions
  }

  mutating func captureEnded(
    _ result: Result<CapturedFile, StepError>, at now: Duration
  ) -> [Action] {
    guard case .capturing(let request) = phase else {
      preconditionFailure("Internal inconsistency: a capture ended that never started")
    }
    switch result {
    case .success(let file):
      phase = .finished
      // NB: the camera's own account of the exposure wins over the estimate made while
      // counting (a DSLR meters and exposes by itself).
      let photo = CapturedPhoto(
        settings: file.settings ?? request.settings, location: request.location,
        filter: request.filter, file: file.url,
        reports: PreparationStep.allCases.compactMap { reports[$0] },
        shutterOffset: request.shutterOffset, settingsNote: file.settingsNote,
        people: file.people ?? request.people)
      return [.publish(event(.captured(photo), at: now)), .finish(.captured(photo))]
    case .failure(let error):
      return fail(
        PhotoTimerFailure(cause: .captureFailed, message: "capture failed: \(error.message)"),
        at: now)
    }
  }

  mutating func fail(_ failure: PhotoTimerFailure, at now: Duration) -> [Action] {
    phase = .finished
    return [.publish(event(.failed(failure), at: now)), .finish(.failed(failure))]
  }

  /// Required steps that have not ended, in step order.
  var pendingRequired: [PreparationStep] {
    PreparationStep.allCases.filter { required.contains($0) && unfinished.contains($0) }
  }

  /// Records how a step ended (its value, or the outcome `failure` makes of its error) and
  /// returns the event that publishes it.
  mutating func conclude(
    _ step: PreparationStep, _ result: Result<StepValue, StepError>, elapsed: Duration,
    at now: Duration, failure: (String) -> StepOutcome
  ) -> Action {
    let outcome: StepOutcome
    switch result {
    case .success(let value):
      record(value)
      outcome = .succeeded(value)
    case .failure(let error):
      outcome = failure(error.message)
    }
    let report = StepReport(step: step, outcome: outcome, elapsed: elapsed)
    reports[step] = report
    return .publish(event(.stepFinished(report), at: now))
  }

  mutating func record(_ value: StepValue) {
    switch value {
    case .camera(let value): settings = value
    case .location(let value): location = value
    case .filter(let value): suggestion = value
    case .people(let value): people = value
    }
  }
}
