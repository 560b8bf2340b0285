import PhotoTimerCommandLine
import PhotoTimerSetup
import PhotoTimerTerminal

/// How the invocation is shown, decided once from the options and the terminal.
struct CommandScreen: Equatable {
  var mode: CommandOptions.OutputMode
  /// How the preview is drawn, or `nil` for none.
  var preview: TerminalGraphics.Method?
  /// Whether previews are mirrored.
  var mirrored: Bool
  /// Why the live view shows no picture though one was not turned off (`--no-preview`),
  /// and what to do, for its header; `nil` when it shows one or none was wanted.
  var noPicture: String?
  /// Whether it frames between counts: `--frame`, a remote (the phone starts each count),
  /// or a count that starts itself when the people are in (`--start-when-ready`).
  var frames: Bool
  /// Whether it runs a booth (`phototimer booth`).
  var booth: Bool

  /// The screen for `options` on this terminal.
  ///
  /// The preview is on in the live view when the terminal takes 24-bit colour, colour is
  /// allowed (`NO_COLOR`, `--no-color`), the terminal is at least 40 × 16, there is a
  /// camera to watch, and `--no-preview` was not given. Webcams are mirrored unless
  /// `--no-mirror`.
  init(
    options: CommandOptions.RunOptions, environment: [String: String], interactive: Bool,
    size: (columns: Int, rows: Int), hasCamera: Bool
  ) {
    mode = Self.mode(options, interactive: interactive)
    booth = options.booth
    // NB: a booth on a terminal runs session after session; elsewhere it runs one.
    frames =
      options.frame || options.remote != nil || options.startWhenReady
      || options.booth && mode == .live
    let graphics = TerminalGraphics(environment: environment)
    let wanted = mode == .live && options.preview && options.color && hasCamera
    preview = wanted && graphics.trueColor && ScreenLayout.fits(size) ? graphics.method : nil
    mirrored = options.mirror ?? options.camera.driver.mirrored(options.camera)
    if mode == .live, options.preview, hasCamera, preview == nil {
      if !options.color {
        noPicture = "no picture: colour is off (NO_COLOR or --no-color)"
      } else if !graphics.trueColor {
        noPicture =
          "no picture: if this terminal shows 24-bit colour, set COLORTERM=truecolor"
      } else {
        noPicture = "no picture: the terminal is smaller than 40 × 16"
      }
    }
  }

  /// The output mode: JSON Lines with `--json`, else the live view on a terminal and plain
  /// lines elsewhere.
  static func mode(
    _ options: CommandOptions.RunOptions, interactive: Bool
  ) -> CommandOptions.OutputMode {
    options.json ? .json : (interactive ? .live : .plain)
  }

  /// Whether the screen holds the camera: when it shows its picture, frames first, serves
  /// a remote or runs a booth (its shots one after another on the same open camera); else
  /// each run opens and closes its own.
  var holdsCamera: Bool { preview != nil || frames || booth }
}
