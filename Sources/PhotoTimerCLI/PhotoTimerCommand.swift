import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerGPSD
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerPOSIX
import PhotoTimerSetup

/// `phototimer`: the self-timer with a live terminal view, plain lines or JSON Lines.
@main
struct PhotoTimerCommand {
  static func main() async {
    // NB: a closed pipe downstream (phototimer --json | head -1) is an error to handle, not a
    // reason to die without restoring the terminal.
    SignalWatcher.ignoreBrokenPipe()
    ThreadPriority.lowerCPUWork()
    // NB: the shells' completion and the packaging's generated pages, before any parsing.
    if let answer = await InternalCommand.run(
      Array(CommandLine.arguments.dropFirst()), completion: .onThisMachine)
    {
      if answer.status == .success {
        StandardStream.output.write(answer.output)
      } else {
        writeError(answer.output)
      }
      exit(answer.status.rawValue)
    }
    let environment = ProcessInfo.processInfo.environment
    let options: CommandOptions
    do {
      options = try CommandOptions(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
    } catch {
      writeError(error.problems.map { "error: \($0)\n" }.joined() + CommandOptions.usageLine + "\n")
      exit(ExitCode.usage.rawValue)
    }
    switch options.action {
    case .help:
      StandardStream.output.write(CommandOptions.help + "\n")
      exit(ExitCode.success.rawValue)
    case .version:
      StandardStream.output.write("phototimer \(PhotoTimerVersion.current)\n")
      exit(ExitCode.success.rawValue)
    case .doctor(let run):
      exit(await Doctor(options: run).report())
    case .run(var run):
      var fallback: String?
      if run.camera.isAuto {
        run.camera = await ProgramSetup.resolveAuto()
        if run.camera.scenePreset != nil { fallback = ProgramSetup.noCameraFound }
      }
      if let problem = ProgramSetup.checkCamera(run) {
        writeError("error: \(problem)\n" + CommandOptions.usageLine + "\n")
        exit(ExitCode.usage.rawValue)
      }
      if let note = ProgramSetup.placeDataNote(run) { writeError(note) }
      // NB: a layout that is wrong is said, every problem, before anything starts; so is an
      // event's log that cannot be opened (the sessions are numbered from it).
      let booth: BoothRunner?
      do throws(BoothRunner.SetupError) {
        booth = try BoothRunner.prepare(run, clock: ContinuousClock())
      } catch {
        if case .layout = error {
          writeError("error: \(error)\n" + CommandOptions.usageLine + "\n")
          exit(ExitCode.usage.rawValue)
        }
        writeError("error: \(error)\n")
        exit(ExitCode.failure.rawValue)
      }
      // NB: a printer that has no paper of the layout's size is said before anything counts;
      // one that cannot be reached now is said and watched.
      let printer = PrintRunner.prepare(
        run, layout: booth?.layout, log: booth?.log, clock: ContinuousClock())
      do throws(PrintError) {
        try await printer?.check()
      } catch {
        writeError("error: \(error)\n")
        exit(ExitCode.failure.rawValue)
      }
      if run.frame, CommandScreen.mode(run, interactive: Terminal.isInteractive) != .live {
        writeError(
          "error: --frame needs a terminal to show the preview and read keys\n"
            + CommandOptions.usageLine + "\n")
        exit(ExitCode.usage.rawValue)
      }
      let interactive = Terminal.isInteractive
      let size = Terminal.size
      let parts: ScreenStage.Parts
      do {
        // NB: the screen holds the camera when it shows its picture, frames first or serves a
        // remote; else each run opens and closes its own.
        parts = try await ScreenStage.Parts.build(run, fallback: fallback) { [run] hasCamera in
          CommandScreen(
            options: run, environment: environment, interactive: interactive, size: size,
            hasCamera: hasCamera
          ).holdsCamera
        }
      } catch {
        // NB: a size the camera lacks is the command line's mistake: the sizes it has follow.
        if case CameraOpenError.usage(let problem) = error {
          writeError("error: \(problem)\n" + CommandOptions.usageLine + "\n")
          exit(ExitCode.usage.rawValue)
        }
        writeError("error: \(CommandAdvice.advise(error))\n")
        exit(ExitCode.failure.rawValue)
      }
      let screen = CommandScreen(
        options: run, environment: environment, interactive: interactive, size: size,
        hasCamera: parts.hasCamera)
      let session = CommandSession(
        options: run, services: parts.services, screen: screen, camera: parts.camera,
        identity: parts.identity, ready: parts.ready, booth: booth, printer: printer)
      exit(await session.run().rawValue)
    }
  }

  static func writeError(_ text: String) {
    StandardStream.error.write(text)
  }
}
