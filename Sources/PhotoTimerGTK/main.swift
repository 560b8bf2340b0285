import CGTK
import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerPOSIX
import PhotoTimerSetup

// `phototimer-gtk`: the self-timer in a GTK 4 window. GTK owns the main thread; the main
// actor runs inside its loop (MainQueueSource).

SignalWatcher.ignoreBrokenPipe()
ThreadPriority.lowerCPUWork()
let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, status: ExitCode) -> Never {
  FileHandle.standardError.write(Data(message.utf8))
  exit(status.rawValue)
}

let windowOptions: WindowOptions
do {
  windowOptions = try WindowOptions(arguments: arguments)
} catch {
  fail(
    error.problems.map { "error: \($0)\n" }.joined() + WindowOptions.usageLine + "\n",
    status: .usage)
}

switch windowOptions.action {
case .help:
  print(WindowOptions.help)
  exit(ExitCode.success.rawValue)
case .version:
  print("phototimer-gtk \(PhotoTimerVersion.current)")
  exit(ExitCode.success.rawValue)
case .run(var options, let given):
  let settingsFile = WindowSettings.file(environment: environment)
  let settings = WindowSettings.load(from: settingsFile)
  settings.apply(to: &options, given: given)
  // NB: a file given on the command line; one remembered in the settings that has gone opens
  // with the window's own words (the camera menu offers another).
  if given.contains(.camera), let problem = ProgramSetup.checkCamera(options) {
    fail("error: \(problem)\n" + WindowOptions.usageLine + "\n", status: .usage)
  }
  if let note = ProgramSetup.placeDataNote(options) {
    FileHandle.standardError.write(Data(note.utf8))
  }
  // NB: a booth's layout that is wrong, or an event's log that cannot be opened, is said
  // before the window opens, as the command says it.
  let booth: BoothRunner?
  do throws(BoothRunner.SetupError) {
    booth = try BoothRunner.prepare(options, clock: ContinuousClock())
  } catch {
    if case .layout = error {
      fail("error: \(error)\n" + WindowOptions.usageLine + "\n", status: .usage)
    }
    fail("error: \(error)\n", status: .failure)
  }
  // NB: a printer CUPS does not have, or without the layout's paper, is said before the
  // window opens too.
  // NB: asked here on the main thread, blocking: the window's loop does not run yet.
  if let problem = PrintRunner.checkBlocking(options, layout: booth?.layout) {
    fail("error: \(problem)\n", status: .failure)
  }
  let printer = PrintRunner.prepare(
    options, layout: booth?.layout, log: booth?.log, clock: ContinuousClock())

  // NB: with no GPU render node, GTK's GL renderer is Mesa's software rasteriser, which took
  // twice the CPU of the cairo renderer for the same preview (BENCHMARKS.md); GSK_RENDERER
  // set by the user wins.
  let renderNodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
  if environment["GSK_RENDERER"] == nil, !renderNodes.contains(where: { $0.hasPrefix("renderD") }) {
    try? FileSystem.setEnvironment("GSK_RENDERER", to: "cairo")
  }
  guard gtk_init_check() != 0 else {
    let display = environment["WAYLAND_DISPLAY"] ?? environment["DISPLAY"] ?? ""
    fail(
      "error: phototimer-gtk cannot open a display"
        + (display.isEmpty ? " (neither DISPLAY nor WAYLAND_DISPLAY is set)" : " ('\(display)')")
        + ": run it in a desktop session, or use 'phototimer' in a terminal\n",
      status: .failure)
  }
  MainQueueSource.install()
  // NB: NON_UNIQUE: each start is its own window, with no session bus needed.
  let application = made(gtk_application_new("org.phototimer.PhotoTimer", G_APPLICATION_NON_UNIQUE))
  Signal.on(raw(application), "activate") {
    let window = PhotoTimerWindow(
      application: application, options: options, settings: settings,
      settingsFile: settingsFile, trace: Trace(environment: environment), booth: booth,
      printer: printer)
    PhotoTimerWindow.current = window
    window.present()
  }
  // SIGINT and SIGTERM close the window the same way its close button does.
  typealias SignalCallback = @convention(c) (gpointer?) -> gboolean
  let interrupted: SignalCallback = { _ in
    MainActor.assumeIsolated {
      PhotoTimerWindow.current?.close(status: ExitCode.cancelled.rawValue)
    }
    return 1
  }
  let terminated: SignalCallback = { _ in
    MainActor.assumeIsolated {
      PhotoTimerWindow.current?.close(status: ExitCode.terminated.rawValue)
    }
    return 1
  }
  g_unix_signal_add(SIGINT, interrupted, nil)
  g_unix_signal_add(SIGTERM, terminated, nil)
  let status = g_application_run(gobject(raw(application), as: GApplication.self), 0, nil)
  g_object_unref(application)
  exit(status != 0 ? ExitCode.failure.rawValue : PhotoTimerWindow.exitStatus)
}
