import PhotoTimerImaging

/// The booth's options (`phototimer booth`), declared beside the others' rules.
extension CommandOption {
  /// The names, the value and the help of a booth option.
  var boothDeclaration: Declaration {
    switch self {
    case .shots:
      Declaration(
        names: ["--shots"], value: .integer(name: "N", range: 1...4, unit: "shots", example: "4"),
        help: ["booth: the shots of a session, 1…4 (default \(defaults.boothPlan.shots))"],
        set: .integer(\.boothPlan.shots))
    case .between:
      Declaration(
        names: ["--between"],
        value: .integer(name: "SECONDS", range: 0...60, unit: "seconds", example: "3"),
        help: [
          "booth: the count before each later shot and each retake, 0…60 seconds (default "
            + "\(defaults.boothPlan.between))"
        ],
        set: .integer(\.boothPlan.between))
    case .review:
      Declaration(
        names: ["--review"],
        value: .integer(name: "SECONDS", range: 0...60, unit: "seconds", example: "4"),
        help: [
          "booth: how long each shot is shown with keep and retake before it is kept, 0…60 "
            + "seconds; 0 keeps each shot at once (default \(defaults.boothPlan.review))"
        ],
        set: .integer(\.boothPlan.review))
    case .retakes:
      Declaration(
        names: ["--retakes"],
        value: .integer(name: "N", range: 0...9, unit: "retakes", example: "1"),
        help: [
          "booth: how many times each shot may be taken again, 0…9 (default "
            + "\(defaults.boothPlan.retakes))"
        ],
        set: .integer(\.boothPlan.retakes))
    case .layout:
      Declaration(
        names: ["--layout"], value: .text(name: "NAME|FILE", example: "strip"),
        help: [
          "booth: the collage's layout: strip, postcard, single or a JSON file (default "
            + "\(defaults.layout))"
        ],
        set: .parse { run, text in
          run.layout = text
          return []
        },
        completion: .words(BoothLayout.builtIn.map { Word($0.name, "a built-in layout") }))
    case .event:
      Declaration(
        names: ["--event"], value: .text(name: "NAME", example: "wedding"),
        help: [
          "booth: an event's folder: photos in NAME/ inside the photo folder, sessions numbered "
            + "on from the last run's, and a log of the event (event.jsonl) beside them"
        ],
        set: .parse { run, text in
          if let problem = EventName.problem(text) { return ["--event: \(problem)"] }
          run.event = text
          return []
        })
    case .noGuestLinks:
      Declaration(
        names: ["--no-guest-links"], value: nil,
        help: [
          "booth: no guest link or QR code after a collage (the remote's control link stays)"
        ],
        set: .flag { $0.guestLinks = false })
    case .fullscreen:
      Declaration(
        names: ["--fullscreen"], value: nil,
        help: [
          "window: the picture and the buttons fill the screen, the choices hidden, the cursor "
            + "hidden while still (a booth's screen); Ctrl+Q closes (a booth's asks first)"
        ],
        set: .flag { $0.fullscreen = true })
    case .idle:
      Declaration(
        names: ["--idle"],
        value: .integer(name: "SECONDS", range: 0...3600, unit: "seconds", example: "30"),
        help: [
          "window booth: after SECONDS without a press, the live picture and the last collages "
            + "in turn until someone presses, 0…3600; 0 never (default \(defaults.idle))"
        ],
        set: .integer(\.idle))
    default:
      preconditionFailure("\(self) is not a booth option")
    }
  }
}
