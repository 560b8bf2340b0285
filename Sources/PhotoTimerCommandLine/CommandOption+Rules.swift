extension CommandOption {
  /// Options that cannot be given together.
  package struct Conflict: Sendable {
    /// The options; two or more of them given is the problem.
    package var options: [CommandOption]
    /// The message, from the names of those given; by default "A and B cannot be combined".
    package var message: @Sendable ([String]) -> String

    init(_ options: [CommandOption], because reason: String = "") {
      self.options = options
      message = { "\($0.joined(separator: " and ")) cannot be combined\(reason)" }
    }

    init(_ options: [CommandOption], message: @escaping @Sendable ([String]) -> String) {
      self.options = options
      self.message = message
    }
  }

  /// An option that means nothing without another.
  package struct Requirement: Sendable {
    /// The option given.
    package var option: CommandOption
    /// The option it needs.
    package var needs: CommandOption
    /// What to say when it is missing.
    package var message: String
  }

  /// Every pair (or group) of options that exclude each other, declared once.
  package static let conflicts: [Conflict] = [
    Conflict([.location, .noLocation, .gpsd], because: "; choose one source of location"),
    Conflict([.beep, .noBeep]),
    Conflict([.mirror, .noMirror]),
    Conflict([.frame, .json]) { _ in
      "--frame needs the live view; it cannot be combined with --json"
    },
    Conflict([.frame, .interval], because: ": a time-lapse does not wait for keys"),
    Conflict([.simulate, .camera]),
    Conflict([.frame, .simulate]) { _ in
      "--frame needs a camera; it cannot be combined with --simulate"
    },
    Conflict([.remote, .simulate]) { _ in
      "--remote needs a camera to show; it cannot be combined with --simulate"
    },
    Conflict([.remote, .interval], because: ": a time-lapse does not wait for the remote"),
    Conflict([.startWhenReady, .simulate]) { _ in
      "--start-when-ready needs a camera to watch; it cannot be combined with --simulate"
    },
    Conflict([.startWhenReady, .noPeople]) { _ in
      "--start-when-ready looks for the people; it cannot be combined with --no-people"
    },
    Conflict(
      [.startWhenReady, .interval], because: ": a time-lapse does not wait for the people"),
    Conflict([.print, .simulate]) { _ in
      "--print needs a photo to print; it cannot be combined with --simulate"
    },
    Conflict([.print, .interval], because: ": a time-lapse does not print"),
  ]

  /// The options only a booth takes (`phototimer booth`).
  package static let boothOptions: [CommandOption] = [
    .shots, .between, .review, .retakes, .layout, .event, .noGuestLinks, .idle,
  ]

  /// The options a booth cannot take: a time-lapse, no pixels for a collage, no review to
  /// wait for.
  package static let notInBooth: [CommandOption] = [.interval, .count, .simulate, .burst]

  /// Why, in words.
  package static let whyNotInBooth =
    "a booth takes one photo a shot, from a camera's pictures, each kept or taken again"

  /// Every option that needs another, declared once.
  package static let requirements: [Requirement] =
    [
      Requirement(
        option: .count, needs: .interval,
        message: "--count needs --interval SECONDS (the time between shots)"),
      Requirement(
        option: .interval, needs: .count, message: "--interval needs --count N (how many shots)"),
      Requirement(
        option: .noGuestLinks, needs: .remote,
        message: "--no-guest-links turns off the remote's guest links: it needs --remote"),
    ] + printRequirements

  /// The problems of `given` (in the order they were given) under the declared conflicts and
  /// requirements.
  package static func problems(of given: [CommandOption]) -> [String] {
    var problems: [String] = []
    for conflict in conflicts {
      let present = given.filter(conflict.options.contains)
      var seen: [CommandOption] = []
      for option in present where !seen.contains(option) { seen.append(option) }
      if seen.count > 1 { problems.append(conflict.message(seen.map(\.name))) }
    }
    let set = Set(given)
    for requirement in requirements where set.contains(requirement.option) {
      if !set.contains(requirement.needs) { problems.append(requirement.message) }
    }
    return problems
  }
}
