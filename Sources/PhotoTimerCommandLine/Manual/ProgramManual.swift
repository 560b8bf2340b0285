import PhotoTimer
import PhotoTimerImaging

/// The manual pages of `phototimer` and `phototimer-gtk`, built from the same declarations as
/// `--help`: the options (``CommandOption``), the camera kinds (``CameraKinds``), the looks,
/// the scene presets, the keys and exit statuses (``ProgramHelp``). Only the prose that is the
/// page's own is written here.
extension ManualPage {
  /// The page of `program`.
  package static func of(_ program: ProgramHelp.Program) -> ManualPage {
    switch program {
    case .command: command
    case .window: window
    }
  }

  /// `phototimer(1)`.
  package static var command: ManualPage {
    let program = ProgramHelp.Program.command
    return page(
      program,
      synopsis: ["`phototimer` [*options*]", "`phototimer doctor` [*options*]"],
      description: [
        .paragraph(
          "`phototimer` counts down, prepares the shot during the count, and at zero writes"
            + " a JPEG with EXIF into your Pictures folder. While it counts it meters the"
            + " exposure on the running camera stream, gets a location fix from gpsd for the"
            + " geotag, looks at the preview to suggest a look, and finds the people in the"
            + " picture; at zero the photo is taken at once from the same stream, and with"
            + " people in it, from the first frame where every eye is open."),
        .paragraph(
          "In a terminal that takes 24-bit colour the live view is the picture itself, with"
            + " the big count over it and the checklist below; in other terminals a text"
            + " view. When standard output is not a terminal it writes one plain line per"
            + " change; `--json` writes JSON Lines events for scripts. Cancel at any moment"
            + " and everything the run started stops: the count, the camera, its child"
            + " processes, and no half-written file is left."),
        .paragraph(
          "`phototimer doctor` says which cameras, tools and libraries are present, what"
            + " each webcam can stream, whether gpsd answers and whether the face model is"
            + " installed, each problem with its fix. It exits 1 when no photo could be"
            + " taken, 0 otherwise."),
      ],
      examples: [
        .paragraph("A photo with a 10 s count from the first webcam:"),
        .example(["phototimer -s 10"]),
        .paragraph(
          "Frame first on the live picture and start when the group of four is in and"
            + " still; the phone is the remote:"),
        .example(["phototimer --start-when-ready=4 --remote"]),
        .paragraph("An IP camera, its password kept out of the photo and the output:"),
        .example(["phototimer --camera ffmpeg:rtsp://user:secret@192.168.1.30/stream1"]),
        .paragraph("The scene camera at golden hour, no location, events for a script:"),
        .example(["phototimer --camera scene:golden-hour --no-location --json -s 3"]),
        .paragraph("A time-lapse of 100 shots, one every 10 s:"),
        .example(["phototimer --interval 10 --count 100 -o ~/Pictures/lapse"]),
      ])
  }

  /// `phototimer-gtk(1)`.
  package static var window: ManualPage {
    let program = ProgramHelp.Program.window
    return page(
      program,
      synopsis: ["`phototimer-gtk` [*options*]"],
      description: [
        .paragraph(
          "`phototimer-gtk` is the self-timer of `phototimer`(1) in a GTK 4 window. The live"
            + " preview fills the window, the count is drawn big over it and a checklist"
            + " shows the camera, location, look and people steps as they prepare the shot."
            + " At zero a white flash and the desktop's shutter sound, then the photo with"
            + " its settings, place, look, file and the run's timeline."),
        .paragraph(
          "The countdown, the camera, the look and location are chosen below the picture;"
            + " the switch beside Start starts the count by itself once the group is in."
            + " The Remote button serves the phone's page, as `--remote` does."),
        .paragraph(
          "It takes `phototimer`'s options for the camera, the count, the folder, the"
            + " location and the look; those that only make sense in a terminal are refused"
            + " with what to run instead. Closing the window, Ctrl+Q, SIGINT or SIGTERM at"
            + " any moment cancels the run and closes the camera first."),
      ],
      examples: [
        .paragraph("The window on the scene camera with a 3 s count:"),
        .example(["phototimer-gtk --camera scene:golden-hour -s 3"]),
        .paragraph("The window with the phone as its remote:"),
        .example(["phototimer-gtk --remote"]),
      ])
  }

  /// The page of `program`: its own description and examples, and every section built from
  /// the declarations, in the same order for both programs.
  static func page(
    _ program: ProgramHelp.Program, synopsis: [String], description: [Block],
    examples: [Block]
  ) -> ManualPage {
    ManualPage(
      name: program.name, section: 1, version: PhotoTimerVersion.current,
      summary: program.summary, synopsis: synopsis,
      sections: [
        Section("DESCRIPTION", description),
        Section("OPTIONS", options(program.options)),
        cameraSources,
        Section("KEYS", program.keys.map { .item(term: "`\($0.term)`", text: [$0.text]) }),
        remote,
        Section(
          "LOOKS",
          [
            .paragraph(
              "The filter step suggests a look from the preview; `--filter` forces one: "
                + PhotoFilter.all.map { "`\($0.rawValue.lowercased())`" }.joined(separator: ", ")
                + ", or `none`.")
          ]),
        files(program),
        environment(program),
        Section("EXIT STATUS", program.exitStatuses.map { .item(term: $0.term, text: [$0.text]) }),
        Section("EXAMPLES", examples),
        seeAlso(program),
      ])
  }

  /// One item per option: its names, its value, its help.
  static func options(_ options: [CommandOption]) -> [Block] {
    options.map { option in
      let declaration = option.declaration
      var term = declaration.names.map { "`\($0)`" }.joined(separator: ", ")
      switch declaration.value {
      case .optional(let name, _)?: term += "[=*\(name)*]"
      case let value?: term += " *\(value.name)*"
      case nil: break
      }
      return .item(term: term, text: declaration.help)
    }
  }

  /// Every kind `--camera` names, from the registry, and the presets.
  static var cameraSources: Section {
    var blocks: [Block] = [
      .paragraph(
        "`--camera` takes one of these; without it, `auto`. `phototimer doctor` lists the"
          + " cameras present.")
    ]
    for kind in CameraKinds.all {
      guard let usage = kind.usage else { continue }
      blocks.append(.item(term: "`\(usage)`", text: [kind.summary + "."]))
    }
    blocks.append(
      .paragraph(
        "The scene camera's presets: "
          + ScenePreset.all.map { "`\($0.name)`" }.joined(separator: ", ") + "."))
    return Section("CAMERA SOURCES", blocks)
  }

  static var remote: Section {
    Section(
      "THE REMOTE",
      [
        .paragraph(
          "`--remote` serves a page that a phone on the same network opens: the live picture,"
            + " the count, the checklist, Start, Take it now, Cancel and Restart, and after the"
            + " photo the photo itself and a download of the saved file. The link, with a fresh"
            + " 128-bit token, is printed with its QR code; without the token every route answers"
            + " 403. The traffic is plain HTTP: use it on a network you trust, or"
            + " `--remote=127.0.0.1:PORT` behind a tunnel of your own."),
        .paragraph(
          "Scripts speak to the same server with `Authorization: Bearer TOKEN`:"
            + " `GET /api/state`, `GET /api/events` (Server-Sent Events), `POST /api/start`,"
            + " `/api/take-now`, `/api/cancel`, `/api/restart`, `/api/start-when-ready?on=1`, and"
            + " `GET /api/photos/ID?download=1`."),
      ])
  }

  static func files(_ program: ProgramHelp.Program) -> Section {
    var blocks: [Block] = [
      .item(
        term: "*$XDG_PICTURES_DIR*`/phototimer/`",
        text: [
          "Where photos are written unless `--output` says otherwise (`~/Pictures/phototimer`)."
        ]),
      .item(
        term: "`/usr/share/phototimer/cities15000.tsv`, `countries.tsv`",
        text: ["The places a location is named by (GeoNames, CC BY 4.0), read once per run."]),
      .item(
        term: "`/usr/share/dlib/shape_predictor_68_face_landmarks.dat`",
        text: [
          "dlib's face landmark model (Debian's `libdlib-data`). Without it the people step"
            + " says so and the photo is taken as before."
        ]),
    ]
    if program == .window {
      blocks.append(
        .item(
          term: "*$XDG_CONFIG_HOME*`/phototimer/window.json`",
          text: ["The last countdown, camera and look chosen in the window; options win over it."]))
    }
    return Section("FILES", blocks)
  }

  static func environment(_ program: ProgramHelp.Program) -> Section {
    var blocks: [Block] = [
      .item(term: "`XDG_PICTURES_DIR`, `HOME`", text: ["Where the Pictures folder is."]),
      .item(term: "`PIPEWIRE_REMOTE`", text: ["The PipeWire daemon to ask for cameras."]),
    ]
    switch program {
    case .command:
      blocks += [
        .item(term: "`NO_COLOR`", text: ["When set and not empty: no colour, the text view."]),
        .item(
          term: "`COLORTERM`",
          text: ["`truecolor` or `24bit`: the live view shows the camera's picture."]),
        .item(
          term: "`TERM`, `TERM_PROGRAM`, `KITTY_WINDOW_ID`",
          text: [
            "Which terminal it is: kitty, Ghostty and WezTerm get the kitty graphics protocol."
          ]),
      ]
    case .window:
      blocks += [
        .item(term: "`DISPLAY`, `WAYLAND_DISPLAY`", text: ["The display the window opens on."]),
        .item(term: "`XDG_CONFIG_HOME`", text: ["Where the window's settings are kept."]),
        .item(
          term: "`GSK_RENDERER`",
          text: ["GTK's renderer; without a GPU render node the window picks `cairo` unless set."]),
      ]
    }
    return Section("ENVIRONMENT", blocks)
  }

  static func seeAlso(_ program: ProgramHelp.Program) -> Section {
    let other = program == .command ? "`phototimer-gtk`(1)" : "`phototimer`(1)"
    return Section(
      "SEE ALSO",
      [
        .paragraph(
          [other, "`ffmpeg`(1)", "`gphoto2`(1)", "`gpsd`(8)"].joined(separator: ", ")
            + ". The full reference: /usr/share/doc/phototimer/README.md.")
      ])
  }
}
